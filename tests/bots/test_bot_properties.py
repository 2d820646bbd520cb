"""Every level in random games of every preset and player count: legal, reproducible,
and true to the announcement, claim and contract rules the bots promise.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polignac.bots.base import SeatView
from polignac.bots.registry import make_bot
from polignac.bots.runner import choose_action
from polignac.core import PRESETS, Match
from polignac.core.actions import ANNOUNCE_BASE, CAPOT, CLAIM, PASS
from polignac.core.cards import parse_cards

CASES = [(p, n) for p, r in PRESETS.items() for n in r.players]

# cheap settings: these tests are about rules, not strength (search with at most
# four cards in hand, medium's card before)
SPECS = [
    "random", "easy", "medium",
    "hard:roll=4,rollouts=2,samples=2,declare_samples=1,nodes=20000",
    "expert:roll=4,rollouts=2,samples=2,declare_samples=1,nodes=20000,work=200",
    "oracle:roll=4,nodes=20000",
]


def play(preset: str, n: int, specs: list[str], seed: int) -> list[tuple[int, ...]]:
    """Play one deal of a fresh match (two if the first ends at once); check every call.

    Returns the history of each deal played.
    """
    rules = PRESETS[preset]
    bots = [make_bot(s) for s in specs]
    rng = random.Random(seed)
    m = Match.new(rules, n, seed % n).deal_random(random.Random(seed + 1))
    histories = []
    while m.current is not None and not m.finished and len(histories) < 1:
        start = len(m.results)
        while m.current is not None and len(m.results) == start:
            deal = m.current
            seat = m.current_seats[deal.to_act]
            bot = bots[seat]
            action = choose_action(bot, m, rng)  # raises on an illegal action
            legal = deal.legal_actions()
            if specs[seat] != "random":
                view = SeatView.of(deal, deal.to_act, m)
                if any(a >= ANNOUNCE_BASE for a in legal):
                    assert action >= ANNOUNCE_BASE, f"{specs[seat]} skipped an announcement"
                elif CLAIM in legal:
                    side_out = view.side_totals[view.player & 1] >= rules.partie_target
                    assert (action == CLAIM) == side_out, f"{specs[seat]} claim {action}"
            m = m.apply(action)
        histories.append(m.results[-1].deal.history if m.results else ())
    return histories


@pytest.mark.parametrize(("preset", "n"), CASES)
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 10**6), picks=st.lists(st.integers(0, len(SPECS) - 1),
                                                  min_size=10, max_size=10))
def test_every_level_legal_and_reproducible(preset: str, n: int, seed: int,
                                            picks: list[int]) -> None:
    specs = [SPECS[i] for i in picks[:n]]
    first = play(preset, n, specs, seed)
    assert play(preset, n, specs, seed) == first


HANDS = [
    # player 1 holds the top four clubs and diamonds, player 2 hearts and spades
    ["TC", "9C", "8C", "7C", "TD", "9D", "8D", "7D"],
    ["KC", "QC", "JC", "AC", "KD", "QD", "JD", "AD"],
    ["KH", "QH", "JH", "AH", "KS", "QS", "JS", "AS"],
    ["TH", "9H", "8H", "7H", "TS", "9S", "8S", "7S"],
]


@pytest.mark.parametrize("level", ["hard", "expert", "oracle"])
def test_search_declares_capot_only_when_it_pays(level: str) -> None:
    """A sure sweep is declared (capot: 0 instead of all four Jacks); a breakable one is not."""
    rules = PRESETS["polignac"]
    bot = make_bot(level)
    # dealer 0: player 1 leads every trick, so its two void suits never matter
    m = Match.new(rules, 4, 0).start_deal([parse_cards(h) for h in HANDS])
    assert choose_action(bot, m, random.Random(0)) == CAPOT
    # dealer 2: player 3 leads first and plays hearts, which player 1 lacks
    m = Match.new(rules, 4, 2).start_deal([parse_cards(h) for h in HANDS])
    for _ in range(2):
        assert choose_action(bot, m, random.Random(0)) == PASS
        m = m.apply(PASS)
    assert choose_action(bot, m, random.Random(0)) == PASS
