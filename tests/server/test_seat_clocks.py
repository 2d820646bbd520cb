"""``tables/seat_clocks.py``: a timed table's clocks on the injected clock, a seat that
runs out of time or leaves, taking it back at a casual table, the clocks kept across a
reload, and the places of a rated match left."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.testclient import TestClient

from polignac.server import ServerConfig
from polignac.server.base.clock import ManualClock
from polignac.server.base.errors import ProtocolError
from polignac.server.players.results import places
from polignac.server.store.db import Store, make_engine
from polignac.server.tables.tables import GameTable

from .table_support import bot, person, stored_table

MOVE_30 = {"time_control": {"kind": "move", "seconds": 30}}


def timed(config: ServerConfig) -> tuple[ServerConfig, ManualClock]:
    clock = ManualClock()
    return replace(config, clock=clock), clock


def test_the_person_to_act_has_the_clock_and_a_bot_plays_on_when_it_runs_out(
        config: ServerConfig) -> None:
    async def run() -> None:
        cfg, clock = timed(config)
        seats = [bot(0), person(1), bot(2), bot(3)]  # dealer 0: seat 1 acts first
        async with stored_table(cfg, seats, options=MOVE_30) as table:
            table.subscribe(1, asyncio.Queue())  # the person is here, and does nothing
            await table.deal()
            assert table.match.to_act() == 1
            view = table.seat_clocks.view()
            assert view is not None and view["running"] == 1
            assert view["deadline"] == clock.time() + 30
            await clock.advance(29.5)
            assert table.seats[1].left_at is None and 1 not in table.presence.standing_in
            await clock.advance(0.5)
            await asyncio.wait_for(table.seat_clocks.expiring, 10)  # type: ignore[arg-type]
            assert table.seats[1].left_at == clock.time()
            assert 1 in table.presence.standing_in  # a bot of the table's level plays on
            assert table.presence.standins[1] is not None
            assert table.seat_clocks.view()["flagged"] == [1]  # type: ignore[index]
            with pytest.raises(ProtocolError) as info:
                await table.act(1, "pass", None)
            assert info.value.rule == "seat-left"
            stored = await asyncio.to_thread(Store(table.writer.store.engine).load_one,
                                             table.id)
            assert stored is not None and stored.seats[1].left_at == clock.time()
            # a casual table: the person takes the seat back, with the time of one move
            assert table.presence.seats()[1]["may_come_back"]
            assert await table.seat_clocks.back(1)
            assert table.seats[1].left_at is None and 1 not in table.presence.standing_in
            view = table.seat_clocks.view()
            assert view is not None and view["flagged"] == []
            if table.match.to_act() == 1:
                assert view["running"] == 1 and view["deadline"] == clock.time() + 30
    asyncio.run(run())


class _EarlyClock(ManualClock):
    """A clock whose timers of a second or more fire 5 ms early on its wall time, as the
    loop's monotonic timers do while the wall clock is slewed slower."""

    def call_later(self, delay: float, callback: Any, *args: Any) -> Any:
        return super().call_later(delay - 0.005 if delay >= 1 else delay, callback, *args)


def test_a_timer_that_fires_early_on_the_wall_clock_is_set_again(
        config: ServerConfig) -> None:
    async def run() -> None:
        clock = _EarlyClock()
        seats = [bot(0), person(1), bot(2), bot(3)]
        async with stored_table(replace(config, clock=clock), seats, options=MOVE_30) as table:
            table.subscribe(1, asyncio.Queue())
            await table.deal()
            await clock.advance(29.996)  # the timer fired 5 ms before the deadline
            assert table.seat_clocks.expiring is not None
            await asyncio.wait_for(table.seat_clocks.expiring, 10)
            assert table.seats[1].left_at is None
            assert table.seat_clocks.timer is not None  # set again, for the last 4 ms
            await clock.advance(0.004)
            await asyncio.wait_for(table.seat_clocks.expiring, 10)
            assert table.seats[1].left_at == clock.time()
    asyncio.run(run())


def test_no_clock_runs_for_a_bot_or_between_deals(config: ServerConfig) -> None:
    async def run() -> None:
        cfg, clock = timed(config)
        seats = [person(0), bot(1), bot(2), bot(3)]  # seat 1, a bot, acts first
        async with stored_table(cfg, seats, options=MOVE_30) as table:
            view = table.seat_clocks.view()
            assert view is not None and view["running"] is None  # before the first deal
            await table.deal()
            assert table.match.to_act() == 1
            assert table.seat_clocks.view()["running"] is None  # type: ignore[index]
            await clock.advance(3600)
            assert table.seats[0].left_at is None
    asyncio.run(run())


