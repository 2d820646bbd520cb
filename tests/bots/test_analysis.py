"""Analysis of every action: expected values against brute force on end positions
(every consistent deal enumerated here, each solved by a plain minimax over the
core's rules), marks, summaries, determinism, and annotated records that replay."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence

import pytest

from polignac.bots.analysis import (
    BLUNDER,
    MISTAKE,
    Settings,
    analyze_action,
    analyze_deal,
    analyze_record,
    annotate,
    consistent_hands,
    evaluate_view,
    mark,
    match_summary,
)
from polignac.bots.base import SeatView
from polignac.core import Deal, Match, get_rules, replay, summary, to_record
from polignac.core.actions import PASS, action_name
from polignac.core.cards import Mask
from polignac.core.shuffle import Proof, commitment, deal_order, verify_record
from polignac.server.web.replay_routes import replay_steps

# ------------------------------------------------------------- brute force


def result(deal: Deal, player: int) -> int:
    """The seat's final result in the analysis' unit, from the core's score."""
    r = deal.rules
    if r.scoring == "pollack":
        side = player & 1
        pts = sum(deal.card_points(p) for p in range(deal.num_players) if p & 1 == side)
        return pts + (r.last_trick_points if deal.past[-1].winner & 1 == side else 0)
    score = deal.score().scores[player]
    return -score if r.scoring == "penalty" else score


def paranoid(deal: Deal, me: int) -> int:
    """Plain minimax: ``me`` (and its Pollack partner) maximise, the others minimise."""
    if deal.done:
        return result(deal, me)
    cards = [a for a in deal.legal_actions() if a < 52]
    vals = [paranoid(deal.apply(c), me) for c in cards]
    friend = deal.to_act == me or (deal.rules.scoring == "pollack"
                                   and deal.to_act & 1 == me & 1)
    return max(vals) if friend else min(vals)


def all_worlds(deal: Deal, me: int) -> list[Deal]:
    """Every deal the seat ``me`` cannot tell from ``deal``: the unseen cards dealt
    every way that replays the same history (so voids are respected)."""
    n = deal.num_players
    hidden = [p for p in range(n) if p != me]
    unseen = sorted(c for p in hidden for c in range(52) if deal.hands[p] >> c & 1)
    played: list[Mask] = [deal.initial_hands[p] & ~deal.hands[p] for p in range(n)]
    worlds = []

    def split(cards: Sequence[int], players: Sequence[int], hands: dict[int, Mask]) -> None:
        if not players:
            initial = [deal.hands[me] | played[me] if p == me else hands[p] | played[p]
                       for p in range(n)]
            try:
                w = Deal.from_hands(deal.rules, initial, dealer=deal.dealer,
                                    turn_up=deal.turn_up)
                for a in deal.history:
                    w = w.apply(a)
            except ValueError:
                return
            worlds.append(w)
            return
        p = players[0]
        k = deal.hands[p].bit_count()
        for combo in itertools.combinations(cards, k):
            m = sum(1 << c for c in combo)
            split([c for c in cards if c not in combo], players[1:], {**hands, p: m})

    split(unseen, hidden, {})
    return worlds


def end_position(preset: str, n: int, seed: int, left: int, extra: int = 0) -> Deal:
    """A random card-only deal of ``preset`` played until each hand has ``left``
    cards, then ``extra`` more cards (mid-trick)."""
    rng = random.Random(seed)
    m = Match.new(get_rules(preset), n, 0).deal_random(rng)
    d = m.current
    assert d is not None
    while not (d.phase_name == "play" and d.hands[d.to_act].bit_count() == left
               and not d.trick):
        legal = d.legal_actions()
        d = d.apply(PASS if PASS in legal else rng.choice([a for a in legal if a < 52]))
    for _ in range(extra):
        d = d.apply(rng.choice([a for a in d.legal_actions() if a < 52]))
    return d


CASES = [("polignac", 4, 2, 0), ("polignac", 4, 3, 1), ("slobberhannes", 4, 2, 2),
         ("knaves", 3, 3, 1), ("bassadewitz", 4, 2, 1), ("pollack", 4, 2, 3),
         ("polignac", 3, 3, 0)]


