"""Finished matches: each seat's place and statistics, stored with the match's last
event (docs/server.md, "Ratings").

When the action that ends a match is committed, the same transaction stores one
``match_results`` row for the table and one ``match_seats`` row per seat (its
place, score and the statistics a player of these games cares about), and, at a
rated table, the rating update (``ratings.py``).  So a finished match is never
without its result, and a result never without its match.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, insert

from ...core.match import Match
from ..store.db import SeatRow
from ..store.schema import STATS, match_results_t, match_seats_t
from .accounts import account_of_identities


def seat_stats(match: Match) -> list[dict[str, int]]:
    """Per seat: :data:`STATS` from the finished deals (``points``: the seat's deal scores
    added up, in the game's unit; Jacks, Polignacs (the Jack of spades at 2), capots
    declared and made, moons shot, and in Pollack the parties its side won)."""
    n = match.num_players
    out = [dict.fromkeys(STATS, 0) for _ in range(n)]
    for res in match.results:
        for seat in res.seats:
            out[seat]["deals"] += 1
            out[seat]["points"] += res.scores[seat]
        for line in res.score.lines:
            if line.side is not None and line.reason == "card-points":
                continue  # a side's own line: its player is the side
            if not 0 <= line.player < len(res.seats):
                continue
            seat = res.seats[line.player]
            reason, detail = line.reason, line.detail
            if reason == "card" and detail.startswith("J"):
                out[seat]["jacks"] += 1
                if detail == "JS" and line.points >= 2:
                    out[seat]["polignacs"] += 1
            elif reason.endswith("-made") or reason.endswith("-failed"):
                out[seat]["capots_declared"] += 1
                out[seat]["capots_made"] += reason.endswith("-made")
            elif reason == "moon":
                out[seat]["moons"] += 1
    sides = match.rules.sides
    for side in match.family_sheet().get("parties_won", ()):
        for seat in (sides[side] if side < len(sides) else ()):
            out[seat]["parties_won"] += 1
    return out


def seat_score(match: Match, seat: int) -> int:
    """The seat's result as a number: its total, or in Pollack its side's parties won."""
    st = match.standing
    if match.rules.partnerships:
        sides = match.rules.sides
        side = 0 if seat in sides[0] else 1
        return int(match.family_sheet()["parties_tally"][side])
    return st.totals[seat]


@dataclass
class Finish:
    """What is stored when a match ends: built on the event loop from the table,
    written by :meth:`op` in the transaction of the match's last event."""

    table_id: str
    preset: str
    pool: str
    rated: bool
    seats: list[dict[str, Any]]
    sides: tuple[tuple[int, ...], ...]
    changes: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Filled by :meth:`op` at a rated table: each rated seat's rating before and after
    (``Rating.shown``), for the table's end."""

    def op(self, conn: Connection) -> None:
        """Store the result (and, rated, the rating update), in ``conn``'s transaction.

        Raises:
            sqlalchemy.exc.IntegrityError: the result is stored already (the
                transaction, with the match's last event, then fails as a whole).
        """
        from .ratings import apply_rated_match

        now = time.time()
        owners = account_of_identities(
            conn, [s["holder_hash"] for s in self.seats if s["holder_hash"]])
        conn.execute(insert(match_results_t).values(
            table_id=self.table_id, preset=self.preset, pool=self.pool, rated=self.rated,
            players=len(self.seats), finished_at=now))
        rows = []
        for s in self.seats:
            account = owners.get(s["holder_hash"]) if s["kind"] == "human" else None
            rows.append({**s, "table_id": self.table_id, "preset": self.preset,
                         "finished_at": now, "account_id": account,
                         "rated_as": account if self.rated else None})
        conn.execute(insert(match_seats_t), rows)
        if self.rated:
            self.changes.clear()  # a retried transaction fills it again
            apply_rated_match(conn, self.table_id, self.pool, rows, self.sides, now,
                              self.changes)


def places(match: Match, abandoned: Collection[int] = ()) -> list[int]:
    """Each seat's place (1 is first) in ``match``'s final standing, the seats in
    ``abandoned`` (people who left a rated match) placed behind everyone, in their own
    order of the standing: the one definition of a place, for the results, the ratings
    and the table's end."""
    where = match.places()
    if not abandoned:
        return list(where)
    order = sorted(range(len(where)), key=lambda s: (s in abandoned, where[s]))
    out = [0] * len(where)
    place = 0
    for i, s in enumerate(order):
        prev = order[i - 1] if i else None
        if prev is None or (prev in abandoned) != (s in abandoned) or where[prev] != where[s]:
            place = i + 1
        out[s] = place
    return out


def finish_of(table_id: str, preset: str, options: dict[str, Any], seats: Sequence[SeatRow],
              match: Match, abandoned: Collection[int] = ()) -> Finish:
    """The :class:`Finish` of a table (its id, preset, options and seats), whose match
    ``match`` has just ended; ``abandoned`` seats are placed last (:func:`places`)."""
    stats = seat_stats(match)
    where = places(match, abandoned)
    rows = []
    for s in seats:
        rows.append({"seat": s.seat, "kind": s.kind, "bot_level": s.bot_level,
                     "name": s.name[:64], "holder_hash": s.holder_hash,
                     "place": where[s.seat], "score": seat_score(match, s.seat),
                     "won": s.seat in match.standing.winners and s.seat not in abandoned,
                     "abandoned": s.seat in abandoned, **stats[s.seat]})
    return Finish(table_id, preset, match.rules.family.name,
                  bool(options.get("rated")), rows, match.rules.sides)


def finish_op(table_id: str, preset: str, options: dict[str, Any], seats: Sequence[SeatRow],
              match: Match, abandoned: Collection[int] = ()) -> Callable[[Connection], None]:
    """The write that stores a table's result with its last event (see the module)."""
    return finish_of(table_id, preset, options, seats, match, abandoned).op
