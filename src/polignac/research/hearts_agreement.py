"""Black Lady against OpenSpiel's ``hearts``: the same deal through both engines.

OpenSpiel's ``hearts`` with its default parameters is the preset ``black-lady``
played one deal at a time (docs/research.md says how each rule maps).
:func:`play_both` deals the same hands to both engines, plays the same random
actions in both and returns every disagreement it finds: a different player to
act, different legal actions at any step, different points at the end.

The mapping (OpenSpiel ``hearts.cc``):

- cards: ours are ``suit * 13 + rank``, OpenSpiel's ``rank * 4 + suit`` (same
  suits C D H S, same ranks 2 to Ace);
- players: OpenSpiel's player ``j`` is our player ``(eldest + j) % 4`` (both
  pass in that order, and "left" is the next player in play order in both);
- the deal: OpenSpiel's first chance node picks the pass direction (0 none,
  1 left, 2 across, 3 right); our ``rotate`` passing takes it from the dealer
  (:data:`polignac.core.hearts.ROTATION`), so the dealer is chosen to match;
  OpenSpiel then deals card ``i`` to its player ``i % 4``;
- points: OpenSpiel's returns are ``26 - points``; ours are the points.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..core.cards import cards_of
from ..core.deal import Deal
from ..core.hearts import ROTATION
from ..core.presets import get_rules
from ..core.rules import Rules

OPENSPIEL_DIRECTIONS = {"none": 0, "left": 1, "across": 2, "right": 3}
"""OpenSpiel's pass-direction chance outcome for each of our directions."""

TOTAL = 26
"""OpenSpiel's ``kTotalPositivePoints``: returns are this minus the points."""

HOUSE_RULES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "defaults": ({}, {}),
    "jd-bonus": ({"card_points": {"QS": 13, "JD": -10, **{f"{r}H": 1 for r in
                                                          "23456789TJQKA"}}},
                 {"jd_bonus": True}),
}
"""Our house rules and OpenSpiel's parameters that give the same game, by name."""


def to_openspiel(card: int) -> int:
    """OpenSpiel's number of our card ``card``."""
    return (card % 13) * 4 + card // 13


def from_openspiel(action: int) -> int:
    """Our number of OpenSpiel's card ``action``."""
    return (action % 4) * 13 + action // 4


def rules_for(name: str = "defaults") -> Rules:
    """The ``black-lady`` rules with the house rules that match OpenSpiel's ``name`` set."""
    return get_rules("black-lady", HOUSE_RULES[name][0])


def openspiel_params(name: str = "defaults") -> Mapping[str, Any]:
    """OpenSpiel's ``hearts`` parameters of the set ``name``."""
    return HOUSE_RULES[name][1]


def play_both(game: Any, rules: Rules, rng: random.Random) -> tuple[list[str], int]:
    """Play one random deal through both engines; return (disagreements, actions played).

    ``game`` is ``pyspiel.load_game("hearts", params)`` for the same rules.
    """
    direction = rng.choice(ROTATION)
    dealer = ROTATION.index(direction)  # rotate: the dealer's number picks the direction
    pack = list(range(52))
    rng.shuffle(pack)
    hands = [sorted(pack[13 * p: 13 * p + 13]) for p in range(4)]
    deal = Deal.from_hands(rules, hands, dealer)
    eldest = deal.eldest
    state = game.new_initial_state()
    state.apply_action(OPENSPIEL_DIRECTIONS[direction])
    for k in range(13):
        for j in range(4):
            state.apply_action(to_openspiel(hands[(eldest + j) % 4][k]))
    problems: list[str] = []
    steps = 0
    while not deal.done:
        if state.is_terminal():
            problems.append(f"step {steps}: OpenSpiel's deal is over, ours is not")
            return problems, steps
        mine = (deal.to_act - eldest) % 4
        if state.current_player() != mine:
            problems.append(f"step {steps}: OpenSpiel's player {state.current_player()} "
                            f"acts, ours is its player {mine}")
            return problems, steps
        ours = sorted(to_openspiel(a) for a in deal.legal_actions())
        theirs = sorted(state.legal_actions())
        if ours != theirs:
            problems.append(f"step {steps} ({deal.phase_name}): legal actions differ: ours "
                            f"{sorted(from_openspiel(a) for a in ours)}, OpenSpiel's "
                            f"{sorted(from_openspiel(a) for a in theirs)}")
            return problems, steps
        action = rng.choice(deal.legal_actions())
        deal = deal.apply(action)
        state.apply_action(to_openspiel(action))
        steps += 1
    if not state.is_terminal():
        problems.append("our deal is over, OpenSpiel's is not")
        return problems, steps
    scores = deal.score().scores
    returns = state.returns()
    for j in range(4):
        points = TOTAL - round(returns[j])
        if points != scores[(eldest + j) % 4]:
            problems.append(f"points differ: OpenSpiel's player {j} has {points}, our "
                            f"player {(eldest + j) % 4} {scores[(eldest + j) % 4]}")
    return problems, steps


def agreement(deals: int, seed: int = 0, name: str = "defaults"
              ) -> tuple[int, list[str], int]:
    """Play ``deals`` random deals through both engines (needs ``pyspiel``).

    Returns (deals with a disagreement, the first few disagreements, actions played).
    """
    import pyspiel

    game = pyspiel.load_game("hearts", dict(openspiel_params(name)))
    rules = rules_for(name)
    rng = random.Random(seed)
    bad = 0
    first: list[str] = []
    total = 0
    for d in range(deals):
        problems, steps = play_both(game, rules, rng)
        total += steps
        if problems:
            bad += 1
            if len(first) < 5:
                first += [f"deal {d}: {p}" for p in problems]
    return bad, first, total


__all__ = [
    "agreement",
    "cards_of",
    "from_openspiel",
    "openspiel_params",
    "play_both",
    "rules_for",
    "to_openspiel",
]
