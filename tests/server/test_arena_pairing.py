"""The arena's table pairing (``server/events/pairing.py``, docs/events.md "How tables
are formed"): no one waits while a table can be formed, no immediate rematch when
avoidable, the spread of rank and rating lowered from the sorted cut and from a naive
order, bots only after the wait, one pairing per seed."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from polignac.server.events.pairing import (
    Pairing,
    Waiting,
    cost_of,
    naive,
    pair,
)


def players(n: int, waited: float = 10.0, start: int = 1) -> list[Waiting]:
    return [Waiting(i, rank=i, rating=1500.0, waited=waited) for i in range(start, start + n)]


def people_groups(result: Pairing) -> list[list[int]]:
    return [sorted(t.people) for t in result.tables if not t.bots]


def check_shape(result: Pairing, waiting: list[Waiting], seats: int) -> None:
    seated = [p for t in result.tables for p in t.people]
    assert len(seated) == len(set(seated)), "a player seated twice"
    assert not set(seated) & set(result.waiting)
    assert set(seated) | set(result.waiting) == {p.id for p in waiting}
    assert all(len(t.seats) == seats for t in result.tables)


# ------------------------------------------------------------ (a) no one waits


@pytest.mark.parametrize("count, seats", [(4, 4), (7, 4), (9, 3), (10, 10), (23, 5), (3, 4)])
def test_no_one_waits_while_a_table_can_be_formed(count: int, seats: int) -> None:
    result = pair(players(count), seats, random.Random(1))
    assert len(result.tables) == count // seats
    assert len(result.waiting) == count % seats
    assert all(t.bots == 0 for t in result.tables)


def test_the_leftovers_are_those_who_waited_least() -> None:
    waiting = [Waiting(i, rank=i, rating=1500, waited=100.0 - i) for i in range(1, 7)]
    result = pair(waiting, 4, random.Random(3))
    assert result.waiting == (5, 6)


def test_equal_waits_leave_out_players_drawn_with_the_seed() -> None:
    left = {pair(players(5), 4, random.Random(seed)).waiting for seed in range(30)}
    assert len(left) > 1  # not always the same one
    assert all(len(w) == 1 for w in left)


# ------------------------------------------------------------ (b) no rematch


def last_tables(groups: list[list[int]]) -> dict[int, frozenset[int]]:
    return {p: frozenset(g) for g in groups for p in g}


def test_no_immediate_rematch_when_avoidable() -> None:
    """16 players back from 4 tables, ranked so that the sorted cut seats each old
    table again: the pairing splits every one of them."""
    old = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
    last = last_tables(old)
    waiting = [Waiting(i, rank=i, rating=1500 + i, waited=5, last=last[i])
               for i in range(1, 17)]
    assert cost_of(naive(waiting, 4), waiting)[0] == 4 * 6  # the naive cut: all rematches
    result = pair(waiting, 4, random.Random(0))
    assert result.repeats == 0
    for g in people_groups(result):
        assert all(not set(g) - {p} & last[p] for p in g)
        assert len({frozenset(last[p]) for p in g}) == 4


def test_an_unavoidable_rematch_is_as_small_as_can_be() -> None:
    """8 players from 2 tables of 4: each new table must hold 2 pairs of old partners
    at least (4 in all); the pairing finds that minimum (checked against every way)."""
    old = [[1, 2, 3, 4], [5, 6, 7, 8]]
    last = last_tables(old)
    waiting = [Waiting(i, rank=i, rating=1500, waited=5, last=last[i]) for i in range(1, 9)]
    best = min(cost_of([list(a), [i for i in range(1, 9) if i not in a]], waiting)[0]
               for a in itertools.combinations(range(1, 9), 4))
    assert best == 4
    assert pair(waiting, 4, random.Random(0)).repeats == best


def test_a_rematch_is_counted_from_either_side() -> None:
    """Only one of the two names the other in ``last``: still a repeat pair."""
    waiting = [Waiting(1, 1, 1500, 5, frozenset({2})), *players(5, start=2)]
    result = pair(waiting, 3, random.Random(0))
    assert result.repeats == 0
    assert not any({1, 2} <= set(t.people) for t in result.tables)


def test_a_forced_rematch_still_seats_everyone() -> None:
    """Three players who just played together, and no one else: seated again (no one
    waits while a table can be formed), the repeat counted."""
    last = frozenset({1, 2, 3})
    waiting = [Waiting(i, i, 1500, 5, last) for i in (1, 2, 3)]
    result = pair(waiting, 3, random.Random(0))
    assert len(result.tables) == 1 and result.repeats == 3


# ------------------------------------------------------------ (c) spread


def test_players_of_like_rank_sit_together_not_in_the_order_they_came() -> None:
    """12 players who came back in an order unrelated to rank: the naive order (by
    arrival) mixes leaders with the last; the pairing groups the ranks."""
    rng = random.Random(5)
    ranks = list(range(1, 13))
    rng.shuffle(ranks)
    waiting = [Waiting(100 + k, rank=r, rating=1500, waited=60 - k) for k, r in enumerate(ranks)]
    by_arrival = [[p.id for p in waiting[i:i + 4]] for i in range(0, 12, 4)]
    result = pair(waiting, 4, random.Random(0))
    rank_of = {p.id: p.rank for p in waiting}
    assert sorted(sorted(rank_of[i] for i in g) for g in people_groups(result)) == \
        [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    assert result.spread < cost_of(by_arrival, waiting)[1]


def test_the_search_lowers_the_spread_of_the_sorted_cut_where_ratings_say_so() -> None:
    """Ranks 1..4 at tables of two, whose ratings are far apart within the sorted cut
    (1 with 2, 3 with 4) and equal across it: 1 with 4 and 2 with 3 cost less (rank 1
    and 4 are 3 ranks apart at rank 1's factor, 300 + 1700 * 3/4 = 1575, 2 and 3 one
    rank at 1150: 5875, against 1575 + 3000 + 725 + 3000)."""
    ratings = {1: 1000, 2: 4000, 3: 4000, 4: 1000}
    waiting = [Waiting(i, rank=i, rating=ratings[i], waited=5) for i in range(1, 5)]
    assert cost_of(naive(waiting, 2), waiting) == (0, 8300)
    result = pair(waiting, 2, random.Random(0))
    assert sorted(people_groups(result)) == [[1, 4], [2, 3]]
    assert result.spread == pytest.approx(5875)


def test_the_pairing_matches_the_best_partition_on_small_cases() -> None:
    """Every partition of 9 players into tables of 3: the pairing's cost is the least."""
    rng = random.Random(11)
    for _ in range(5):
        ranks = list(range(1, 10))
        rng.shuffle(ranks)
        waiting = [Waiting(i, rank=ranks[i - 1], rating=rng.uniform(1200, 1800), waited=5)
                   for i in range(1, 10)]
        ids = list(range(1, 10))
        best = None
        for a in itertools.combinations(ids[1:], 2):
            rest = [i for i in ids[1:] if i not in a]
            for b in itertools.combinations(rest[1:], 2):
                groups = [[1, *a], [rest[0], *b], [i for i in rest[1:] if i not in b]]
                cost = cost_of(groups, waiting)
                best = cost if best is None or cost < best else best
        assert best is not None
        result = pair(waiting, 3, random.Random(0))
        assert (result.repeats, result.spread) <= (best[0], best[1] + 1e-6)


