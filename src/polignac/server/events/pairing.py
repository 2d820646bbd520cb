"""Who sits with whom in an arena: the waiting players formed into whole tables of N.

Pure: no I/O, no clock (how long each player has waited is passed in), the only
randomness a ``random.Random`` the caller gives, so that one seed gives one pairing.

**The objective**, in order of priority (docs/events.md, "How tables are formed"):

(a) *No one waits while a table can be formed.*  Of ``W`` waiting players,
    ``N * (W // N)`` are seated at tables of people; the ``W % N`` left over are the
    ones who waited least (equal waits: drawn with the seed).  Where the tournament
    lets bots fill (``bot_wait`` seconds), the leftovers who have all waited at least
    ``bot_wait`` sit together at one more table, the empty seats bots.
(b) *No immediate rematch when avoidable.*  The cost counts the pairs of people at a
    table who sat at one table in their last match (either one's ``last``).  It is
    compared first, before any spread (a lexicographic cost: one repeat pair fewer is
    worth any spread), so a rematch happens only where the search found no way round.
(c) *Players of like rank and rating together.*  The spread of a table is the sum,
    over every pair at it, of lila's arena pair weight (``AntmaPairing``, a weighted
    matching for two):  ``|rank a - rank b| * factor + |rating a - rating b|``, where
    ``factor = 300 + 1700 * (max rank - min(rank a, rank b)) / max rank`` weighs the
    leaders' rank gaps most (near 2000 at the top, 300 at the bottom).  For two seats it
    is exactly lila's weight; the pairing minimises the sum over tables.

**The method.**  For two seats the optimum is a weighted matching (polynomial); for
N > 2 it is a partition into groups of N (NP-hard in general), so: sort the seated
people by (rank, rating, id) and cut them into consecutive groups of N (for the rank
part alone, with equal factors, consecutive groups are optimal), then improve by
swapping two players of different tables while a swap lowers the cost:

1. every table with a repeat pair: for each player in such a pair, the tables
   nearest in the order are tried outward, and the best lowering swap with the first
   table that offers one is made;
   (at most :data:`REPEAT_SWEEPS` sweeps over the tables);
2. passes over each table and the next :data:`WINDOW` tables, taking each lowering
   swap, until a pass changes nothing, at most ``passes`` passes;
3. step 1 again, for the repeats step 2's moves let step 1 see a way round.

Each step lowers the cost, so it ends; both steps are bounded (:data:`MAX_PASSES`,
:data:`REPEAT_SWEEPS`).  Deterministic for a seed: the input
order does not matter (ids are sorted before the seed draws).  The bot table is not
searched: its people are the ones the wait rule chose.

Seats at a table are drawn with the seed (who deals first is the table's business).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

PlayerId = int
"""An arena player: an account id."""
MIN_SEATS, MAX_SEATS = 2, 10
"""Tables the pairing forms: 2 (lila's case) to 10 seats."""
MAX_WAITING = 20_000
"""Waiting players one pairing takes at most."""
WINDOW = 2
"""Step 2 tries swaps between a table and the next ``WINDOW`` tables of the order."""
MAX_PASSES = 2
"""Step 2's passes at most (by default)."""
REPEAT_SWEEPS = 3
"""Step 1's sweeps at most."""
TOP_FACTOR, BOTTOM_FACTOR = 2000, 300
"""lila's rank factor at the top and at the bottom of the ranking."""


@dataclass(frozen=True)
class Waiting:
    """A player waiting for a table: ``rank`` in the arena now (1 is the leader; the
    caller ranks players without points after, e.g. by rating), ``rating`` on the
    shown scale (about 1500), ``waited`` seconds, ``last`` the people of their last
    table in this tournament (their own id may be there; bots are not)."""

    id: PlayerId
    rank: int
    rating: float
    waited: float
    last: frozenset[PlayerId] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Seating:
    """One table to form: a player id per seat, None where a bot sits."""

    seats: tuple[PlayerId | None, ...]

    @property
    def people(self) -> tuple[PlayerId, ...]:
        """The players seated, in seat order."""
        return tuple(p for p in self.seats if p is not None)

    @property
    def bots(self) -> int:
        """The seats bots fill."""
        return sum(1 for p in self.seats if p is None)


@dataclass(frozen=True)
class Pairing:
    """The tables formed, the players still waiting (sorted by id), and the cost of the
    tables of people: ``repeats`` (pairs at one table who just played together,
    objective (b)) and ``spread`` (objective (c))."""

    tables: tuple[Seating, ...]
    waiting: tuple[PlayerId, ...]
    repeats: int
    spread: float


def pair(players: Sequence[Waiting], seats: int, rng: random.Random,
         bot_wait: float | None = None, passes: int = MAX_PASSES) -> Pairing:
    """Form the tables of ``seats`` seats from ``players`` (see the module for the
    objective and the method); ``bot_wait`` None: no bots, else the seconds a player
    must have waited before bots may fill their table.

    Raises:
        ValueError: ``seats`` outside 2..10, more than :data:`MAX_WAITING` players, an
            id given twice, a negative ``bot_wait`` or ``passes``.
    """
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"seats must be from {MIN_SEATS} to {MAX_SEATS}, not {seats}")
    if len(players) > MAX_WAITING:
        raise ValueError(f"at most {MAX_WAITING} waiting players, not {len(players)}")
    if bot_wait is not None and bot_wait < 0 or passes < 0:
        raise ValueError("bot_wait and passes must not be negative")
    by_id = {p.id: p for p in players}
    if len(by_id) != len(players):
        raise ValueError("a player is waiting twice")
    order = sorted(by_id)
    rng.shuffle(order)  # equal waits: drawn with the seed, whatever the input order
    order.sort(key=lambda i: -by_id[i].waited)
    cut = len(order) - len(order) % seats
    people = [by_id[i] for i in order[:cut]]
    rest = [by_id[i] for i in order[cut:]]
    botted = [] if bot_wait is None else [p for p in rest if p.waited >= bot_wait]
    waiting = tuple(sorted({p.id for p in rest} - {p.id for p in botted}))

    search = _Search(people, seats)
    search.resolve_repeats()
    search.improve(passes)
    search.resolve_repeats()
    tables = [Seating(_seat(search.ids(g), seats, rng)) for g in search.groups]
    if botted:
        tables.append(Seating(_seat([p.id for p in botted], seats, rng)))
    repeats, spread = search.cost()
    return Pairing(tuple(tables), waiting, repeats, spread)