def test_a_rated_seat_that_ran_out_cannot_come_back(config: ServerConfig) -> None:
    async def run() -> None:
        cfg, clock = timed(config)
        options = {**MOVE_30, "rated": True}
        async with stored_table(cfg, [bot(0), person(1), bot(2), bot(3)],
                                options=options) as table:
            table.subscribe(1, asyncio.Queue())
            await table.deal()
            await clock.advance(30)
            await asyncio.wait_for(table.seat_clocks.expiring, 10)  # type: ignore[arg-type]
            assert table.seat_clocks.abandoned() == {1}
            assert not table.presence.seats()[1]["may_come_back"]
            assert not await table.seat_clocks.back(1)
            table.subscribe(1, asyncio.Queue())  # a new connection does not give it back
            assert 1 in table.presence.standing_in
    asyncio.run(run())


def test_the_clocks_and_a_left_seat_are_kept_across_a_reload(config: ServerConfig) -> None:
    async def run() -> None:
        cfg, clock = timed(config)
        control = {"time_control": {"kind": "realtime", "base": 60, "increment": 2}}
        async with stored_table(cfg, [bot(0), person(1), person(2), person(3)],
                                options=control) as table:  # no bot moves meanwhile
            table.subscribe(1, asyncio.Queue())
            await table.deal()
            await clock.advance(12.5)
            await table.act(1, _first_legal(table), table.seq)
            before = table.seat_clocks.view()
            assert before is not None and before["remaining"][1] == pytest.approx(49.5)
            await clock.advance(7)
            engine = make_engine(cfg.url())
            row = await asyncio.to_thread(Store(engine).load_one, table.id)
            assert row is not None
            again = GameTable(row, table.writer, cfg)  # as a restart or a takeover would
            after = again.seat_clocks.view()
            now = table.seat_clocks.view()
            assert after is not None and now is not None
            assert after["remaining"] == now["remaining"]
            assert after["running"] == now["running"] == 2
            assert after["deadline"] == now["deadline"] == clock.time() - 7 + 60
            engine.dispose()
    asyncio.run(run())


def _first_legal(table: GameTable) -> str:
    from polignac.core import action_name
    return action_name(table.match.legal_actions()[0])


def test_places_put_the_people_who_left_last_in_their_own_order() -> None:
    standing = SimpleNamespace(places=lambda: [2, 1, 2, 4])  # seats 0 and 2 tie for 2nd
    assert places(standing, ()) == [2, 1, 2, 4]  # type: ignore[arg-type]
    assert places(standing, {1}) == [1, 4, 1, 3]  # type: ignore[arg-type]
    assert places(standing, {1, 3}) == [1, 3, 1, 4]  # type: ignore[arg-type]
    assert places(standing, {0, 2}) == [3, 1, 3, 2]  # type: ignore[arg-type]


@pytest.mark.parametrize("control, code", [
    ({"kind": "move", "seconds": 30}, 200),
    ({"kind": "days", "days": 3}, 200),
    ({"kind": "realtime", "base": 5, "increment": 0}, 400),
    ("3+2", 400),
])
def test_create_table_takes_a_time_control(client: TestClient, control: Any, code: int) -> None:
    r = client.post("/api/tables", json={"preset": "polignac", "seats": [
        {"kind": "you"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"},
        {"kind": "bot", "level": "random"}], "time_control": control},
        headers={"origin": "http://testserver"})
    assert r.status_code == code, r.text
    if code == 400:
        assert r.json()["rule"] == "bad-time-control"
        return
    assert r.json()["time_control"] == control
    table = client.app.state.hub.tables[r.json()["id"]]  # type: ignore[attr-defined]
    assert table.info()["time_control"] == control
    assert table.presence_frame()["clocks"]["control"] == control
    listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}[r.json()["id"]]
    assert listed["time_control"] == control and listed["rated"] is False  # the lobby's list


def test_play_bans_double_with_each_abandon() -> None:
    from polignac.server.players.conduct import FIRST_BAN, LONGEST_BAN, ban_seconds
    assert ban_seconds(0) == ban_seconds(1) == 0  # anyone may lose a connection once
    assert [ban_seconds(n) for n in (2, 3, 4)] == [FIRST_BAN, 2 * FIRST_BAN, 4 * FIRST_BAN]
    assert ban_seconds(40) == LONGEST_BAN