# ------------------------------------------------------------ bots


def test_bots_fill_only_after_the_wait() -> None:
    waiting = [Waiting(1, 1, 1500, waited=29.0), Waiting(2, 2, 1500, waited=31.0)]
    result = pair(waiting, 4, random.Random(0), bot_wait=30)
    assert [t.people for t in result.tables] == [(2,)] and result.tables[0].bots == 3
    assert result.waiting == (1,)
    later = pair([Waiting(1, 1, 1500, 30.0), Waiting(2, 2, 1500, 32.0)], 4,
                 random.Random(0), bot_wait=30)
    assert len(later.tables) == 1 and sorted(later.tables[0].people) == [1, 2]
    assert later.tables[0].bots == 2 and later.waiting == ()


def test_no_bots_where_the_tournament_allows_none() -> None:
    result = pair([Waiting(1, 1, 1500, waited=1e6)], 4, random.Random(0), bot_wait=None)
    assert result.tables == () and result.waiting == (1,)


def test_bots_fill_only_the_leftovers() -> None:
    """Six who all waited long at tables of 4: a table of people, then two with two
    bots; never two tables with bots."""
    result = pair(players(6, waited=100), 4, random.Random(0), bot_wait=30)
    assert sorted(t.bots for t in result.tables) == [0, 2]