def naive(players: Sequence[Waiting], seats: int) -> list[list[PlayerId]]:
    """The sorted cut alone (the search's start): the seated people by (rank, rating,
    id) in consecutive groups of ``seats``, leftovers (the shortest waits) out; for the
    tests and the benchmark."""
    ranked = sorted(players, key=lambda p: (-p.waited, p.id))
    ranked = ranked[:len(ranked) - len(ranked) % seats]
    ranked.sort(key=lambda p: (p.rank, p.rating, p.id))
    return [[p.id for p in ranked[i:i + seats]] for i in range(0, len(ranked), seats)]


def cost_of(groups: Sequence[Sequence[PlayerId]], players: Sequence[Waiting]
            ) -> tuple[int, float]:
    """The cost (repeat pairs, spread) of ``groups`` of people among ``players``
    (objective (b), then (c); bots cost nothing)."""
    by_id = {p.id: p for p in players}
    seated = [by_id[i] for g in groups for i in g]
    search = _Search(seated, MIN_SEATS)
    index = {p.id: n for n, p in enumerate(search.people)}
    search.groups = [[index[i] for i in g] for g in groups]
    return search.cost()


def _seat(ids: list[PlayerId], seats: int, rng: random.Random) -> tuple[PlayerId | None, ...]:
    spots: list[PlayerId | None] = [*ids, *([None] * (seats - len(ids)))]
    rng.shuffle(spots)
    return tuple(spots)