def test_leaving_rated_matches_closes_rated_play_for_a_while(client: TestClient) -> None:
    """Two rated matches left before their end: the account may not start rated play
    until the ban's end (said with the time), casual play stays open, the profile
    counts the abandons."""
    from polignac.server.players import conduct
    from polignac.server.players.accounts import account_of_identities
    from polignac.server.store.db import writing

    from .test_accounts import post, signup
    signup(client, "leaver")
    hub = client.app.state.hub  # type: ignore[attr-defined]
    r = post(client, "/api/play-now", {"rated": False})
    table = hub.tables[r.json()["id"]]
    holder = table.seats[0].holder_hash
    now = hub.clock.time()
    with writing(hub.store.engine) as conn:
        account = account_of_identities(conn, [holder])[holder]
        conduct.record(conn, holder, "gone1", now - 600)
        conduct.record(conn, holder, "gone2", now - 60)
    refused = post(client, "/api/play-now", {"rated": True})
    assert refused.status_code == 403 and refused.json()["rule"] == "play-ban"
    assert refused.json()["until"] == pytest.approx(now - 60 + conduct.FIRST_BAN)
    assert "rated play is closed to you until" in refused.json()["error"]
    assert post(client, "/api/play-now", {"rated": False}).status_code == 200
    profile = client.get("/api/players/leaver").json()
    assert profile["abandoned"] == 2 and profile["rated_closed_until"] is not None
    assert account > 0


def test_a_rated_match_left_ends_with_the_absentee_last(config: ServerConfig) -> None:
    """The person runs out of time in the first deal; the stand-in plays the match to its
    end; the stored result places them last and marks the seat abandoned, whatever the
    bot did."""
    from sqlalchemy import select

    from polignac.server.store.schema import match_seats_t

    from .waiting import until

    async def run() -> None:
        cfg, clock = timed(config)
        options = {**MOVE_30, "rated": True}
        async with stored_table(cfg, [bot(0), person(1), bot(2), bot(3)], options=options,
                                overrides={"threshold": 1}) as table:
            table.subscribe(1, asyncio.Queue())
            await table.deal()
            await clock.advance(30)
            await asyncio.wait_for(table.seat_clocks.expiring, 10)  # type: ignore[arg-type]
            for _ in range(2000):  # the bots (and the stand-in) play on the injected clock
                if table.match.finished:
                    break
                await clock.advance(1)
            await until(lambda: table.match.finished)
            engine = table.writer.store.engine
            with engine.connect() as conn:
                rows = {r.seat: r for r in conn.execute(select(match_seats_t))}
            assert rows[1].abandoned and not rows[1].won
            assert rows[1].place == max(r.place for r in rows.values())
            assert not any(rows[s].abandoned for s in (0, 2, 3))
    asyncio.run(run())


def test_at_a_correspondence_table_being_away_is_not_leaving(config: ServerConfig) -> None:
    """Days a move: a person who closes the page has no grace period, no stand-in and no
    pause; the bots answer at once; only the seat's clock counts, and at its end the seat
    is left as at any timed table."""
    async def run() -> None:
        cfg, clock = timed(replace(config, grace_seconds=30))
        options = {"time_control": {"kind": "days", "days": 1}}
        async with stored_table(cfg, [bot(0), person(1), bot(2), bot(3)],
                                options=options) as table:
            table.unsubscribe(table.subscribe(1, asyncio.Queue()))  # came, and went
            await table.deal()
            assert not table.presence.grace_until
            await clock.advance(3600)
            assert not table.paused and 1 not in table.presence.standing_in
            view = table.seat_clocks.view()
            assert view is not None and view["running"] == 1
            await clock.advance(86_400 - 3600)
            await asyncio.wait_for(table.seat_clocks.expiring, 10)  # type: ignore[arg-type]
            assert table.seats[1].left_at is not None and 1 in table.presence.standing_in
    asyncio.run(run())


def test_your_turn_lists_the_timed_tables_where_you_are_to_move(client: TestClient) -> None:
    """``GET /api/my-turn``: a correspondence table where it is my move is listed with
    its deadline (a guest's in this browser; an account's from any of its browsers)."""
    from .helpers import sibling
    from .test_accounts import PASSWORD, post, signup, wait_for

    signup(client, "mover")
    r = post(client, "/api/tables", {
        "preset": "polignac", "time_control": {"kind": "days", "days": 2},
        "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3})
    assert r.status_code == 200, r.text
    table_id = r.json()["id"]
    table = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
    with client.websocket_connect(f"/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "last_seq": 0})
        wait_for(lambda: table.match.current is not None and table.match.to_act() == 0)
    turns = wait_for(lambda: client.get("/api/my-turn").json()["turns"])
    (turn,) = turns
    assert turn["table"] == table_id and turn["seat"] == 0
    assert turn["time_control"] == {"kind": "days", "days": 2}
    assert turn["deadline"] == pytest.approx(client.get("/api/my-turn").json()["now"]
                                             + 2 * 86_400, abs=120)
    other = sibling(client)  # the same account in another browser sees it too
    assert post(other, "/api/account/signin", {"username": "mover",
                                                "password": PASSWORD}).status_code == 200
    assert [t["table"] for t in other.get("/api/my-turn").json()["turns"]] == [table_id]
    assert sibling(client).get("/api/my-turn").json()["turns"] == []  # a stranger: none
