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
N > 2 it is a partition into groups of N (NP-hard in general), so a start and a local
search.  The start is the *sorted cut*: the seated people by (rank, rating, id) in
consecutive groups of N (for the rank part alone, with equal factors, consecutive
groups are optimal).  Where it holds more than one repeat pair a table (many came
back from the same tables at once), the start is instead the *greedy fill*, if it
costs less: the same order, each player put at the first of the N tables being
filled where nobody just played with them, else at the first (untangling the cut's
rematches one swap at a time took 3 times as long at 4 seats for 7 % less spread,
and 13 times as long at 10 seats, leaving rematches: benchmarks/README.md).
Then swaps of two players of different tables, each taken only if it lowers the cost:

1. every table with a repeat pair: for each player in such a pair, the tables
   nearest in the order are tried outward, and the best lowering swap with the first
   table that offers one is made (at most :data:`REPEAT_SWEEPS` sweeps);
2. passes over each table and the next :data:`WINDOW` tables, taking each lowering
   swap, until a pass changes nothing, at most ``passes`` passes;
3. step 1 again, for the repeats that step 2's moves opened a way round.

Each step lowers the cost, so it ends, and the result never costs more than the
sorted cut; every step is bounded (:data:`REPEAT_SWEEPS`, ``passes``).  Deterministic
for a seed: the input order does not matter (ids are sorted before the seed draws).
The bot table is not searched: its people are the ones the wait rule chose.