# ------------------------------------------------------------ the seed


def test_one_seed_gives_one_pairing_whatever_the_input_order() -> None:
    rng = random.Random(2)
    waiting = [Waiting(i, rank=rng.randint(1, 40), rating=rng.uniform(1000, 2000),
                       waited=rng.choice([5, 10, 15]),
                       last=frozenset(rng.sample(range(1, 41), 3)))
               for i in range(1, 41)]
    first = pair(waiting, 4, random.Random(9), bot_wait=12)
    shuffled = list(waiting)
    rng.shuffle(shuffled)
    assert pair(shuffled, 4, random.Random(9), bot_wait=12) == first
    assert any(pair(waiting, 4, random.Random(s), bot_wait=12) != first for s in range(5))


@pytest.mark.parametrize("seats", [1, 11])
def test_a_table_size_out_of_bounds_is_refused(seats: int) -> None:
    with pytest.raises(ValueError, match="seats"):
        pair(players(4), seats, random.Random(0))


@pytest.mark.parametrize("bad", [
    Waiting(9, rank=0, rating=1500, waited=1),
    Waiting(9, rank=1, rating=float("nan"), waited=1),
    Waiting(9, rank=1, rating=1500, waited=float("inf")),
    Waiting(9, rank=1, rating=1500, waited=-1),
])
def test_a_player_out_of_bounds_is_refused(bad: Waiting) -> None:
    with pytest.raises(ValueError, match="player 9"):
        pair([*players(3), bad], 4, random.Random(0))


def test_a_player_waiting_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        pair([*players(3), *players(1)], 3, random.Random(0))


# ------------------------------------------------------------ properties


@st.composite
def waiting_players(draw: st.DrawFn) -> tuple[list[Waiting], int, float | None]:
    seats = draw(st.integers(2, 10))
    count = draw(st.integers(0, 40))
    ids = list(range(1, count + 1))
    out = []
    for i in ids:
        last = draw(st.frozensets(st.sampled_from(ids), max_size=9)) if ids else frozenset()
        out.append(Waiting(i, rank=draw(st.integers(1, 60)),
                           rating=draw(st.floats(500, 2500)),
                           waited=draw(st.sampled_from([0.0, 5.0, 20.0, 60.0])), last=last))
    bot_wait = draw(st.one_of(st.none(), st.sampled_from([0.0, 10.0, 30.0])))
    return out, seats, bot_wait


@given(waiting_players(), st.integers(0, 2**32))
def test_properties_of_every_pairing(case: tuple[list[Waiting], int, float | None],
                                     seed: int) -> None:
    waiting, seats, bot_wait = case
    result = pair(waiting, seats, random.Random(seed), bot_wait=bot_wait)
    check_shape(result, waiting, seats)
    with_bots = [t for t in result.tables if t.bots]
    assert len(with_bots) <= 1
    assert len(result.waiting) < seats
    people = [t for t in result.tables if not t.bots]
    assert len(people) == len(waiting) // seats  # (a): every table that can be formed
    waited = {p.id: p.waited for p in waiting}
    if with_bots:
        assert bot_wait is not None
        assert all(waited[i] >= bot_wait for i in with_bots[0].people)
        assert len(with_bots[0].people) + len(result.waiting) == len(waiting) % seats
    if bot_wait is not None:
        assert all(waited[i] < bot_wait for i in result.waiting)
    if people and result.waiting:  # the leftovers waited least
        assert max(waited[i] for i in result.waiting) <= \
            min(waited[i] for t in people for i in t.people)
    # the search never ends above where it started: the sorted cut of the same people
    seated = {i for t in people for i in t.people}
    start = cost_of(naive([p for p in waiting if p.id in seated], seats), waiting)
    assert (result.repeats, result.spread) <= (start[0], start[1] + 1e-6)
    assert pair(list(reversed(waiting)), seats, random.Random(seed), bot_wait=bot_wait) == result
