"""An arena's storage: its settings (``tournaments``), who joined (``tournament_players``)
and its tables (``tournament_matches``), migration ``0015``.

Every function works in the caller's transaction (``store/db.py:writing`` for the
writes: blocking, call it in a thread) and takes the time from the caller (the
server's one clock).  The standings are never kept apart from the matches: each
recorded match recomputes them (``scoring.py:standings``, a pure function of the
finished matches) and writes each player's points and rank into the players' rows
as a cache for lists; :func:`standings_of` recomputes them from the rows alone.

A player's states: ``joined`` (paired when waiting), ``paused`` (not paired, keeps
their points), ``left`` (the same, and says so); joining again from either goes back
to ``joined``.  Nobody joins a finished tournament; pausing and leaving are always
allowed (a player at a table finishes it, and it counts).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, func, insert, select, update

from ...core.timecontrol import TimeControl
from ..base.errors import ApiError
from ..players.conduct import banned_until, refusal
from ..store.schema import tournament_matches_t, tournament_players_t, tournaments_t
from .scoring import MatchRecord, PlayerId, Standing, standings
from .tournament import FINISHED, Settings

JOINED, PAUSED, LEFT = "joined", "paused", "left"
PLAYER_STATES = (JOINED, PAUSED, LEFT)
MAX_PLAYERS = 5000
"""Players one tournament takes at most."""


@dataclass(frozen=True)
class Tournament:
    """A stored tournament: its id, creator (an account id; 0 for a schedule's),
    settings, creation and schedule (``schedule_store.py``; None: made by an account)."""

    id: str
    creator: int
    settings: Settings
    created_at: float
    schedule_id: str | None = None


@dataclass(frozen=True)
class Entrant:
    """A player's row: state, when they joined and last changed state, and the cache
    of their points (in ``scoring.UNIT`` ths) and rank (None until a match is
    recorded after they joined)."""

    account_id: int
    state: str
    joined_at: float
    changed_at: float
    score_units: int
    rank: int | None


def create(conn: Connection, creator: int, settings: Settings, now: float,
           schedule_id: str | None = None) -> str:
    """Store a new tournament of ``settings`` by the account ``creator`` (or, creator
    0, an occurrence of the schedule ``schedule_id``); its id.

    Raises:
        sqlalchemy.exc.IntegrityError: that schedule already has a tournament at that
            start (the unique index ``tournaments_occurrence``).
    """
    tid = secrets.token_urlsafe(12)
    conn.execute(insert(tournaments_t).values(
        id=tid, creator=creator, preset=settings.preset, seats=settings.seats,
        time_control=json.dumps(settings.time_control.to_json()),
        starts_at=settings.starts_at, minutes=settings.minutes, rated=settings.rated,
        bot_wait=settings.bot_wait, created_at=now, schedule_id=schedule_id))
    return tid


def load(conn: Connection, tid: str) -> Tournament | None:
    """The tournament ``tid``, or None."""
    row = conn.execute(select(tournaments_t).where(tournaments_t.c.id == tid)).first()
    if row is None:
        return None
    control = TimeControl.parse(json.loads(row.time_control))
    assert control is not None
    settings = Settings(row.preset, row.seats, control, row.starts_at, row.minutes,
                        bool(row.rated), row.bot_wait)
    return Tournament(row.id, row.creator, settings, row.created_at, row.schedule_id)


def coming(conn: Connection, now: float, limit: int = 50) -> list[Tournament]:
    """The tournaments not finished at ``now`` (scheduled or running), the soonest
    first, at most ``limit`` (1 to 200: the lobby's list)."""
    t = tournaments_t
    limit = max(1, min(limit, 200))
    ids = conn.execute(select(t.c.id).where(t.c.starts_at + t.c.minutes * 60 > now)
                       .order_by(t.c.starts_at, t.c.id).limit(limit)).scalars().all()
    found = [load(conn, tid) for tid in ids]
    return [f for f in found if f is not None]


def _existing(conn: Connection, tid: str) -> Tournament:
    found = load(conn, tid)
    if found is None:
        raise ApiError("no such tournament", "no-tournament", 404)
    return found


def _entrant(conn: Connection, tid: str, account: int) -> Entrant | None:
    t = tournament_players_t
    row = conn.execute(select(t).where(t.c.tournament_id == tid,
                                       t.c.account_id == account)).first()
    if row is None:
        return None
    return Entrant(row.account_id, row.state, row.joined_at, row.changed_at,
                   row.score_units, row.rank)


def join(conn: Connection, tid: str, account: int, now: float) -> Entrant:
    """``account`` joins ``tid`` (or comes back from a pause or after leaving).

    Raises:
        ApiError: ``no-tournament`` (404), ``tournament-over`` (409: finished),
            ``tournament-full`` (409: :data:`MAX_PLAYERS` joined), ``play-ban`` (403: a
            rated tournament, and the account may not play rated now:
            ``players/conduct.py``).
    """
    found = _existing(conn, tid)
    if found.settings.state(now) == FINISHED:
        raise ApiError("this tournament is over", "tournament-over", 409)
    if found.settings.rated:
        until = banned_until(conn, account, now)
        if until is not None:
            raise refusal(until)
    t = tournament_players_t
    mine = _entrant(conn, tid, account)
    if mine is None:
        count = conn.execute(select(func.count()).select_from(t).where(
            t.c.tournament_id == tid)).scalar_one()
        if count >= MAX_PLAYERS:
            raise ApiError("this tournament is full", "tournament-full", 409)
        conn.execute(insert(t).values(tournament_id=tid, account_id=account, state=JOINED,
                                      joined_at=now, changed_at=now, score_units=0,
                                      rank=None))
    elif mine.state != JOINED:
        _set_state(conn, tid, account, JOINED, now)
    entrant = _entrant(conn, tid, account)
    assert entrant is not None
    return entrant


def pause(conn: Connection, tid: str, account: int, now: float) -> None:
    """``account`` stops being paired in ``tid`` for now (keeps their points).

    Raises:
        ApiError: ``no-tournament`` (404), ``not-in-tournament`` (409: not joined).
    """
    _leave(conn, tid, account, PAUSED, now)


def leave(conn: Connection, tid: str, account: int, now: float) -> None:
    """``account`` leaves ``tid`` (keeps their points; may join again).

    Raises:
        ApiError: ``no-tournament`` (404), ``not-in-tournament`` (409: not joined).
    """
    _leave(conn, tid, account, LEFT, now)


def _leave(conn: Connection, tid: str, account: int, state: str, now: float) -> None:
    _existing(conn, tid)
    mine = _entrant(conn, tid, account)
    if mine is None or mine.state == LEFT:
        raise ApiError("you are not in this tournament", "not-in-tournament", 409)
    if mine.state != state:
        _set_state(conn, tid, account, state, now)


def _set_state(conn: Connection, tid: str, account: int, state: str, now: float) -> None:
    t = tournament_players_t
    conn.execute(update(t).where(t.c.tournament_id == tid, t.c.account_id == account)
                 .values(state=state, changed_at=now))


def entrants(conn: Connection, tid: str) -> list[Entrant]:
    """Every player who joined ``tid`` (any state), by account id."""
    t = tournament_players_t
    rows = conn.execute(select(t).where(t.c.tournament_id == tid)
                        .order_by(t.c.account_id)).all()
    return [Entrant(r.account_id, r.state, r.joined_at, r.changed_at, r.score_units, r.rank)
            for r in rows]


def start_match(conn: Connection, tid: str, table_id: str,
                players: Sequence[PlayerId | None], now: float) -> None:
    """Store that the table ``table_id`` of ``tid`` began with ``players`` (an account
    id per seat, None for a bot)."""
    conn.execute(insert(tournament_matches_t).values(
        tournament_id=tid, table_id=table_id, players=json.dumps(list(players)),
        started_at=now, finished_at=None, places=None))


def record_match(conn: Connection, tid: str, record: MatchRecord) -> bool:
    """Store the end of a match (once: a second call for the same table changes
    nothing and answers False), then recompute the standings' cache of every player.

    Raises:
        ValueError: the table was not started in ``tid`` (:func:`start_match`), or its
            seats differ from the record's.
    """
    m = tournament_matches_t
    row = conn.execute(select(m).where(m.c.tournament_id == tid,
                                       m.c.table_id == record.table_id)).first()
    if row is None:
        raise ValueError(f"table {record.table_id} is not a match of {tid}")
    if json.loads(row.players) != list(record.players):
        raise ValueError(f"table {record.table_id}: the record's seats are not the table's")
    done = conn.execute(update(m).where(m.c.tournament_id == tid,
                                        m.c.table_id == record.table_id,
                                        m.c.finished_at.is_(None))
                        .values(finished_at=record.finished_at,
                                places=json.dumps(list(record.places)))).rowcount
    if done != 1:
        return False
    write_standings(conn, tid)
    return True


def finished_matches(conn: Connection, tid: str) -> list[MatchRecord]:
    """The finished matches of ``tid``, in the order they finished."""
    m = tournament_matches_t
    rows = conn.execute(select(m).where(m.c.tournament_id == tid,
                                        m.c.finished_at.is_not(None))
                        .order_by(m.c.finished_at, m.c.table_id)).all()
    return [MatchRecord(r.table_id, r.finished_at, tuple(json.loads(r.players)),
                        tuple(json.loads(r.places))) for r in rows]


def running_matches(conn: Connection, tid: str) -> list[tuple[str, tuple[PlayerId | None, ...]]]:
    """The tables of ``tid`` still playing: (table id, players), oldest first."""
    m = tournament_matches_t
    rows = conn.execute(select(m.c.table_id, m.c.players).where(
        m.c.tournament_id == tid, m.c.finished_at.is_(None))
        .order_by(m.c.started_at, m.c.table_id)).all()
    return [(r.table_id, tuple(json.loads(r.players))) for r in rows]


def seat_of(conn: Connection, tid: str, account: PlayerId) -> tuple[str, int] | None:
    """The table of ``tid`` where ``account`` plays now and their seat there, or None."""
    for table_id, players in running_matches(conn, tid):
        if account in players:
            return table_id, players.index(account)
    return None


def standings_of(conn: Connection, tid: str) -> list[Standing]:
    """The standings of ``tid`` recomputed from its stored matches and players."""
    return standings(finished_matches(conn, tid), (e.account_id for e in entrants(conn, tid)))


def write_standings(conn: Connection, tid: str) -> list[Standing]:
    """Recompute the standings of ``tid`` and write every player's cached points and
    rank (a player who played but never joined is not written)."""
    lines = standings_of(conn, tid)
    t = tournament_players_t
    for line in lines:
        conn.execute(update(t).where(t.c.tournament_id == tid,
                                     t.c.account_id == line.player)
                     .values(score_units=line.units, rank=line.rank))
    return lines