class _Search:
    """The local search over the groups of indices into ``people`` (see the module)."""

    def __init__(self, people: list[Waiting], seats: int) -> None:
        people = sorted(people, key=lambda p: (p.rank, p.rating, p.id))
        self.people = people
        self.rank = [p.rank for p in people]
        self.rating = [float(p.rating) for p in people]
        top = max([1, *self.rank])
        self.factor = [BOTTOM_FACTOR + (TOP_FACTOR - BOTTOM_FACTOR) * (top - r) / top
                       for r in self.rank]
        """lila's rank factor at each player's rank (a pair takes its better rank's)."""
        index = {p.id: n for n, p in enumerate(people)}
        met: list[set[int]] = [set() for _ in people]
        for n, p in enumerate(people):
            for other in p.last:
                m = index.get(other)
                if m is not None and m != n:
                    met[n].add(m)
                    met[m].add(n)
        self.met = met
        self.groups = [list(range(i, i + seats)) for i in range(0, len(people), seats)]

    def ids(self, group: list[int]) -> list[PlayerId]:
        return [self.people[i].id for i in group]

    def spread(self, a: int, b: int) -> float:
        """Objective (c) for the pair ``a``, ``b``: lila's pair weight."""
        factor = self.factor[a] if self.rank[a] < self.rank[b] else self.factor[b]
        return abs(self.rank[a] - self.rank[b]) * factor + abs(self.rating[a] - self.rating[b])

    def cost(self) -> tuple[int, float]:
        repeats, spread = 0, 0.0
        for g in self.groups:
            for x, a in enumerate(g):
                for b in g[x + 1:]:
                    repeats += b in self.met[a]
                    spread += self.spread(a, b)
        return repeats, spread

    def delta(self, ga: list[int], a: int, gb: list[int], b: int) -> tuple[int, float]:
        """The change of cost if ``a`` (of ``ga``) and ``b`` (of ``gb``) swap (the hot
        loop: :meth:`spread` written out)."""
        rank, rating, factor = self.rank, self.rating, self.factor
        met_a, met_b = self.met[a], self.met[b]
        repeats, cost = 0, 0.0
        for out, into, group in ((a, b, ga), (b, a, gb)):
            r_out, r_in = rank[out], rank[into]
            v_out, v_in = rating[out], rating[into]
            f_out, f_in = factor[out], factor[into]
            met_out = met_a if out == a else met_b
            met_in = met_b if out == a else met_a
            for x in group:
                if x == out:
                    continue
                rx, vx, fx = rank[x], rating[x], factor[x]
                cost += (abs(r_in - rx) * (f_in if r_in < rx else fx) + abs(v_in - vx)
                         - abs(r_out - rx) * (f_out if r_out < rx else fx) - abs(v_out - vx))
                if x in met_in:
                    repeats += 1
                if x in met_out:
                    repeats -= 1
        return repeats, cost

    def best_swap(self, ga: list[int], only: Sequence[int], gb: list[int]
                  ) -> tuple[tuple[int, float], int, int] | None:
        """The swap of one of ``only`` (in ``ga``) with one of ``gb`` that lowers the
        cost most, or None."""
        best = None
        for a in only:
            for b in gb:
                d = self.delta(ga, a, gb, b)
                if _lower(d) and (best is None or d < best[0]):
                    best = (d, a, b)
        return best

    def resolve_repeats(self) -> None:
        """Step 1: sweeps over the tables (at most :data:`REPEAT_SWEEPS`, until one
        finds no repeat pair): each player of a repeat pair moves to the nearest table
        that takes them with a lower cost (the best swap with it)."""
        groups, met = self.groups, self.met
        for _ in range(REPEAT_SWEEPS):
            found_any = False
            for t, g in enumerate(groups):
                for a in list(g):
                    if a not in g or not any(x in met[a] for x in g if x != a):
                        continue
                    found_any = True
                    for step in range(1, len(groups)):
                        found = None
                        for u in (t - step, t + step):
                            if 0 <= u < len(groups):
                                swap = self.best_swap(g, [a], groups[u])
                                if swap and (found is None or swap[0] < found[0][0]):
                                    found = (swap, u)
                        if found:
                            (_, _, b), u = found
                            self._swap(g, a, groups[u], b)
                            break
            if not found_any:
                return

    def improve(self, passes: int) -> None:
        """Step 2: passes over neighbouring tables, each lowering swap taken; a pair of
        tables found with none is tried again only once one of them changed."""
        groups = self.groups
        changes = [0] * len(groups)
        tried: dict[tuple[int, int], tuple[int, int]] = {}
        for _ in range(passes):
            changed = False
            for t in range(len(groups)):
                for u in range(t + 1, min(len(groups), t + 1 + WINDOW)):
                    if tried.get((t, u)) == (changes[t], changes[u]):
                        continue
                    swap = self.best_swap(groups[t], list(groups[t]), groups[u])
                    while swap is not None:
                        _, a, b = swap
                        self._swap(groups[t], a, groups[u], b)
                        changes[t] += 1
                        changes[u] += 1
                        changed = True
                        swap = self.best_swap(groups[t], list(groups[t]), groups[u])
                    tried[t, u] = (changes[t], changes[u])
            if not changed:
                return

    @staticmethod
    def _swap(ga: list[int], a: int, gb: list[int], b: int) -> None:
        ga[ga.index(a)] = b
        gb[gb.index(b)] = a


def _lower(d: tuple[int, float]) -> bool:
    """A change of cost that lowers it (a spread change below a hair is no change)."""
    return d[0] < 0 or (d[0] == 0 and d[1] < -1e-9)
