"""Every preset of the rule book (docs/rules/README.md#presets), registered by name.

>>> get_rules("slobberhannes").card_points
{'QC': 1}
>>> get_rules("polignac", {"threshold": 10}).threshold
10
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Final

from .errors import RulesError
from .rules import Rules, show

_POLIGNAC: Final = Rules()  # the defaults of Rules are the `polignac` preset


def _from(base: Rules, name: str, **changes: Any) -> Rules:
    return dataclasses.replace(base, preset=name, **changes)


_THRESHOLD = _from(
    _POLIGNAC,
    "polignac-threshold",
    direction="counter-clockwise",
    packets=(3, 2, 3),
    match_end="threshold-lowest-wins",
)
_FR = _from(
    _POLIGNAC,
    "polignac-fr",
    players=(3, 4, 5, 6, 7, 8),
    removals="red-sevens-fr",
    direction="counter-clockwise",
    packets=(2,),
    declaration="chelem",
)
_SLOBBER = _from(
    _POLIGNAC,
    "slobberhannes",
    game="slobberhannes",
    rank_order="AKQJT987",
    packets=(1,),
    card_points={"QC": 1},
    first_trick_points=1,
    last_trick_points=1,
    all_three_points=4,
    declaration="none",
    threshold=10,
)
_BASSADEWITZ = Rules(
    preset="bassadewitz",
    game="bassadewitz",
    players=(4,),
    removals="none",
    rank_order="ATKQJ987",
    packets=(4, 4),
    scoring="chips",
    card_points={"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2},
    declaration="none",
    match_end="chips",
    threshold=None,
)

_HEART_POINTS: Final = {f"{r}H": 1 for r in "23456789TJQKA"}
_BLACK_LADY = Rules(  # OpenSpiel's `hearts` with its default parameters, played to 100
    preset="black-lady",
    game="hearts",
    players=(4,),
    pack=52,
    removals="none",
    rank_order="AKQJT98765432",
    packets=(1,),
    card_points={"QS": 13, **_HEART_POINTS},
    declaration="none",
    match_end="threshold-lowest-shared",
    threshold=100,
    passing="rotate",
    first_lead="lowest-club",
    clean_first_trick=True,
    break_hearts=True,
    moon=True,
)

PRESETS: Final[dict[str, Rules]] = {
    r.preset: r
    for r in (
        _POLIGNAC,
        _from(_POLIGNAC, "polignac-queens", rank_order="AKQJT987",
              card_points={"QS": 2, "Q": 1}),
        _from(_POLIGNAC, "polignac-rounds", players=(4, 5, 6), rank_order="AKQJT987",
              packets=(1,), declaration="general", match_end="fixed-deals", threshold=None),
        _THRESHOLD,
        _from(_THRESHOLD, "polignac-threshold-general", declaration="general-bonus"),
        _FR,
        _from(_FR, "polignac-fr-generale", declaration="generale"),
        _from(_POLIGNAC, "quatre-valets", card_points={"J": 1}),
        _from(_POLIGNAC, "two-knaves", players=(3, 4), card_points={"JS": 2, "JD": 1}),
        _from(_POLIGNAC, "polignac-party", players=tuple(range(3, 11)), pack=52,
              removals="lowest-cards", rank_order="KQJAT98765432", packets=(1,)),
        _SLOBBER,
        _from(_SLOBBER, "eichelobern", suits="german", packets=(4, 4)),
        _from(_SLOBBER, "grasobern", suits="german", packets=(4, 4), card_points={"QS": 1}),
        _from(_POLIGNAC, "obern", suits="german", card_points={"Q": 1}),
        Rules(
            preset="knaves",
            game="knaves",
            players=(3,),
            default_players=3,
            pack=52,
            removals="none",
            rank_order="AKQJT98765432",
            packets=(1,),
            trumps="turn-up",
            scoring="points",
            card_points={"JS": -1, "JC": -2, "JD": -3, "JH": -4},
            trick_points=1,
            declaration="none",
            match_end="first-to-target",
            threshold=20,
        ),
        _BASSADEWITZ,
        _from(_BASSADEWITZ, "bassadewitz-points",
              card_points={"A": 5, "T": 10, "K": 4, "Q": 3, "J": 2}, trick_points=1),
        Rules(
            preset="pollack",
            game="pollack",
            players=(4,),
            removals="none",
            rank_order="T9AKQJ87",
            packets=(3, 3, 2),
            scoring="pollack",
            card_points={"A": 3, "K": 1, "Q": 1, "J": 1, "T": 1, "9": 1},
            last_trick_points=3,
            declaration="none",
            match_end="parties",
            threshold=None,
            partnerships=True,
            announcements=True,
            point_divisor=3,
        ),
        _BLACK_LADY,
        _from(_BLACK_LADY, "black-maria", players=(3, 4, 5, 6, 7), default_players=3,
              removals="lowest-cards", passing="right",
              card_points={"QS": 13, "KS": 10, "AS": 7, **_HEART_POINTS}),
    )
}
"""Every preset by name, in the order of the rule book."""


def preset_names() -> list[str]:
    """Return the names of every preset, in rule-book order."""
    return list(PRESETS)


def get_rules(preset: str, overrides: Mapping[str, Any] | None = None) -> Rules:
    """Return the rules of ``preset``, with house-rule ``overrides`` applied.

    Raises:
        RulesError: the preset is unknown (the message lists the known ones),
            or an override is unknown or invalid.
    """
    rules = PRESETS.get(preset)
    if rules is None:
        raise RulesError(
            f"unknown preset {show(preset)}; presets are: {', '.join(PRESETS)}"
        )
    if overrides:
        return rules.with_overrides(overrides)
    return rules


for _rules in PRESETS.values():
    _rules.validate()