@pytest.mark.parametrize("preset,n,left,extra", CASES)
@pytest.mark.parametrize("seed", [1, 2])
def test_expected_values_match_brute_force(preset: str, n: int, left: int, extra: int,
                                           seed: int) -> None:
    d = end_position(preset, n, seed, left, extra)
    me = d.to_act
    view = SeatView.of(d, me)
    worlds = all_worlds(d, me)
    cards = [a for a in d.legal_actions() if a < 52]
    if len(cards) < 2:
        with pytest.raises(ValueError):
            evaluate_view(view, samples=10_000)
        return
    expect = {c: sum(paranoid(w.apply(c), me) for w in worlds) / len(worlds) for c in cards}
    ev = evaluate_view(view, samples=10_000, model="paranoid")
    assert ev is not None and ev.exact and ev.samples == len(worlds)
    assert ev.values == pytest.approx(expect)
    top = max(expect.values())
    assert ev.costs == pytest.approx({c: top - v for c, v in expect.items()})
    assert ev.costs[ev.best] == 0
    # the open-hand values of the analysis are the true deal's minimax values
    for c in cards:
        e = analyze_action(d, c, Settings(samples=10_000), random.Random(0))
        assert e["open"] == paranoid(d.apply(c), me)
        assert e["value"] == pytest.approx(expect[c], abs=1e-3)


def test_consistent_hands_respects_voids_and_the_limit() -> None:
    d = end_position("polignac", 4, 5, 3, 2)
    view = SeatView.of(d, d.to_act)
    every = consistent_hands(view, 10_000)
    assert every is not None
    assert sorted(every) == sorted(w.hands for w in all_worlds(d, d.to_act))
    assert consistent_hands(view, 3) is None  # more than 3 deals (without voids)


def test_sampling_is_deterministic_and_reply_model_runs() -> None:
    d = end_position("polignac", 4, 3, 5)
    view = SeatView.of(d, d.to_act)
    a = evaluate_view(view, samples=6, seed=11)
    b = evaluate_view(view, samples=6, seed=11)
    assert a == b and a is not None and not a.exact and a.samples == 6
    r = evaluate_view(view, samples=6, seed=11, model="reply")
    assert r is not None and set(r.values) == set(a.values)
    with pytest.raises(ValueError, match="model"):
        evaluate_view(view, model="optimistic")
    with pytest.raises(ValueError, match="samples"):
        evaluate_view(view, samples=0)


def test_node_budget_marks_too_deep() -> None:
    rng = random.Random(4)
    d = Match.new(get_rules("knaves"), 3, 0).deal_random(rng).current
    assert d is not None
    e = analyze_action(d, d.legal_actions()[0], Settings(samples=2, nodes=50), random.Random(0))
    assert e["note"] == "too-deep" and "loss" not in e


def test_marks() -> None:
    assert mark(0.0) is None and mark(MISTAKE - 0.01) is None
    assert mark(MISTAKE) == "mistake" and mark(BLUNDER - 0.01) == "mistake"
    assert mark(BLUNDER) == "blunder" and mark(7) == "blunder"


def find_blunder() -> tuple[Deal, int, int]:
    """An end position where one legal card costs at least BLUNDER in every
    consistent deal (the solver proves it worst), with that card and the best."""
    for seed in range(200):
        d = end_position("polignac", 4, seed, 2, seed % 4)
        me = d.to_act
        cards = [a for a in d.legal_actions() if a < 52]
        if len(cards) < 2:
            continue
        worlds = all_worlds(d, me)
        vals = {c: [paranoid(w.apply(c), me) for w in worlds] for c in cards}
        for bad in cards:
            for good in cards:
                if all(g - b >= BLUNDER for g, b in zip(vals[good], vals[bad], strict=True)):
                    return d, bad, good
    raise AssertionError("no blunder in 200 end positions")


def test_a_card_proved_worst_is_marked() -> None:
    d, bad, good = find_blunder()
    e = analyze_action(d, bad, Settings(samples=10_000), random.Random(0))
    assert e["mark"] == "blunder" and e["loss"] >= BLUNDER
    assert e["best"] != action_name(bad) and e["open_loss"] >= BLUNDER
    g = analyze_action(d, good, Settings(samples=10_000), random.Random(0))
    assert g["loss"] < e["loss"]
    ev = evaluate_view(SeatView.of(d, d.to_act), samples=10_000)
    assert ev is not None and ev.costs[bad] == pytest.approx(e["loss"], abs=1e-3)


