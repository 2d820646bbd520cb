"""An arena's points and standings: a pure function of its finished matches.

**Points by place** (docs/events.md, "Points"): at a table of N seats, a player earns
one point for each other seat they finish ahead of, and first place one point more,
the *winner's point*::

    place   1      2      3    ...   N
    points  N      N-2    N-3  ...   0         (4 seats: 4/2/1/0; 3 seats: 3/1/0)

Why: each pair of players at the table hands one point to the one who finished
ahead, so every opponent beaten counts the same at any table size, and the table's
points add up to the same whatever happens; the winner's point makes winning worth
more than any other step (the arena rewards winning, as lichess's does), and last
place earns nothing.  For two seats it is lichess's arena: 2 for a win, 0 for a
loss, 1 each for a draw.

**Ties** take their places from ``players/results.py:places`` (the one definition of
a place: equal results share the better place, 1, 2, 2, 4).  Players who tie *share*
the points of the places they cover: two tied for second at four seats cover places
2 and 3 and get (2 + 1) / 2 = 1.5 each; two tied first get (4 + 2) / 2 = 3.  Points
are therefore exact fractions (:class:`fractions.Fraction`; a share is a whole
number of :data:`UNIT` ths of a point at up to ten seats).

**A win** is first place, shared or not (Pollack's winning side both win).  **On
fire** (lichess's streak): after two wins in a row, a player's matches are worth
double until the first one that is not a win, which is still doubled (as a draw on
fire is on lichess); the next counts single again.

**Standings** order the players by points, then by *performance* (the share of the
other seats they finished ahead of, over all their matches, a tie counting half),
then by who reached their points first (the end of the match that last gave them
points; a player who never scored, by their first match's end), then by id: a total
order, ranks 1, 2, 3... with no tie.  Matches count in the order they finished
(``finished_at``, then table id), wherever they are given.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from ..players.results import places as result_places

if TYPE_CHECKING:
    from ...core import Match

PlayerId = int
UNIT = 2520
"""The least common multiple of 1..10: every point total of a player is a whole
number of ``1/UNIT`` points (the store keeps the standings' cache so, exactly)."""
MIN_SEATS, MAX_SEATS = 2, 10


def place_points(seats: int) -> tuple[int, ...]:
    """The points of places 1..``seats`` (see the module): ``seats``, then
    ``seats - 2`` down to 0.

    Raises:
        ValueError: ``seats`` outside 2..10.
    """
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"seats must be from {MIN_SEATS} to {MAX_SEATS}, not {seats}")
    return tuple(seats - p + (p == 1) for p in range(1, seats + 1))


def points(places: Sequence[int]) -> list[Fraction]:
    """Each seat's points from the table's ``places`` (``results.places``' list: 1 is
    first, tied seats share the better place): tied seats share the points of the
    places they cover.

    Raises:
        ValueError: fewer than 2 or more than 10 seats, or not a list of places (each
            place ``p`` held by ``k`` seats needs ``p - 1`` seats before it).
    """
    table = place_points(len(places))
    out = []
    for p in places:
        tied = sum(1 for q in places if q == p)
        ahead = sum(1 for q in places if q < p)
        if p != ahead + 1:
            raise ValueError(f"not a list of places: {list(places)}")
        out.append(Fraction(sum(table[p - 1:p - 1 + tied]), tied))
    return out


def performance_share(places: Sequence[int], seat: int) -> Fraction:
    """The share of the other seats that ``seat`` finished ahead of (a tie counts
    half): the standings' first tie-break."""
    mine = places[seat]
    others = [q for s, q in enumerate(places) if s != seat]
    beaten = sum((Fraction(1) if mine < q else Fraction(1, 2) if mine == q else Fraction(0)
                  for q in others), Fraction(0))
    return beaten / len(others)


@dataclass(frozen=True)
class MatchRecord:
    """A finished arena match: its table, when it ended, the player at each seat
    (None: a bot) and each seat's place (``results.places``)."""

    table_id: str
    finished_at: float
    players: tuple[PlayerId | None, ...]
    places: tuple[int, ...]


def record_of(table_id: str, finished_at: float, players: Sequence[PlayerId | None],
              match: Match, abandoned: Collection[int] = ()) -> MatchRecord:
    """The record of a finished ``match`` (people who left it, ``abandoned`` seats,
    placed last as ``results.places`` does).

    Raises:
        ValueError: ``players`` does not name every seat.
    """
    where = result_places(match, abandoned)
    if len(players) != len(where):
        raise ValueError(f"{len(players)} players for {len(where)} seats")
    return MatchRecord(table_id, finished_at, tuple(players), tuple(where))


@dataclass(frozen=True)
class Scored:
    """One player's match in the standings: the table, the place, the points counted
    (doubled on fire), whether it was doubled, and whether it was a win."""

    table_id: str
    finished_at: float
    place: int
    points: Fraction
    doubled: bool
    win: bool


@dataclass
class Standing:
    """One player's line: ``rank`` (1 is first), ``points``, ``performance``, their
    matches in order, ``fire`` (their next match counts double), and when they
    reached their points."""

    player: PlayerId
    rank: int = 0
    points: Fraction = Fraction(0)
    performance: Fraction = Fraction(0)
    matches: list[Scored] = field(default_factory=list)
    fire: bool = False
    reached_at: float | None = None

    @property
    def units(self) -> int:
        """``points`` in whole :data:`UNIT` ths (the store's cache)."""
        value = self.points * UNIT
        assert value.denominator == 1
        return int(value)


def standings(matches: Iterable[MatchRecord], players: Iterable[PlayerId] = ()
              ) -> list[Standing]:
    """The standings (see the module) of everyone who played in ``matches`` and of
    ``players`` (those who joined without playing yet: no points), best first.

    Raises:
        ValueError: a record whose places are not places (:func:`points`), or whose
            players and places differ in length, or a player twice at one table.
    """
    lines: dict[PlayerId, Standing] = {p: Standing(p) for p in players}
    run: dict[PlayerId, int] = {}  # wins in a row so far
    shares: dict[PlayerId, list[Fraction]] = {}  # each match's share of seats beaten
    for record in sorted(matches, key=lambda m: (m.finished_at, m.table_id)):
        if len(record.players) != len(record.places):
            raise ValueError(f"table {record.table_id}: players and places differ")
        people = [p for p in record.players if p is not None]
        if len(set(people)) != len(people):
            raise ValueError(f"table {record.table_id}: a player sits twice")
        earned = points(record.places)
        for seat, player in enumerate(record.players):
            if player is None:
                continue
            line = lines.setdefault(player, Standing(player))
            win = record.places[seat] == 1
            doubled = run.get(player, 0) >= 2
            got = earned[seat] * (2 if doubled else 1)
            line.matches.append(Scored(record.table_id, record.finished_at,
                                       record.places[seat], got, doubled, win))
            line.points += got
            shares.setdefault(player, []).append(performance_share(record.places, seat))
            if got or line.reached_at is None:
                line.reached_at = record.finished_at
            run[player] = run.get(player, 0) + 1 if win else 0
            line.fire = run[player] >= 2
    for player, mine in shares.items():
        lines[player].performance = sum(mine, Fraction(0)) / len(mine)
    inf = float("inf")
    ordered = sorted(lines.values(), key=lambda s: (
        -s.points, -s.performance,
        s.reached_at if s.reached_at is not None else inf, s.player))
    for rank, line in enumerate(ordered, 1):
        line.rank = rank
    return ordered
