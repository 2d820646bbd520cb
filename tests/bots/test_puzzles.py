"""Puzzles from played games: each built puzzle re-proved by a fresh solver (and by
plain minimax), ties and best plays never puzzles, the themes on hand-made
positions, the principal line, determinism."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from polignac.bots.analysis import consistent_hands, deal_states
from polignac.bots.base import SeatView
from polignac.bots.hard import position_of
from polignac.bots.puzzles import (
    FORMAT,
    THEMES,
    Proof,
    PuzzleSettings,
    find_puzzles,
    principal_line,
    prove,
    theme,
)
from polignac.bots.registry import make_bot
from polignac.bots.runner import play_match
from polignac.bots.solver import Position, Solver, final_result
from polignac.core import Deal, Match, get_rules, to_record
from polignac.core.actions import PASS, parse_action
from polignac.core.cards import CODES, parse_card

SETTINGS = PuzzleSettings(max_cards=4, deals=256)
RULES = get_rules("polignac", {"threshold": 500})


def bot_record(seed: int, deals: int = 4) -> dict[str, Any]:
    """A record of ``deals`` deals of 4-player Polignac between seeded random bots."""
    m = play_match(RULES, 4, [make_bot("random") for _ in range(4)], random.Random(seed),
                   max_deals=deals)
    return to_record(m)


@pytest.fixture(scope="module")
def built() -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Two records (seeds 3 and 7: six puzzles between them) and their puzzles."""
    out = []
    for seed in (3, 7):
        record = bot_record(seed)
        out.append((record, find_puzzles(record, SETTINGS, f"seed{seed}")[0]))
    return out


def positions(record: dict[str, Any]) -> Iterator[tuple[int, int, Deal, int]]:
    """Every action of ``record``: deal number, index (from 1), the state before it, it."""
    for number, deal, _seats, actions in deal_states(record):
        for index, a in enumerate(actions, start=1):
            if deal.done:
                break
            yield number, index, deal, a
            deal = deal.apply(a)


def state_of(record: dict[str, Any], puzzle: dict[str, Any]) -> Deal:
    """The deal state a puzzle is taken from."""
    for number, index, deal, _a in positions(record):
        if (number, index) == (puzzle["deal"], puzzle["action"]):
            return deal
    raise AssertionError("no such position")


def minimax(deal: Deal, me: int) -> int:
    """Plain paranoid minimax over the core's rules: ``me`` (and its partner in a game
    scored by sides) maximises, the others minimise."""
    if deal.done:
        return final_result(deal, me)
    vals = [minimax(deal.apply(c), me) for c in deal.legal_actions() if c < 52]
    friend = deal.to_act == me or (deal.rules.kind.sides and deal.to_act & 1 == me & 1)
    return max(vals) if friend else min(vals)


