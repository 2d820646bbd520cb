"""Clubs' schedules in the database (``tournament_schedules``, migration 0021) and the
creation of their occurrences as tournaments, a day ahead (docs/events.md, "Clubs'
schedules").

Every function works in the caller's transaction (``store/db.py:writing``; blocking:
call it in a thread) and takes the time from the caller (the server's one clock).
Each occurrence becomes exactly one tournament: the unique index on (schedule, start)
(``tournaments_occurrence``) refuses a second one, so two processes that create the
same occurrence at once leave one row (the loser's insert is undone in its savepoint).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ...core.timecontrol import TimeControl
from ..store.schema import tournament_schedules_t, tournaments_t
from . import store
from .schedule import AHEAD, DAILY, ONCE, WEEKDAYS, WEEKLY, Rule, Schedule, occurrences

FILE, CLI = "file", "cli"


def _values(schedule: Schedule, now: float) -> dict[str, Any]:
    rule = schedule.rule.to_json()
    return {"name": schedule.name, "source": schedule.source, "preset": schedule.preset,
            "seats": schedule.seats,
            "time_control": json.dumps(schedule.time_control.to_json()),
            "minutes": schedule.minutes, "rated": schedule.rated,
            "bot_wait": schedule.bot_wait, "every": rule["every"], "on_date": rule["on"],
            "at": rule["at"], "tz": rule["tz"], "updated_at": now}


def upsert(conn: Connection, schedule: Schedule, now: float) -> bool:
    """Store ``schedule`` under its id: insert it, or replace the one of that id (the
    occurrences already created stay as they are).  True when it was new."""
    t = tournament_schedules_t
    found = conn.execute(select(t.c.id).where(t.c.id == schedule.id)).first()
    if found is None:
        conn.execute(insert(t).values(id=schedule.id, **_values(schedule, now)))
        return True
    conn.execute(update(t).where(t.c.id == schedule.id).values(**_values(schedule, now)))
    return False


def sync_file(conn: Connection, schedules: Iterable[Schedule], now: float) -> list[str]:
    """Make the file's schedules the stored ones of source ``file``: upsert each (by
    its id), remove the file's former entries it no longer has (those added with the
    command line stay); the ids removed."""
    ids = set()
    for schedule in schedules:
        upsert(conn, schedule, now)
        ids.add(schedule.id)
    t = tournament_schedules_t
    gone = [i for i in conn.execute(select(t.c.id).where(t.c.source == FILE)).scalars()
            if i not in ids]
    for ident in gone:
        remove(conn, ident)
    return sorted(gone)


def remove(conn: Connection, ident: str) -> bool:
    """Remove the schedule ``ident`` (its tournaments already created stay); whether
    there was one."""
    t = tournament_schedules_t
    return bool(conn.execute(delete(t).where(t.c.id == ident)).rowcount)


def _rule(row: Any) -> Rule:
    at = dt.time.fromisoformat(row.at)
    if row.every == ONCE:
        return Rule(ONCE, at, row.tz, on=dt.date.fromisoformat(row.on_date))
    if row.every == DAILY:
        return Rule(DAILY, at, row.tz)
    return Rule(WEEKLY, at, row.tz, weekday=WEEKDAYS.index(row.every))


def _schedule(row: Any) -> Schedule:
    control = TimeControl.parse(json.loads(row.time_control))
    assert control is not None
    return Schedule(row.id, row.name, row.preset, row.seats, control, row.minutes,
                    bool(row.rated), row.bot_wait, _rule(row), row.source)


def load(conn: Connection, ident: str) -> Schedule | None:
    """The schedule ``ident``, or None."""
    t = tournament_schedules_t
    row = conn.execute(select(t).where(t.c.id == ident)).first()
    return None if row is None else _schedule(row)


def all_schedules(conn: Connection) -> list[Schedule]:
    """Every schedule, by id."""
    t = tournament_schedules_t
    return [_schedule(r) for r in conn.execute(select(t).order_by(t.c.id)).all()]


def next_start(schedule: Schedule, now: float) -> float | None:
    """The start of ``schedule``'s next occurrence after ``now`` (within 400 days), or
    None."""
    found = occurrences(schedule.rule, now, now + 399 * 86_400.0)
    return found[0] if found else None


def create_due(conn: Connection, now: float, ahead: float = AHEAD) -> list[str]:
    """Create, as tournaments, every schedule's occurrences that start in
    ``(now, now + ahead]`` and have none yet; the new tournaments' ids (creator 0,
    ``schedule_id`` set)."""
    made = []
    t = tournaments_t
    for schedule in all_schedules(conn):
        for start in occurrences(schedule.rule, now, now + ahead):
            exists = conn.execute(select(t.c.id).where(
                t.c.schedule_id == schedule.id, t.c.starts_at == start)).first()
            if exists is not None:
                continue
            try:
                with conn.begin_nested():
                    made.append(store.create(conn, 0, schedule.settings_at(start), now,
                                             schedule_id=schedule.id))
            except IntegrityError:  # another process created it first
                continue
    return made


def shown(conn: Connection, ident: str | None) -> dict[str, Any] | None:
    """A tournament's schedule as the lobby and its page show it: ``{"id", "name",
    "every", "at", "tz", "on"}``, or None (not a schedule's, or one removed since)."""
    if ident is None:
        return None
    found = load(conn, ident)
    if found is None:
        return None
    return {"id": found.id, "name": found.name, **found.rule.to_json()}
