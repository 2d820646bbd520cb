"""Clubs' schedules: the occurrences of a rule (``events/schedule.py``, a pure function,
across both changes of summer time in Europe/Paris), an entry's checks, the store's
upsert by a stable id (``events/schedule_store.py``, SQLite and PostgreSQL), and the
creation of each occurrence as one tournament a day ahead, even with two creators at
once (the planner on a ManualClock)."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import Engine, func, select
from starlette.testclient import TestClient

from polignac.server import ServerConfig, create_app
from polignac.server.base.clock import ManualClock
from polignac.server.base.errors import ApiError
from polignac.server.events import schedule_store, store
from polignac.server.events.schedule import (
    AHEAD,
    DAILY,
    ONCE,
    WEEKLY,
    Rule,
    control_of_text,
    occurrences,
    parse_entry,
)
from polignac.server.jobs.botmoves import PoolBackend
from polignac.server.store.db import make_engine, migrate, writing
from polignac.server.store.schema import tournaments_t

from .waiting import wait_until

PARIS = "Europe/Paris"
UTC = dt.UTC


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> float:
    return dt.datetime(year, month, day, hour, minute, tzinfo=UTC).timestamp()


def friday_8pm() -> Rule:
    return Rule(WEEKLY, dt.time(20, 0), PARIS, weekday=4)


def local(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, ZoneInfo(PARIS)).strftime("%a %Y-%m-%d %H:%M %Z")


# ------------------------------------------------------------ occurrences


def test_a_weekly_arena_stays_at_20h_local_across_the_autumn_change() -> None:
    # 2026-10-25 03:00 CEST -> 02:00 CET: Friday 23 is summer time, Friday 30 winter
    got = occurrences(friday_8pm(), utc(2026, 10, 20), utc(2026, 11, 4))
    assert got == [utc(2026, 10, 23, 18), utc(2026, 10, 30, 19)]
    assert [local(t) for t in got] == ["Fri 2026-10-23 20:00 CEST", "Fri 2026-10-30 20:00 CET"]


def test_a_weekly_arena_stays_at_20h_local_across_the_spring_change() -> None:
    # 2026-03-29 02:00 CET -> 03:00 CEST
    got = occurrences(friday_8pm(), utc(2026, 3, 22), utc(2026, 4, 6))
    assert got == [utc(2026, 3, 27, 19), utc(2026, 4, 3, 18)]


def test_a_skipped_local_time_falls_an_hour_later_and_a_repeated_one_is_the_first() -> None:
    rule = Rule(DAILY, dt.time(2, 30), PARIS)
    spring = occurrences(rule, utc(2026, 3, 28, 12), utc(2026, 3, 29, 12))
    assert spring == [utc(2026, 3, 29, 1, 30)]  # 03:30 CEST: 02:30 does not exist
    assert local(spring[0]) == "Sun 2026-03-29 03:30 CEST"
    autumn = occurrences(rule, utc(2026, 10, 24, 12), utc(2026, 10, 25, 12))
    assert autumn == [utc(2026, 10, 25, 0, 30)]  # 02:30 CEST, the first of the two
    assert local(autumn[0]) == "Sun 2026-10-25 02:30 CEST"


def test_occurrences_are_in_the_half_open_span_and_bounded() -> None:
    rule = Rule(DAILY, dt.time(20, 0), "UTC")
    at = utc(2026, 5, 1, 20)
    assert occurrences(rule, at, at + 86_400) == [at + 86_400]  # after excluded, until in
    assert occurrences(rule, at - 1, at) == [at]
    assert occurrences(rule, at, at) == []
    with pytest.raises(ValueError):
        occurrences(rule, 0, 401 * 86_400.0)


def test_a_one_off_happens_once() -> None:
    rule = Rule(ONCE, dt.time(18, 0), PARIS, on=dt.date(2026, 12, 24))
    assert occurrences(rule, utc(2026, 12, 1), utc(2027, 12, 31)) == [utc(2026, 12, 24, 17)]
    assert occurrences(rule, utc(2026, 12, 25), utc(2027, 12, 31)) == []


# ------------------------------------------------------------ entries


NOW = utc(2026, 10, 20)


def entry(**change: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"name": "Friday arena", "game": "polignac", "seats": 4,
                            "every": "friday", "at": "20:00", "tz": PARIS, "length": 60,
                            "time_control": "3+2", "rated": True, "bots_after": 60}
    data.update(change)
    return data


def test_an_entry_is_read_with_a_stable_id_from_its_name() -> None:
    s = parse_entry(entry(), NOW)
    assert (s.id, s.name, s.seats, s.minutes, s.rated, s.bot_wait) == (
        "friday-arena", "Friday arena", 4, 60, True, 60)
    assert s.rule == friday_8pm()
    assert s.time_control.label() == "3+2"
    assert parse_entry(entry(id="club-1"), NOW).id == "club-1"
    once = parse_entry(entry(every=None, on=dt.date(2026, 12, 24)), NOW).rule
    assert (once.repeat, once.on) == (ONCE, dt.date(2026, 12, 24))
    assert control_of_text("30s") == {"kind": "move", "seconds": 30}


@pytest.mark.parametrize(("change", "rule"), [
    ({"game": "chess"}, "bad-preset"),
    ({"seats": 11}, "bad-players"),
    ({"game": "pollack", "seats": 3}, "bad-players"),
    ({"time_control": "fast"}, "bad-time-control"),
    ({"time_control": "999+2"}, "bad-time-control"),
    ({"length": 5}, "tournament-length"),
    ({"bots_after": 5}, "tournament-bot-wait"),
    ({"rated": "yes"}, "bad-field"),
    ({"colour": "red"}, "bad-field"),
    ({"every": "fortnightly"}, "schedule-every"),
    ({"every": None}, "schedule-every"),
    ({"on": "2026-12-24"}, "schedule-every"),
    ({"every": None, "on": "24/12/2026"}, "schedule-every"),
    ({"at": "25:00"}, "schedule-at"),
    ({"tz": "Mars/Olympus"}, "schedule-tz"),
    ({"name": ""}, "schedule-name"),
    ({"id": "Bad Id"}, "schedule-id"),
])
def test_a_bad_entry_is_refused_with_its_rule(change: dict[str, Any], rule: str) -> None:
    with pytest.raises(ApiError) as err:
        parse_entry(entry(**change), NOW)
    assert err.value.rule == rule


# ------------------------------------------------------------ store


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    migrate(engine)
    yield engine
    engine.dispose()


def count_tournaments(engine: Engine, schedule_id: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(tournaments_t).where(
            tournaments_t.c.schedule_id == schedule_id)).scalar_one())


def test_upserting_by_id_twice_keeps_one_schedule_and_its_last_settings(
        engine: Engine) -> None:
    first = parse_entry(entry(), NOW, "file")
    with writing(engine) as conn:
        assert schedule_store.upsert(conn, first, NOW) is True
    with writing(engine) as conn:  # a restart reads the file again
        assert schedule_store.upsert(conn, first, NOW + 1) is False
        assert schedule_store.upsert(conn, replace(first, minutes=90), NOW + 2) is False
    with writing(engine) as conn:
        assert [s.id for s in schedule_store.all_schedules(conn)] == ["friday-arena"]
        assert schedule_store.load(conn, "friday-arena") == replace(first, minutes=90)


def test_syncing_the_file_removes_its_dropped_entries_only(engine: Engine) -> None:
    with writing(engine) as conn:
        schedule_store.upsert(conn, parse_entry(entry(name="by hand"), NOW, "cli"), NOW)
        schedule_store.sync_file(conn, [parse_entry(entry(name="a"), NOW, "file"),
                                        parse_entry(entry(name="b"), NOW, "file")], NOW)
        gone = schedule_store.sync_file(conn, [parse_entry(entry(name="b"), NOW, "file")],
                                        NOW)
        assert gone == ["a"]
        assert [s.id for s in schedule_store.all_schedules(conn)] == ["b", "by-hand"]


def test_each_occurrence_is_created_once_a_day_ahead(engine: Engine) -> None:
    with writing(engine) as conn:
        schedule_store.upsert(conn, parse_entry(entry(), NOW), NOW)
    start = utc(2026, 10, 23, 18)  # Friday 20:00 CEST
    with writing(engine) as conn:
        assert schedule_store.create_due(conn, start - AHEAD - 60) == []  # too early
    with writing(engine) as conn:
        made = schedule_store.create_due(conn, start - AHEAD + 60)
    with writing(engine) as conn:
        assert schedule_store.create_due(conn, start - AHEAD + 120) == []  # once
        assert len(made) == 1
        found = store.load(conn, made[0])
        assert found is not None
        assert (found.creator, found.schedule_id, found.settings.starts_at) == (
            0, "friday-arena", start)
        assert found.settings.minutes == 60 and found.settings.rated
    assert count_tournaments(engine, "friday-arena") == 1


def test_two_creators_racing_leave_one_tournament(engine: Engine) -> None:
    """Two transactions both see no tournament for the occurrence and both insert one:
    the unique index makes the second give up (PostgreSQL: the second waits for the
    first and its savepoint is undone; SQLite: writers take turns, the second sees the
    first's row)."""
    with writing(engine) as conn:
        schedule_store.upsert(conn, parse_entry(entry(), NOW), NOW)
    now = utc(2026, 10, 23, 18) - AHEAD + 60
    if engine.dialect.name != "postgresql":
        results: list[list[str]] = []

        def create() -> None:
            with writing(engine) as conn:
                results.append(schedule_store.create_due(conn, now))
        threads = [threading.Thread(target=create) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(map(len, results)) == [0, 1]
        assert count_tournaments(engine, "friday-arena") == 1
        return
    first = engine.connect()
    tx = first.begin()
    assert len(schedule_store.create_due(first, now)) == 1  # not committed yet
    second: list[list[str]] = []

    def late() -> None:
        with engine.begin() as conn:
            second.append(schedule_store.create_due(conn, now))
    thread = threading.Thread(target=late)
    thread.start()
    wait_until(lambda: _waiting_on_lock(engine), what="the second insert to wait")
    tx.commit()
    first.close()
    thread.join()
    assert second == [[]]
    assert count_tournaments(engine, "friday-arena") == 1


def _waiting_on_lock(engine: Engine) -> bool:
    with engine.connect() as conn:
        return bool(conn.exec_driver_sql(
            "select count(*) from pg_stat_activity where wait_event_type = 'Lock'"
        ).scalar_one())


# ------------------------------------------------------------ the planner


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(utc(2026, 10, 20))


def test_the_planner_creates_the_arena_a_day_ahead_on_the_servers_clock(
        config: ServerConfig, clock: ManualClock, bot_backend: PoolBackend) -> None:
    quick = replace(config, clock=clock, schedule_tick=600.0)
    with TestClient(create_app(quick, bot_backend), base_url="http://testserver") as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        planner = c.app.state.planner  # type: ignore[attr-defined]
        with writing(hub.store.engine) as conn:
            schedule_store.upsert(conn, parse_entry(entry(), clock.time()), clock.time())
        start = utc(2026, 10, 23, 18)

        def listed() -> list[dict[str, Any]]:
            found: list[dict[str, Any]] = c.get("/api/tournaments").json()["tournaments"]
            return found
        assert listed() == []
        while clock.time() < start - AHEAD - 600:  # up to 10 minutes before a day ahead
            c.portal.call(clock.advance, 600.0)  # type: ignore[union-attr]
        assert listed() == []
        rounds = planner.rounds

        def step() -> bool:
            if listed():
                return True
            c.portal.call(clock.advance, 600.0)  # type: ignore[union-attr]
            return False
        wait_until(step, what="the schedule's arena in the lobby's list")
        assert planner.rounds > rounds
        [arena] = listed()
        assert arena["starts_at"] == start
        assert arena["schedule"] == {"id": "friday-arena", "name": "Friday arena",
                                     "every": "friday", "at": "20:00", "tz": PARIS,
                                     "on": None}
        assert arena["creator"] == 0
        page = c.get(arena["url"].replace("/tournaments/", "/api/tournaments/")).json()
        assert page["schedule"]["name"] == "Friday arena"
        for _ in range(5):  # more rounds: still one
            c.portal.call(clock.advance, 600.0)  # type: ignore[union-attr]
        c.portal.call(planner.tick)  # type: ignore[union-attr]
        assert len(listed()) == 1
