"""Random, easy and medium bots: always legal, deterministic, and in strength order."""

from __future__ import annotations

import random

import pytest

from polignac.bots.base import SeatView
from polignac.bots.registry import make_bot
from polignac.bots.runner import choose_action, play_match
from polignac.bots.tournament import TournamentConfig, run_tournament
from polignac.core import PRESETS, Match
from polignac.core.actions import CAPOT, PASS
from polignac.core.cards import parse_cards

CASES = [(p, n) for p, r in PRESETS.items() for n in r.players]


@pytest.mark.parametrize(("preset", "n"), CASES)
def test_legal_in_random_states(preset: str, n: int) -> None:
    rules = PRESETS[preset]
    rng = random.Random(hash((preset, n)) & 0xFFFF)
    bots = [make_bot(s) for s in ("random", "easy", "medium")]
    for _ in range(2):
        m = Match.new(rules, n, 0).deal_random(rng)
        while m.current is not None and not m.finished:
            deal = m.current
            view = SeatView.of(deal, deal.to_act, m)
            for bot in bots:  # every bot must answer legally in this state
                assert bot.act(view, random.Random(1)) in view.legal
            m = m.apply(bots[rng.randrange(3)].act(view, rng))


@pytest.mark.parametrize("spec", ["random", "easy", "medium"])
def test_deterministic(spec: str) -> None:
    rules = PRESETS["polignac"]
    a = play_match(rules, 4, [make_bot(spec) for _ in range(4)], random.Random(5), max_deals=3)
    b = play_match(rules, 4, [make_bot(spec) for _ in range(4)], random.Random(5), max_deals=3)
    assert [r.deal.history for r in a.results] == [r.deal.history for r in b.results]


def test_medium_declares_only_a_sure_slam() -> None:
    rules = PRESETS["polignac"]
    # Player 1 holds the top four clubs and diamonds, player 2 the top four
    # hearts and spades.
    hands = [
        ["TC", "9C", "8C", "7C", "TD", "9D", "8D", "7D"],
        ["KC", "QC", "JC", "AC", "KD", "QD", "JD", "AD"],
        ["KH", "QH", "JH", "AH", "KS", "QS", "JS", "AS"],
        ["TH", "9H", "8H", "7H", "TS", "9S", "8S", "7S"],
    ]
    medium = make_bot("medium")
    # Dealer 0: player 1 is eldest and leads, so its voids are harmless.
    m = Match.new(rules, 4, 0).start_deal([parse_cards(h) for h in hands])
    assert choose_action(medium, m, random.Random(0)) == CAPOT
    # Dealer 2: player 3 leads first and may lead a suit player 1 lacks.
    m = Match.new(rules, 4, 2).start_deal([parse_cards(h) for h in hands])
    for _ in range(2):  # players 3 and 0 have weak hands
        assert choose_action(medium, m, random.Random(0)) == PASS
        m = m.apply(PASS)
    assert choose_action(medium, m, random.Random(0)) == PASS


def test_easy_beats_random_and_medium_beats_easy() -> None:
    # Measured: 120 hand sets of polignac 4p give a paired difference of
    # about 0.35 penalty points per deal (medium vs easy), CI half-width ~0.13.
    easy = run_tournament(TournamentConfig("polignac", ("easy", "random", "random", "random"),
                                           deals=30, seed=1))
    diff = easy.bots[1].diff
    assert diff is not None and diff.low > 0  # random takes more penalties
    med = run_tournament(TournamentConfig("polignac", ("medium", "easy", "easy", "easy"),
                                          deals=120, seed=1))
    diff = med.bots[1].diff
    assert diff is not None and diff.low > 0, med.to_dict()