Seats at a table are drawn with the seed (who deals first is the table's business).
"""

from __future__ import annotations

import math
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
            id given twice, a rank below 1, a rating or wait not finite (or a
            negative wait), a negative ``bot_wait`` or ``passes``.
    """
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"seats must be from {MIN_SEATS} to {MAX_SEATS}, not {seats}")
    if len(players) > MAX_WAITING:
        raise ValueError(f"at most {MAX_WAITING} waiting players, not {len(players)}")
    if (bot_wait is not None and bot_wait < 0) or passes < 0:
        raise ValueError("bot_wait and passes must not be negative")
    by_id = {p.id: p for p in players}
    if len(by_id) != len(players):
        raise ValueError("a player is waiting twice")
    for p in players:
        if p.rank < 1 or not math.isfinite(p.rating) or not 0 <= p.waited < math.inf:
            raise ValueError(f"player {p.id}: rank from 1, a finite rating and wait")
    order = sorted(by_id)
    rng.shuffle(order)  # equal waits: drawn with the seed, whatever the input order
    order.sort(key=lambda i: -by_id[i].waited)
    cut = len(order) - len(order) % seats
    people = [by_id[i] for i in order[:cut]]
    rest = [by_id[i] for i in order[cut:]]
    botted = [] if bot_wait is None else [p for p in rest if p.waited >= bot_wait]
    waiting = tuple(sorted({p.id for p in rest} - {p.id for p in botted}))

    search = _Search(people, seats)
    search.search(seats, passes)
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
    search.within = [None] * len(groups)
    search.changes = [0] * len(groups)
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
        self.within: list[tuple[list[int], list[float]] | None] = [None] * len(self.groups)
        self.changes = [0] * len(self.groups)

    def search(self, seats: int, passes: int) -> None:
        """The start, then steps 1 to 3 (see the module)."""
        cut = self.groups
        cut_cost = self.cost()
        if cut_cost[0] > len(cut):
            greedy = self._greedy(seats)
            self.groups = greedy
            greedy_cost = self.cost()
            lower = _lower((greedy_cost[0] - cut_cost[0], greedy_cost[1] - cut_cost[1]))
            self.groups = greedy if lower else cut
        self.within = [None] * len(self.groups)
        self.changes = [0] * len(self.groups)
        self.resolve_repeats()
        self.improve(passes)
        self.resolve_repeats()

    def _greedy(self, seats: int) -> list[list[int]]:
        """The greedy fill (see the module)."""
        met = self.met
        filling: list[list[int]] = []
        done: list[list[int]] = []
        for p in range(len(self.people)):
            home = next((g for g in filling if met[p].isdisjoint(g)), None)
            if home is None and len(filling) < seats:
                home = []
                filling.append(home)
            if home is None:
                home = filling[0]
            home.append(p)
            if len(home) == seats:
                filling.remove(home)
                done.append(home)
        rest = sorted(p for g in filling for p in g)
        done += [rest[i:i + seats] for i in range(0, len(rest), seats)]
        return done

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

    def _within(self, t: int) -> tuple[list[int], list[float]]:
        """Each member's repeat pairs and spread with the rest of table ``t`` (kept
        until the table changes)."""
        kept = self.within[t]
        if kept is not None:
            return kept
        group, met, spread = self.groups[t], self.met, self.spread
        repeats = [0] * len(group)
        cost = [0.0] * len(group)
        for i, a in enumerate(group):
            for k in range(i + 1, len(group)):
                x = group[k]
                same = x in met[a]
                repeats[i] += same
                repeats[k] += same
                c = spread(a, x)
                cost[i] += c
                cost[k] += c
        self.within[t] = (repeats, cost)
        return repeats, cost

    def best_swap(self, t: int, only: Sequence[int] | None, u: int
                  ) -> tuple[tuple[int, float], int, int] | None:
        """The swap of a member of table ``t`` (one of ``only``; None: any) with one of
        table ``u`` that lowers the cost most: (change, a, b), or None.

        Every swap's change comes from the pairs across the two tables and each
        member's sums within its own: if ``a`` (row ``i``) and ``b`` (column ``j``)
        swap, ``b`` meets ``t``'s others (column ``j`` but ``a``) and leaves its own
        table's sum, and ``a`` likewise: N^2 pair weights for all N^2 swaps."""
        ga, gb = self.groups[t], self.groups[u]
        met, rank, rating, factor = self.met, self.rank, self.rating, self.factor
        cross = []
        for a in ga:
            ra, va, fa = rank[a], rating[a], factor[a]
            cross.append([abs(ra - rank[b]) * (fa if ra < rank[b] else factor[b])
                          + abs(va - rating[b]) for b in gb])
        if any(not met[a].isdisjoint(gb) for a in ga):
            meets = [[int(b in met[a]) for b in gb] for a in ga]
        else:  # the usual case: nobody across the two tables just played together
            meets = [[0] * len(gb)] * len(ga)
        rep_a, cost_a = self._within(t)
        rep_b, cost_b = self._within(u)
        cols = range(len(gb))
        col = [sum(c) for c in zip(*cross, strict=True)]
        mcol = [sum(c) for c in zip(*meets, strict=True)]
        best = None
        for i, a in enumerate(ga):
            if only is not None and a not in only:
                continue
            row, mrow = cross[i], meets[i]
            row_sum, mrow_sum = sum(row), sum(mrow)
            for j in cols:
                d = (mcol[j] + mrow_sum - 2 * mrow[j] - rep_a[i] - rep_b[j],
                     col[j] + row_sum - 2 * row[j] - cost_a[i] - cost_b[j])
                if _lower(d) and (best is None or d < best[0]):
                    best = (d, a, gb[j])
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
                                swap = self.best_swap(t, [a], u)
                                if swap and (found is None or swap[0] < found[0][0]):
                                    found = (swap, u)
                        if found:
                            (_, _, b), u = found
                            self._swap(t, a, u, b)
                            break
            if not found_any:
                return

    def improve(self, passes: int) -> None:
        """Step 2: passes over neighbouring tables, each lowering swap taken; a pair of
        tables found with none is tried again only once one of them changed."""
        groups, changes = self.groups, self.changes
        tried: dict[tuple[int, int], tuple[int, int]] = {}
        for _ in range(passes):
            changed = False
            for t in range(len(groups)):
                for u in range(t + 1, min(len(groups), t + 1 + WINDOW)):
                    if tried.get((t, u)) == (changes[t], changes[u]):
                        continue
                    swap = self.best_swap(t, None, u)
                    while swap is not None:
                        _, a, b = swap
                        self._swap(t, a, u, b)
                        changed = True
                        swap = self.best_swap(t, None, u)
                    tried[t, u] = (changes[t], changes[u])
            if not changed:
                return

    def _swap(self, t: int, a: int, u: int, b: int) -> None:
        ga, gb = self.groups[t], self.groups[u]
        ga[ga.index(a)] = b
        gb[gb.index(b)] = a
        self.within[t] = self.within[u] = None
        self.changes[t] += 1
        self.changes[u] += 1


def _lower(d: tuple[int, float]) -> bool:
    """A change of cost that lowers it (a spread change below a hair is no change)."""
    return d[0] < 0 or (d[0] == 0 and d[1] < -1e-9)
