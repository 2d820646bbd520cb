"""A fixture family, "Red Queen": the Queen of hearts costs 5 to the player who takes it.

This module is the whole family: its :class:`~polignac.core.family.Family` subclass,
its one preset, and its tests' own reference data (what the rule book of a real
family would say, written out again for ``tests/core/reference.py``). No list of
the code or of the tests names it: it joins the families in use only when a test
asks, either for a while (``families.extended(FAMILY)``) or, loaded as a pytest
plugin (``pytest -p tests.core.fixture_family``), for a whole test session, whose
properties "over every preset" then take its preset too
(tests/core/test_fixture_family.py runs them so).
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from polignac.core.deal import Deal
from polignac.core.families import extended
from polignac.core.family import Family
from polignac.core.rules import Rules
from polignac.core.scoring import DealScore

PRESET = Rules(preset="red-queen", game="red-queen", scoring="penalty", players=(3, 4),
               default_players=4, pack=32, removals="black-sevens-unless-4",
               rank_order="AKQJT987", card_points={"QH": 5}, declaration="none",
               match_end="threshold-loser", threshold=20)
"""Its one preset: a 32-card pack, the Queen of hearts 5 to its taker, to 20."""


class RedQueenFamily(Family):
    """The Queen of hearts costs 5; scored as the trick-avoidance games are."""

    name = "red-queen"
    games = ("red-queen",)
    presets = (PRESET,)
    score_unit = "penalty points per deal"
    taken_unit = "penalty"

    def score_deal(self, deal: Deal) -> DealScore:  # pragma: no cover - scored by its scorer
        """Never called: its ``scoring`` (penalty) is the trick-avoidance family's."""
        return deal.rules.scorer.score_deal(deal)


FAMILY = RedQueenFamily()

REFERENCE: dict[str, dict[str, Any]] = {
    "CARD_VALUES": {"red-queen": {"QH": 5}},
    "RANK_ORDERS": {"red-queen": "AKQJT987"},
}
"""Its rules as tests/core/reference.py's tables hold them, written out again (the
reference reads them from here while the family is in use)."""


_SESSION = ExitStack()


def pytest_configure(config: Any) -> None:
    """As a plugin: the family joins for the whole session, before collection."""
    _SESSION.enter_context(extended(FAMILY))


def pytest_unconfigure(config: Any) -> None:
    """As a plugin: the session is over, the list is the fixed one again."""
    _SESSION.close()