def test_the_records_give_puzzles_of_the_documented_shape(
        built: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> None:
    puzzles = [p for _r, ps in built for p in ps]
    assert len(puzzles) == 6
    for p in puzzles:
        assert p["format"] == FORMAT and p["preset"] == "polignac" and p["unit"] == "penalty"
        assert p["theme"] in THEMES
        assert p["answer"] != p["played"] and p["loss"] >= p["margin"] >= 1
        assert p["loss"] == p["values"][p["answer"]] - p["values"][p["played"]]
        pos = p["position"]
        hand = pos["hands"][p["player"]]
        assert p["answer"] in hand and p["played"] in hand and len(hand) <= 4
        assert sum(len(h) for h in pos["hands"]) + len(pos["trick"]["cards"]) \
            + 4 * len(pos["tricks"]) == 32
        assert p["seat"] == p["seats"][p["player"]]
    assert json.loads(json.dumps(puzzles)) == puzzles


def test_each_answer_is_re_proved_by_a_fresh_solver_on_every_consistent_deal(
        built: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> None:
    solver = Solver()  # its own transposition table: nothing shared with the build
    for record, puzzles in built:
        for p in puzzles:
            deal = state_of(record, p)
            answer, played = parse_card(p["answer"]), parse_card(p["played"])
            assert CODES[parse_action(record["deals"][p["deal"] - 1]["actions"]
                                      [p["action"] - 1])] == p["played"]
            view = SeatView.of(deal, deal.to_act)
            worlds = consistent_hands(view, 10**6)
            assert worlds is not None and len(worlds) == p["deals"]
            assert deal.hands in worlds
            for hands in worlds:
                values = solver.solve(position_of(view, hands))
                others = [v for c, v in values.items() if c != answer]
                assert values[answer] - max(others) >= p["margin"]
                assert values[answer] - values[played] >= p["margin"]
            true = solver.solve(Position.from_deal(deal))
            assert {CODES[c]: v for c, v in true.items()} == p["values"]


def test_each_answer_agrees_with_plain_minimax_and_its_line_reaches_its_value(
        built: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> None:
    for record, puzzles in built:
        for p in puzzles:
            deal = state_of(record, p)
            me = deal.to_act
            after = {c: minimax(deal.apply(c), me)
                     for c in deal.legal_actions() if c < 52}
            assert {CODES[c]: v for c, v in after.items()} == p["values"]
            line = deal.apply(parse_card(p["answer"]))
            for code in p["line"]:
                line = line.apply(parse_card(code))
            assert line.done
            assert final_result(line, me) == p["values"][p["answer"]]


def test_a_position_where_the_best_play_was_made_is_never_a_puzzle(
        built: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> None:
    record, puzzles = built[0]
    p = puzzles[0]
    # the same game, but the answer was played there (the deal stops in progress)
    entry = dict(record["deals"][p["deal"] - 1])
    entry["actions"] = [*entry["actions"][:p["action"] - 1], p["answer"]]
    fixed = {**record, "deals": [*record["deals"][:p["deal"] - 1], entry]}
    again, _scan = find_puzzles(fixed, SETTINGS)
    assert (p["deal"], p["action"]) not in {(q["deal"], q["action"]) for q in again}
    # and in every record: no puzzle where the card played was the proved best
    solver = Solver()
    found = {(q["deal"], q["action"]) for q in puzzles}
    for number, index, deal, a in positions(record):
        if (deal.phase_name == "play" and a < 52
                and deal.hands[deal.to_act].bit_count() <= SETTINGS.max_cards
                and deal.legal_card_mask().bit_count() >= 2):
            proof = prove(deal, SETTINGS, solver)
            if isinstance(proof, Proof) and proof.best == a:
                assert (number, index) not in found


def test_no_puzzle_where_two_cards_tie_at_the_top(
        built: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> None:
    solver = Solver()
    for record, puzzles in built:
        found = {(q["deal"], q["action"]) for q in puzzles}
        ties = 0
        for number, index, deal, a in positions(record):
            if (deal.phase_name == "play" and a < 52 and deal.legal_card_mask().bit_count() >= 2
                    and deal.hands[deal.to_act].bit_count() <= SETTINGS.max_cards):
                values = solver.solve(Position.from_deal(deal))
                top = sorted(values.values(), reverse=True)
                if top[0] == top[1]:
                    ties += 1
                    assert (number, index) not in found
        assert ties > 0


def test_a_game_scored_by_sides_gives_puzzles_its_partner_plays_out() -> None:
    rules = get_rules("pollack")
    m = play_match(rules, 4, [make_bot("random") for _ in range(4)], random.Random(1),
                   max_deals=3)
    record = to_record(m)
    puzzles, _scan = find_puzzles(record, SETTINGS)
    assert len(puzzles) == 2 and {p["unit"] for p in puzzles} == {"card-points"}
    for p in puzzles:
        deal = state_of(record, p)
        me = deal.to_act
        after = {CODES[c]: minimax(deal.apply(c), me) for c in deal.legal_actions() if c < 52}
        assert after == p["values"]
        line = deal.apply(parse_card(p["answer"]))
        for code in p["line"]:
            line = line.apply(parse_card(code))
        assert line.done and final_result(line, me) == p["values"][p["answer"]]


# ------------------------------------------------------------ hand-made positions

HANDS = {  # 4-player Polignac (7 to Ace); the dealer is 0, so player 1 leads
    0: "8C TC JC QC AC QS KS AS",
    1: "9C AD 7D 7H 8H 9H TH JH",
    2: "7C KC 8D 9D TD JD QD KD",
    3: "QH KH AH 7S 8S 9S TS JS",
}


def hand_made(*plays: str) -> Deal:
    """The hand-made deal after everyone passes, then ``plays``."""
    deal = Deal.from_hands(RULES, [[parse_card(c) for c in HANDS[p].split()] for p in range(4)])
    while deal.phase_name != "play":
        deal = deal.apply(PASS)
    for code in plays:
        deal = deal.apply(parse_card(code))
    return deal


@pytest.mark.parametrize(("plays", "best", "played", "expected"), [
    ((), "7D", "7H", "count-the-suit"),        # a lead: another suit
    ((), "AD", "7D", "unblock"),               # a lead: the top of the suit, not a low one
    (("9C",), "7C", "KC", "duck"),             # under the Nine, not over it
    (("9C",), "KC", "7C", "unblock"),          # over it with the top club (it wins)
    (("9C", "7C"), "JS", "7S", "throw-the-jack"),  # void in clubs: the Jack goes
    (("9C", "7C"), "7S", "JS", "discard"),     # void: a card without points
])
def test_themes_on_hand_made_positions(plays: tuple[str, ...], best: str, played: str,
                                       expected: str) -> None:
    deal = hand_made(*plays)
    assert theme(deal, parse_card(best), parse_card(played)) == expected


def test_a_hand_made_tie_is_never_a_puzzle() -> None:
    # player 1 holds every club and leads: 7C, 8C, 9C and TC are interchangeable
    hands = {0: "7D 8D 9D TD JD QD KD AD", 1: "7C 8C 9C TC JC QC KC AC",
             2: "7H 8H 9H TH JH QH KH AH", 3: "7S 8S 9S TS JS QS KS AS"}
    match = Match.new(RULES, 4, 0, list("ABCD"))
    match.next_deal()
    match = match.start_deal([[parse_card(c) for c in hands[p].split()] for p in range(4)],
                             None)
    while match.current is not None and match.current.phase_name != "play":
        match = match.apply(PASS)
    deal = match.current
    assert deal is not None and deal.to_act == 1
    wide = PuzzleSettings(max_cards=8, deals=256)
    assert prove(deal, wide) == "tie"
    values = Solver().solve(Position.from_deal(deal))
    assert values[parse_card("7C")] == values[parse_card("8C")] == max(values.values())
    match = match.apply(parse_card("8C"))  # the other of the tied cards
    while match.current is not None:
        match = match.apply(min(a for a in match.current.legal_actions() if a < 52))
    record = to_record(match)
    assert record["deals"][0]["actions"][4] == "8C"
    puzzles, scan = find_puzzles(record, wide)
    assert (1, 5) not in {(p["deal"], p["action"]) for p in puzzles}
    assert scan.positions >= 1


def test_the_principal_line_is_the_solvers_best_play_for_each_side() -> None:
    deal = hand_made()
    while deal.hands[deal.to_act].bit_count() > 3:
        deal = deal.apply(min(a for a in deal.legal_actions() if a < 52))
    me = deal.to_act
    values = Solver().solve(Position.from_deal(deal))
    best = max(values, key=lambda c: (values[c], -c))
    line = principal_line(deal, best)
    assert line is not None
    end = deal.apply(best)
    for c in line:
        end = end.apply(c)
    assert end.done and final_result(end, me) == values[best] == minimax(deal, me)


def test_the_build_is_deterministic() -> None:
    record = bot_record(7)
    first, scan1 = find_puzzles(record, SETTINGS, "r.json")
    second, scan2 = find_puzzles(record, SETTINGS, "r.json", solver=Solver())
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)
    assert (scan1.positions, scan1.puzzles, scan1.themes) == \
        (scan2.positions, scan2.puzzles, scan2.themes)


def test_every_position_tried_is_counted_once(
        built: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> None:
    for record, puzzles in built:
        _again, scan = find_puzzles(record, SETTINGS)
        assert scan.records == 1 and scan.deals == len(record["deals"]) == 4
        assert scan.puzzles == len(puzzles) and sum(scan.themes.values()) == scan.puzzles
        assert scan.positions == (scan.too_many_deals + scan.too_deep + scan.ties
                                  + scan.differs + scan.played_best + scan.puzzles)
        assert scan.ties > 0


def test_bad_settings_and_records() -> None:
    with pytest.raises(ValueError, match="max_cards"):
        find_puzzles(bot_record(1, 1), PuzzleSettings(max_cards=0))
    with pytest.raises(ValueError, match="margin"):
        find_puzzles(bot_record(1, 1), PuzzleSettings(margin=0))
    from polignac.core.errors import PolignacError

    with pytest.raises(PolignacError):
        find_puzzles({"preset": "nope", "players": ["a", "b", "c", "d"]})
