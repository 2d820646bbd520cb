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
