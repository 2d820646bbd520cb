"""The game families, found by one registry: :func:`family_of` a rule set.

A :class:`Family` says, for the games of one family, what the engine, the bots
and the research interfaces need to know beyond the rule parameters: the deal
class it plays (and the hook that starts one), whether it has a passing phase,
calls beyond card play or a declaration round, how a deal is scored, whether
the exact solver models it, and the modules that hold its rules.  A family is
keyed on the rule parameter ``game`` (:data:`polignac.core.rules.GAMES`) and
looked up once per rule set (``Rules.family``, kept in the deal's tables), never
per action.

Families:

- ``trick-avoidance``: the penalty games (Polignac and its variants,
  Slobberhannes, Eichelobern, Grasobern): ``game`` polignac or slobberhannes;
- ``knaves``: Knaves (a turned-up trump, the taker gains its points);
- ``bassadewitz``: Bassadewitz (settled in chips);
- ``pollack``: Pollack (partnerships, announcements and a claim:
  :mod:`polignac.core.pollack`);
- ``hearts``: the Hearts family, Black Lady and Black Maria (passing, the
  first trick's restrictions, hearts breaking, the moon:
  :mod:`polignac.core.hearts`, :mod:`polignac.core.hearts_deal`).

A new family: a :class:`Family` passed to :func:`register` (its ``game`` values
added to ``GAMES``), see docs/architecture.md#change-family.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .cards import Mask
from .deal import Deal, _Tables
from .errors import RulesError
from .hearts_deal import HeartsDeal, start_hearts
from .pollack import score_pollack
from .rules import Rules
from .scoring import DealScore, score_chips, score_tricks

StartDeal = Callable[[_Tables, tuple[Mask, ...], int], Deal]
"""A family's hook that starts its deal from checked hands: (tables, hands, dealer)."""


@dataclass(frozen=True)
class Family:
    """One game family: what is chosen by the family, once per rule set."""

    name: str
    """The family's name (``trick-avoidance``, ``knaves``, ``bassadewitz``,
    ``pollack``, ``hearts``)."""
    games: tuple[str, ...]
    """The values of the rule parameter ``game`` that belong to it."""
    deal_class: type[Deal]
    """The class of its deals (:class:`Deal`, or a subclass with the family's phases)."""
    start: StartDeal | None
    """Starts its deal from checked hands (None: the plain :class:`Deal`'s start)."""
    passing: bool
    """It may pass cards before play (a ``pass`` phase; ``Rules.passing``)."""
    calls: bool
    """It may have calls beyond card play (announcements, a claim; ``Rules.has_calls``)."""
    declaration_round: bool
    """It may have a declaration round before the first card (``Rules.has_declaration_round``)."""
    score: Callable[..., DealScore]
    """Its deal's scoring from the deal's facts (the engine and the score pad use it)."""
    exact_solver: bool
    """The exact solver (bots/solver.py) models its play and scoring: hints, the
    analysis of a record and the hard bot's endgame use it only then."""
    modules: tuple[str, ...]
    """The modules that hold its own rules (beyond the shared core)."""


TRICK_AVOIDANCE: Final = Family(
    "trick-avoidance", ("polignac", "slobberhannes"), Deal, None, passing=False,
    calls=False, declaration_round=True, score=score_tricks, exact_solver=True,
    modules=("polignac.core.deal", "polignac.core.scoring"))
KNAVES: Final = Family(
    "knaves", ("knaves",), Deal, None, passing=False, calls=False,
    declaration_round=False, score=score_tricks, exact_solver=True,
    modules=("polignac.core.deal", "polignac.core.scoring"))
BASSADEWITZ: Final = Family(
    "bassadewitz", ("bassadewitz",), Deal, None, passing=False, calls=False,
    declaration_round=False, score=score_chips, exact_solver=True,
    modules=("polignac.core.scoring",))
POLLACK: Final = Family(
    "pollack", ("pollack",), Deal, None, passing=False, calls=True,
    declaration_round=False, score=score_pollack, exact_solver=True,
    modules=("polignac.core.pollack",))
HEARTS: Final = Family(
    "hearts", ("hearts",), HeartsDeal, start_hearts, passing=True, calls=False,
    declaration_round=False, score=score_tricks, exact_solver=True,
    modules=("polignac.core.hearts", "polignac.core.hearts_deal"))

_BY_GAME: dict[str, Family] = {}


def register(family: Family) -> Family:
    """Add ``family`` to the registry, under each of its ``games``; return it.

    Raises:
        ValueError: one of its games already belongs to another family.
    """
    for game in family.games:
        other = _BY_GAME.get(game)
        if other is not None and other is not family:
            raise ValueError(f"game {game!r} already belongs to family {other.name!r}")
    for game in family.games:
        _BY_GAME[game] = family
    return family


for _family in (TRICK_AVOIDANCE, KNAVES, BASSADEWITZ, POLLACK, HEARTS):
    register(_family)


def families() -> tuple[Family, ...]:
    """Every registered family, once each, in the order registered."""
    return tuple(dict.fromkeys(_BY_GAME.values()))


def family_of(rules: Rules) -> Family:
    """The family of ``rules`` (by its ``game``): a dictionary look-up, done once
    per rule set by its callers (``Rules.family``, the deal's tables).

    Raises:
        RulesError: no family is registered for ``rules.game``.
    """
    family = _BY_GAME.get(rules.game)
    if family is None:
        raise RulesError(f"game {rules.game!r} has no family; known: {', '.join(_BY_GAME)}")
    return family