def test_forced_and_uncovered_actions_are_noted() -> None:
    d = end_position("polignac", 4, 1, 1)  # the last trick: every card forced
    e = analyze_action(d, d.legal_actions()[0], Settings(), random.Random(0))
    assert e == {"seat": d.to_act, "action": action_name(d.legal_actions()[0]),
                 "note": "forced"}


def small_record(seed: int = 3) -> dict[str, object]:
    """A finished two-deal 6-player Polignac record (5 cards each: quick to solve),
    dealt as the web app deals (verifiable)."""
    rng = random.Random(seed)
    m = Match.new(get_rules("polignac", {"threshold": 100}), 6, 0)
    proofs = []
    for _ in range(2):
        server, cuts = rng.randbytes(32), [rng.randbytes(4)] + [None] * 5
        proofs.append(Proof("T", commitment(server, "T", m.deal_number), server,
                            tuple(cuts), m.rules.packets).to_json())
        m = m.deal_from_pack(deal_order(m.rules, 6, server, "T", m.deal_number, cuts))
        while m.current is not None:
            m = m.apply(rng.choice(m.legal_actions()))
    return to_record(m, proofs)


def test_summary_adds_up_and_jobs_give_the_same_result() -> None:
    record = small_record()
    analyses = analyze_record(record, Settings(samples=4, seed=2))
    assert analyses == analyze_record(record, Settings(samples=4, seed=2), jobs=2)
    assert len(analyses) == 2
    for a in analyses:
        assert a["version"] == "polignac-analysis/1" and a["unit"] == "penalty"
        entries = a["actions"]
        assert len(entries) == len(record["deals"][analyses.index(a)]["actions"])  # type: ignore[index]
        for row in a["players"]:
            mine = [e for e in entries if e["seat"] == row["seat"] and "loss" in e]
            assert row["decisions"] == len(mine)
            assert row["loss"] == pytest.approx(sum(e["loss"] for e in mine), abs=1e-6)
            assert row["mistakes"] == sum(e.get("mark") == "mistake" for e in mine)
            assert row["blunders"] == sum(e.get("mark") == "blunder" for e in mine)
            assert row["open_loss"] == sum(e["open_loss"] for e in mine)
        for e in entries:
            if "loss" in e:
                assert e["loss"] == pytest.approx(e["best_value"] - e["value"], abs=1e-3)
                assert e["values"][e["best"]] == max(e["values"].values())
                assert e.get("mark") == mark(e["loss"])
    totals = match_summary(analyses, 6)
    for seat in range(6):
        assert totals[seat]["decisions"] == sum(a["players"][seat]["decisions"]
                                                for a in analyses)
        assert totals[seat]["loss"] == pytest.approx(sum(a["players"][seat]["loss"]
                                                         for a in analyses), abs=1e-6)


def test_analyze_deal_stops_at_its_deadline() -> None:
    record = small_record()
    m = Match.new(get_rules("polignac", {"threshold": 100}), 6, 0)
    entry = record["deals"][0]  # type: ignore[index]
    from polignac.core.actions import parse_action
    from polignac.core.cards import parse_card

    m = m.start_deal([[parse_card(c) for c in h] for h in entry["hands"]], None)
    assert m.current is not None
    actions = [parse_action(a) for a in entry["actions"]]
    a = analyze_deal(m.current, actions, list(range(6)), 1, Settings(samples=2), deadline=0.0)
    assert [e["note"] for e in a["actions"]] == ["time"] * len(actions)
    assert all(row["skipped"] == row["decisions"] + row["skipped"] for row in a["players"])


def test_annotated_record_round_trips_and_still_replays() -> None:
    record = small_record()
    analyses = analyze_record(record, Settings(samples=3))
    annotated = json.loads(json.dumps(annotate(record, analyses)))
    assert [d["analysis"] for d in annotated["deals"]] == analyses
    assert summary(replay(annotated)) == summary(replay(record))
    assert replay_steps(annotated)["summary"] == replay_steps(record)["summary"]
    assert [c.status for c in verify_record(annotated)] == ["ok", "ok"]
    # analysing an annotated record ignores the old annotations
    assert analyze_record(annotated, Settings(samples=3)) == analyses
