"""The bots in the Hearts family: passing choices, what their views hide, every level."""

from __future__ import annotations

import random

import pytest

from polignac.bots.base import SeatView
from polignac.bots.hearts import easy_pass, medium_pass, pass_danger
from polignac.bots.registry import make_bot
from polignac.core import Deal, get_rules
from polignac.core.cards import parse_card
from polignac.core.hearts_deal import HeartsDeal, play_rules


def _mask(codes: str) -> int:
    return sum(1 << parse_card(c) for c in codes.split())


def _legal(mask: int) -> tuple[int, ...]:
    return tuple(c for c in range(52) if mask >> c & 1)


def test_medium_passes_an_unguarded_queen_and_keeps_a_guarded_one() -> None:
    rules = get_rules("black-lady")
    bare = _mask("QS 3S 2C 3C 4C 5C 6C 7D 8D 9D 2H 3H 4H")
    assert medium_pass(rules, bare, _legal(bare)) == parse_card("QS")
    guarded = _mask("QS 2S 3S 4S 2C 3C 4C 5C 7D 8D 9D 2H AD")
    assert medium_pass(rules, guarded, _legal(guarded)) != parse_card("QS")
    assert pass_danger(rules, guarded, parse_card("2S")) < 0  # low spades stay


def test_medium_keeps_a_bonus_card_and_easy_passes_the_highest() -> None:
    rules = get_rules("black-lady", {"card_points": "QS:13,JD:-10," + ",".join(
        f"{r}H:1" for r in "23456789TJQKA")})
    hand = _mask("JD AD 2C 3C 4C 5C 6C 7C 8C 9C 2H 3H 4H")
    assert medium_pass(rules, hand, _legal(hand)) == parse_card("AD")
    assert pass_danger(rules, hand, parse_card("JD")) < -50
    assert easy_pass(get_rules("black-lady"), hand, _legal(hand)) == parse_card("AD")


def test_views_in_play_start_after_passing_and_hide_others_passes() -> None:
    rules = get_rules("black-lady")
    deal: Deal = Deal.shuffled(rules, 4, 0, random.Random(3))  # passes left
    while deal.phase_name == "pass":
        view = SeatView.of(deal, deal.to_act)
        assert view.history == () and view.phase == 3
        deal = deal.apply(medium_pass(rules, view.hand, view.legal))
    assert isinstance(deal, HeartsDeal)
    view = SeatView.of(deal, 2)
    assert view.rules == play_rules(rules) and view.rules.passing == "none"
    assert view.history == () and view.initial_hand == deal.play_hands[2]
    assert view.passed == deal.passed[2] and view.received == deal.received(2)
    assert view.pass_to == 3 and view.passed.bit_count() == 3


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard", "expert"])
def test_every_level_plays_a_black_lady_deal(level: str) -> None:
    rules = get_rules("black-lady")
    deal: Deal = Deal.shuffled(rules, 4, 1, random.Random(5))  # passes right
    bot = make_bot({"hard": "hard:rollouts=2",  # work and worlds are expert's alone
                    "expert": "expert:rollouts=2,work=300,worlds=4"}.get(level, level))
    rng = random.Random(1)
    while not deal.done:
        action = bot.act(SeatView.of(deal, deal.to_act), rng)
        assert action in deal.legal_actions()
        deal = deal.apply(action)
    assert sum(deal.score().scores) in (26, 78)


def test_the_analysis_solves_a_black_lady_record() -> None:
    """The analysis of a record (the exact solver) covers the family: the passes are
    not analysed, the card play is, with the solver's values of the legal cards."""
    from polignac.bots.analysis import Settings, analyze_record
    from polignac.core import Match, to_record

    rng = random.Random(2)
    m = Match.new(get_rules("black-lady", {"threshold": 1}))
    m = m.deal_random(rng)
    while m.current is not None:
        m = m.apply(rng.choice(m.legal_actions()))
    record = to_record(m)
    entries = analyze_record(record, Settings(samples=4, nodes=20_000))[0]["actions"]
    assert len(entries) == 12 + 52  # 3 cards passed by each of 4 players, then the play
    assert all(e["note"] == "not-analysed" for e in entries[:12])
    solved = [e for e in entries[12:] if "open_values" in e]
    assert len(solved) >= 5
    for e in solved:
        assert e["action"] in e["open_values"] and e["open_best"] >= e["open"]


def test_hard_solves_the_endgame_of_a_black_lady_deal() -> None:
    """With 3 cards in hand the hard bot solves sampled deals exactly (the solver's
    node count grows) and plays a legal card."""
    from polignac.bots.hard import HardBot

    bot = HardBot(samples=4, rollouts=2)
    medium = make_bot("medium")
    rng = random.Random(4)
    solved = 0
    for seed in range(4):
        deal: Deal = Deal.shuffled(get_rules("black-lady"), 4, seed, random.Random(seed))
        while deal.phase_name == "pass" or deal.hands[deal.to_act].bit_count() > 3:
            deal = deal.apply(medium.act(SeatView.of(deal, deal.to_act), rng))
        view = SeatView.of(deal, deal.to_act)
        before = bot.solver.nodes
        action = bot.act(view, rng)
        assert action in deal.legal_actions()
        if len(view.legal) > 1:
            assert bot.solver.nodes > before
            solved += 1
    assert solved >= 2


def test_a_hint_in_black_lady_is_the_solver_evaluation() -> None:
    """The hint's evaluation (``evaluate_view``, what ``POST /tables/{id}/hint`` runs)
    covers the family: none while passing, and in the last two tricks every consistent
    deal solved exactly, the best card legal and the cheapest."""
    from polignac.bots.analysis import evaluate_view

    rules = get_rules("black-lady")
    rng = random.Random(6)
    deal: Deal = Deal.shuffled(rules, 4, 0, random.Random(6))
    with pytest.raises(ValueError, match="no choice"):
        evaluate_view(SeatView.of(deal, deal.to_act))
    medium = make_bot("medium")
    evaluated = 0
    while not deal.done:
        view = SeatView.of(deal, deal.to_act)
        if deal.phase_name == "play" and view.hand.bit_count() <= 2 and len(view.legal) > 1:
            ev = evaluate_view(view, samples=100, seed=1)
            assert ev is not None and ev.exact
            assert ev.best in view.legal and ev.costs[ev.best] == 0
            assert set(ev.values) == set(view.legal)
            evaluated += 1
        deal = deal.apply(medium.act(view, rng))
    assert evaluated >= 1
