"""The arena's points and standings (``server/events/scoring.py``, docs/events.md
"Points" and "Standings"): points by place for 3 to 10 seats, ties shared, the streak,
and the standings a pure function of the finished matches."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from polignac.bots.registry import make_bot
from polignac.bots.runner import play_match
from polignac.core import get_rules
from polignac.server.events.scoring import (
    UNIT,
    MatchRecord,
    place_points,
    points,
    record_of,
    standings,
)
from polignac.server.players.results import places as result_places


def test_four_seats_score_4_2_1_0() -> None:
    assert place_points(4) == (4, 2, 1, 0)
    assert points([2, 1, 4, 3]) == [2, 4, 0, 1]


def test_two_seats_are_lichess_win_draw_loss() -> None:
    assert points([1, 2]) == [2, 0]
    assert points([1, 1]) == [1, 1]


@pytest.mark.parametrize("seats", range(3, 11))
def test_points_by_place_for_every_table_size(seats: int) -> None:
    table = place_points(seats)
    assert table[0] == seats and table[-1] == 0
    assert table[0] - table[1] == 2  # beating the second, and the winner's point
    assert all(table[p] - table[p + 1] == 1 for p in range(1, seats - 1))
    assert sum(table) == seats * (seats - 1) // 2 + 1  # a point per pair, and the winner's
    order = list(range(1, seats + 1))
    random.Random(seats).shuffle(order)
    assert points(order) == [table[p - 1] for p in order]


def test_ties_share_the_points_of_the_places_they_cover() -> None:
    assert points([1, 2, 2, 4]) == [4, Fraction(3, 2), Fraction(3, 2), 0]
    assert points([1, 1, 3, 4]) == [3, 3, 1, 0]
    assert points([1, 1, 1]) == [Fraction(4, 3)] * 3
    assert points([1, 1, 3, 3]) == [3, 3, Fraction(1, 2), Fraction(1, 2)]  # Pollack's sides


@given(st.integers(2, 10).flatmap(
    lambda n: st.lists(st.integers(0, 3), min_size=n, max_size=n)))
def test_a_table_hands_out_the_same_points_with_ties(results: list[int]) -> None:
    """Any standing, ties or none (places as ``results.places`` gives them): the
    table's points sum to its table's sum, and each total is whole in UNIT ths."""
    where = [1 + sum(1 for r in results if r < mine) for mine in results]
    got = points(where)
    assert sum(got) == sum(place_points(len(where)))
    assert all((g * UNIT).denominator == 1 for g in got)
    for a in range(len(where)):
        for b in range(len(where)):
            if where[a] < where[b]:
                assert got[a] > got[b]


@pytest.mark.parametrize("bad", [[2, 3, 4], [1, 3], [1, 1, 2], [0, 1], [1]])
def test_what_is_not_a_list_of_places_is_refused(bad: list[int]) -> None:
    with pytest.raises(ValueError):
        points(bad)


def test_record_of_takes_the_places_of_results() -> None:
    """The record's places are ``players/results.places``' own (people who left last)."""
    match = play_match(get_rules("polignac", {"threshold": 5}), 4,
                       [make_bot("easy") for _ in range(4)], random.Random(2))
    record = record_of("t1", 10.0, (7, None, 9, None), match)
    assert record.places == tuple(result_places(match))
    left = record_of("t1", 10.0, (7, None, 9, None), match, abandoned={0})
    assert left.places == tuple(result_places(match, {0})) and left.places[0] == 4
    with pytest.raises(ValueError):
        record_of("t1", 10.0, (7, None), match)


def rec(table: str, at: float, players: tuple[int | None, ...],
        places: tuple[int, ...]) -> MatchRecord:
    return MatchRecord(table, at, players, places)


def test_the_streak_doubles_after_two_wins_until_a_non_win() -> None:
    """Player 1 wins three, is second, then wins: 4, 4, 8 (on fire), 2*2 (the non-win
    on fire still doubled, and the fire goes out), 4."""
    matches = [rec(f"t{i}", float(i), (1, 2, 3, 4), places)
               for i, places in enumerate([(1, 2, 3, 4), (1, 3, 2, 4), (1, 4, 3, 2),
                                           (2, 1, 3, 4), (1, 2, 3, 4)])]
    line = {s.player: s for s in standings(matches)}[1]
    assert [m.points for m in line.matches] == [4, 4, 8, 4, 4]
    assert [m.doubled for m in line.matches] == [False, False, True, True, False]
    assert line.points == 24 and not line.fire


def test_a_shared_first_place_is_a_win() -> None:
    matches = [rec(f"t{i}", float(i), (1, 2, 3, 4), (1, 1, 3, 4)) for i in range(3)]
    line = {s.player: s for s in standings(matches)}[1]
    assert [m.points for m in line.matches] == [3, 3, 6] and line.fire


def test_standings_order_by_points_then_performance_then_who_reached_them_first() -> None:
    matches = [
        rec("a", 1.0, (1, 2, None), (1, 2, 3)),   # 1: 3, 2: 1
        rec("b", 2.0, (3, None, 4), (2, 1, 3)),   # 3: 1, 4: 0 (a bot won)
        rec("c", 3.0, (4, 5, None), (2, 3, 1)),   # 4: 1, 5: 0
        rec("d", 4.0, (2, 3, 6), (3, 2, 1)),      # 2: 0, 3: 1, 6: 3
    ]
    order = standings(matches, players=[7])
    by = {s.player: s for s in order}
    assert [s.player for s in order][:2] == [1, 6]  # 3 points each; 1 reached them first
    assert by[1].performance == by[6].performance == 1
    assert by[3].points == 2 and by[3].rank == 3
    assert by[2].points == by[4].points == 1
    # 2 beat one of two then none of two (1/4); 4 none, then one of two (1/4): equal
    # performance, 2 reached 1 point at 1.0, 4 at 3.0
    assert by[2].performance == by[4].performance == Fraction(1, 4)
    assert by[2].rank < by[4].rank
    assert [s.player for s in order][-2:] == [5, 7]  # 0 points; 7 never played
    assert [s.rank for s in order] == list(range(1, 8))


def test_matches_count_in_the_order_they_finished_wherever_they_are_given() -> None:
    matches = [rec(f"t{i}", float(10 - i), (1, 2, 3), (1, 2, 3)) for i in range(4)]
    assert standings(matches) == standings(list(reversed(matches)))
    line = standings(matches)[0]
    assert [m.finished_at for m in line.matches] == [7.0, 8.0, 9.0, 10.0]


@st.composite
def arena(draw: st.DrawFn) -> list[MatchRecord]:
    seats = draw(st.integers(3, 6))
    out = []
    for n in range(draw(st.integers(0, 30))):
        people = draw(st.lists(st.integers(1, 12), min_size=1, max_size=seats, unique=True))
        players: list[int | None] = [*people, *([None] * (seats - len(people)))]
        results = draw(st.lists(st.integers(0, 4), min_size=seats, max_size=seats))
        where = tuple(1 + sum(1 for r in results if r < mine) for mine in results)
        out.append(rec(f"t{n}", float(draw(st.integers(0, 50))), tuple(players), where))
    return out


def replay(matches: list[MatchRecord]) -> dict[int, Fraction]:
    """The points again, written the long way: each match in order, the streak counted
    from each player's previous results."""
    history: dict[int, list[bool]] = {}
    total: dict[int, Fraction] = {}
    for m in sorted(matches, key=lambda r: (r.finished_at, r.table_id)):
        table = place_points(len(m.places))
        for seat, p in enumerate(m.players):
            if p is None:
                continue
            covered = [table[q - 1 + k] for q in [m.places[seat]]
                       for k in range(m.places.count(q))]
            earned = Fraction(sum(covered), len(covered))
            wins = history.setdefault(p, [])
            if wins[-2:] == [True, True]:
                earned *= 2
            total[p] = total.get(p, Fraction(0)) + earned
            wins.append(m.places[seat] == 1)
    return total


@given(arena())
def test_standings_are_a_pure_function_of_the_finished_matches(
        matches: list[MatchRecord]) -> None:
    lines = standings(matches)
    assert {s.player: s.points for s in lines} == replay(matches)
    assert [s.rank for s in lines] == list(range(1, len(lines) + 1))
    assert all(a.points >= b.points for a, b in itertools.pairwise(lines))
    shuffled = list(matches)
    random.Random(len(matches)).shuffle(shuffled)
    assert standings(shuffled) == lines
    assert all(s.units == s.points * UNIT for s in lines)
