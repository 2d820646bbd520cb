"""An arena's settings and states (``server/events/tournament.py``) and its storage
(``server/events/store.py``, migration 0015) on SQLite and PostgreSQL: create, join, pause, leave,
record a match once, and standings recomputed from the rows equal to the cache."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from sqlalchemy import Engine, select

from polignac.core.timecontrol import TimeControl
from polignac.server.base.errors import ApiError
from polignac.server.events import store
from polignac.server.events.scoring import UNIT, MatchRecord, standings
from polignac.server.events.tournament import FINISHED, RUNNING, SCHEDULED, Settings
from polignac.server.store.db import make_engine, migrate, writing
from polignac.server.store.schema import tournament_players_t

NOW = 1_800_000_000.0


def settings_json(**change: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"preset": "polignac", "seats": 4,
                            "time_control": {"kind": "realtime", "base": 180, "increment": 2},
                            "starts_at": NOW + 600, "minutes": 60, "rated": True,
                            "bot_wait": 30}
    data.update(change)
    return data


# ------------------------------------------------------------ settings


def test_settings_round_trip_and_states_follow_the_clock_passed_in() -> None:
    s = Settings.parse(settings_json(), NOW)
    assert s.time_control == TimeControl("realtime", base=180, increment=2)
    assert Settings.parse(s.to_json(), NOW) == s
    assert s.ends_at == NOW + 600 + 3600
    assert s.state(NOW) == SCHEDULED
    assert s.state(NOW + 600) == RUNNING
    assert s.state(NOW + 600 + 3599.9) == RUNNING
    assert s.state(NOW + 600 + 3600) == FINISHED


def test_no_bots_is_null() -> None:
    assert Settings.parse(settings_json(bot_wait=None), NOW).bot_wait is None


@pytest.mark.parametrize("change, rule", [
    ({"preset": "chess"}, "bad-preset"),
    ({"preset": 3}, "bad-preset"),
    ({"seats": 2}, "bad-players"),
    ({"seats": 11}, "bad-players"),
    ({"seats": "4"}, "bad-players"),
    ({"seats": True}, "bad-players"),
    ({"preset": "pollack", "seats": 5}, "bad-players"),  # Pollack is four
    ({"time_control": None}, "bad-time-control"),
    ({"time_control": {"kind": "days", "days": 1}}, "bad-time-control"),
    ({"time_control": {"kind": "realtime", "base": 1, "increment": 0}}, "bad-time-control"),
    ({"starts_at": NOW - 61}, "tournament-start"),
    ({"starts_at": NOW + 31 * 86_400}, "tournament-start"),
    ({"starts_at": float("nan")}, "tournament-start"),
    ({"starts_at": "soon"}, "tournament-start"),
    ({"minutes": 9}, "tournament-length"),
    ({"minutes": 721}, "tournament-length"),
    ({"minutes": 60.5}, "tournament-length"),
    ({"bot_wait": 5}, "tournament-bot-wait"),
    ({"bot_wait": 601}, "tournament-bot-wait"),
    ({"bot_wait": False}, "tournament-bot-wait"),
    ({"rated": "yes"}, "bad-field"),
    ({"name": "x"}, "bad-field"),
])
def test_bad_settings_are_refused_with_a_rule(change: dict[str, Any], rule: str) -> None:
    with pytest.raises(ApiError) as caught:
        Settings.parse(settings_json(**change), NOW)
    assert caught.value.rule == rule and caught.value.status == 400


def test_settings_must_be_an_object() -> None:
    with pytest.raises(ApiError, match="object"):
        Settings.parse([], NOW)


def test_a_start_a_moment_ago_is_a_start_now() -> None:
    assert Settings.parse(settings_json(starts_at=NOW - 30), NOW).state(NOW) == RUNNING


def test_every_new_rule_has_an_error_text() -> None:
    from polignac import i18n
    for lang in i18n.LANGS:
        catalog = i18n.catalog(lang)
        for rule in ("tournament-start", "tournament-length", "tournament-bot-wait",
                     "no-tournament", "tournament-over", "tournament-full",
                     "not-in-tournament"):
            assert f"error.{rule}" in catalog, (lang, rule)


# ------------------------------------------------------------ storage


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """A migrated database on each backend: SQLite, then PostgreSQL."""
    engine = make_engine(database_url)
    migrate(engine)
    yield engine
    engine.dispose()


def new_tournament(engine: Engine, now: float = NOW, **change: Any) -> str:
    with writing(engine) as conn:
        return store.create(conn, 1, Settings.parse(settings_json(**change), now), now)


def test_a_tournament_is_stored_and_loaded(engine: Engine) -> None:
    tid = new_tournament(engine)
    with engine.connect() as conn:
        found = store.load(conn, tid)
        assert store.load(conn, "nope") is None
    assert found is not None
    assert found.settings == Settings.parse(settings_json(), NOW)
    assert found.creator == 1 and found.created_at == NOW


def test_the_coming_list_holds_the_scheduled_and_running_ones_soonest_first(
        engine: Engine) -> None:
    later = new_tournament(engine, starts_at=NOW + 7200)
    soon = new_tournament(engine, starts_at=NOW + 60, minutes=10)
    with engine.connect() as conn:
        assert [t.id for t in store.coming(conn, NOW)] == [soon, later]
        assert [t.id for t in store.coming(conn, NOW + 60 + 599)] == [soon, later]
        assert [t.id for t in store.coming(conn, NOW + 60 + 600)] == [later]  # finished
        assert [t.id for t in store.coming(conn, NOW, limit=1)] == [soon]
        assert store.coming(conn, NOW + 86_400) == []


def test_join_pause_leave_and_join_again(engine: Engine) -> None:
    tid = new_tournament(engine)
    with writing(engine) as conn:
        first = store.join(conn, tid, 7, NOW)
        assert (first.state, first.joined_at, first.score_units) == ("joined", NOW, 0)
        assert store.join(conn, tid, 7, NOW + 1) == first  # joining twice changes nothing
        store.pause(conn, tid, 7, NOW + 2)
        assert [e.state for e in store.entrants(conn, tid)] == ["paused"]
        store.leave(conn, tid, 7, NOW + 3)
        with pytest.raises(ApiError) as caught:
            store.leave(conn, tid, 7, NOW + 4)
        assert caught.value.rule == "not-in-tournament"
        back = store.join(conn, tid, 7, NOW + 5)
        assert (back.state, back.joined_at, back.changed_at) == ("joined", NOW, NOW + 5)


def test_joining_is_refused_once_it_is_over_and_for_an_unknown_one(engine: Engine) -> None:
    tid = new_tournament(engine, minutes=10)
    with writing(engine) as conn:
        store.join(conn, tid, 7, NOW)  # before the start
        store.join(conn, tid, 8, NOW + 600)  # while it runs
        with pytest.raises(ApiError) as caught:
            store.join(conn, tid, 9, NOW + 600 + 600)
        assert caught.value.rule == "tournament-over" and caught.value.status == 409
        with pytest.raises(ApiError) as caught:
            store.join(conn, "nope", 9, NOW)
        assert caught.value.rule == "no-tournament" and caught.value.status == 404
        with pytest.raises(ApiError) as caught:
            store.pause(conn, tid, 9, NOW)
        assert caught.value.rule == "not-in-tournament"
        store.leave(conn, tid, 8, NOW + 2000)  # leaving is always allowed
        assert {e.account_id for e in store.entrants(conn, tid)} == {7, 8}


def test_a_full_tournament_takes_nobody_more(engine: Engine, monkeypatch: Any) -> None:
    monkeypatch.setattr(store, "MAX_PLAYERS", 2)
    tid = new_tournament(engine)
    with writing(engine) as conn:
        store.join(conn, tid, 1, NOW)
        store.join(conn, tid, 2, NOW)
        with pytest.raises(ApiError) as caught:
            store.join(conn, tid, 3, NOW)
        assert caught.value.rule == "tournament-full"
        store.join(conn, tid, 2, NOW)  # one already in may come back


def test_matches_are_recorded_once_and_the_cache_equals_the_standings(engine: Engine) -> None:
    tid = new_tournament(engine)
    with writing(engine) as conn:
        for account in (1, 2, 3, 4, 5):
            store.join(conn, tid, account, NOW)
        store.start_match(conn, tid, "tA", (1, 2, 3, 4), NOW + 600)
        store.start_match(conn, tid, "tB", (5, None, None, None), NOW + 610)
        store.start_match(conn, tid, "tC", (4, 3, 2, 1), NOW + 700)
        assert [t for t, _ in store.running_matches(conn, tid)] == ["tA", "tB", "tC"]
    records = [MatchRecord("tA", NOW + 900, (1, 2, 3, 4), (1, 2, 2, 4)),
               MatchRecord("tB", NOW + 950, (5, None, None, None), (1, 2, 3, 4)),
               MatchRecord("tC", NOW + 1000, (4, 3, 2, 1), (4, 3, 2, 1))]
    with writing(engine) as conn:
        assert all(store.record_match(conn, tid, r) for r in records)
        assert not store.record_match(conn, tid, records[0])  # a second time: nothing
        assert store.running_matches(conn, tid) == []
        assert store.finished_matches(conn, tid) == records
        with pytest.raises(ValueError):
            store.record_match(conn, tid, MatchRecord("tZ", NOW, (1, 2, 3, 4), (1, 2, 3, 4)))
    with engine.connect() as conn:
        again = store.standings_of(conn, tid)
        rows = conn.execute(select(tournament_players_t)).all()
    assert again == standings(records, [1, 2, 3, 4, 5])
    cache = {r.account_id: (r.score_units, r.rank) for r in rows}
    assert cache == {s.player: (s.units, s.rank) for s in again}
    by = {s.player: s for s in again}
    assert by[1].points == 4 + 4 and cache[1][0] == 8 * UNIT  # 4 + 4
    assert by[2].points == Fraction(3, 2) + 2  # a shared second, then second
    assert by[3].points == Fraction(3, 2) + 1
    assert [s.player for s in again] == [1, 5, 2, 3, 4]


def test_a_record_whose_seats_are_not_the_tables_is_refused(engine: Engine) -> None:
    tid = new_tournament(engine)
    with writing(engine) as conn:
        store.start_match(conn, tid, "tA", (1, 2, 3, 4), NOW)
        with pytest.raises(ValueError, match="seats"):
            store.record_match(conn, tid, MatchRecord("tA", NOW, (1, 2, 3, 5), (1, 2, 3, 4)))
