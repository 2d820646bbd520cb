"""Games across days (docs/server.md, "Games across days"): a correspondence table that
waits for a person's move leaves memory and is kept in the database only; the page
loads it again (not paused), the move is saved and the bots answer at once; the hub's
sweep loads it before its clock runs out, and then the seat is left as at any timed
table; a restart does not load it.  All on the injected clock."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from starlette.testclient import TestClient

from polignac.server import ServerConfig, create_app
from polignac.server.base.clock import ManualClock
from polignac.server.jobs.botmoves import PoolBackend
from polignac.server.store.db import Store, make_engine

from .helpers import hello, move_and_wait_for_my_turn
from .waiting import wait_until

DAY = 24 * 3600.0
TABLE = {"time_control": {"kind": "days", "days": 1},
         "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3}


@pytest.fixture
def clocked(config: ServerConfig) -> tuple[ServerConfig, ManualClock]:
    clock = ManualClock()
    return replace(config, clock=clock, waiting_keep_seconds=60, sweep_seconds=300), clock


def _app(cfg: ServerConfig, backend: PoolBackend) -> TestClient:
    return TestClient(create_app(cfg, backend), base_url="http://testserver")


def _my_turn(client: TestClient) -> list[Any]:
    turns: list[Any] = client.get("/api/my-turn").json()["turns"]
    return turns


def _waiting_table(client: TestClient) -> tuple[str, str]:
    """A new correspondence table of this browser and three bots, at the person's move
    (the bots play at once): its url and id."""
    url: str = client.post("/api/tables", json=TABLE).json()["url"]
    wait_until(lambda: [t["url"] for t in _my_turn(client)] == [url])
    return url, url.rsplit("/", 1)[1]


def _advance(client: TestClient, clock: ManualClock, seconds: float) -> None:
    """Move the app's clock on, then wait for the hub's sweep to be asleep again (a
    sweep reads the database in a thread, which the clock's advance does not wait for:
    the sweep's next timer is set once it is done)."""
    client.portal.call(clock.advance, seconds)  # type: ignore[union-attr]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    wait_until(lambda: not hub.sweeping)


def test_a_waiting_correspondence_table_lives_in_the_database(
        clocked: tuple[ServerConfig, ManualClock], bot_backend: PoolBackend) -> None:
    cfg, clock = clocked
    with _app(cfg, bot_backend) as client:
        hub: Any = client.app.state.hub  # type: ignore[attr-defined]
        url, table_id = _waiting_table(client)
        assert table_id in hub.tables
        _advance(client, clock, 59)
        assert table_id in hub.tables
        _advance(client, clock, 1)  # nobody there for waiting_keep_seconds: stored only
        wait_until(lambda: table_id not in hub.tables)
        assert [t["url"] for t in _my_turn(client)] == [url]  # still her move, from the rows
        # the page loads it again, not paused: the move is saved, the bots answer at once
        with client.websocket_connect(url + "/ws") as ws:
            state = hello(ws)
            assert not state["table"].get("paused")
            deal = state["view"]["deal"]
            assert deal["legal"], deal
            deadline = state["clocks"]["deadline"]
            move_and_wait_for_my_turn(ws, state)
        table = hub.tables[table_id]
        assert table.seat_clocks.clocks.deadline() > deadline  # a new day for the new move
        _advance(client, clock, 60)
        wait_until(lambda: table_id not in hub.tables)


def test_the_sweep_loads_a_stored_table_in_time_for_its_clock(
        clocked: tuple[ServerConfig, ManualClock], bot_backend: PoolBackend) -> None:
    cfg, clock = clocked
    with _app(cfg, bot_backend) as client:
        hub: Any = client.app.state.hub  # type: ignore[attr-defined]
        _url, table_id = _waiting_table(client)
        deadline = _my_turn(client)[0]["deadline"]
        _advance(client, clock, 60)
        wait_until(lambda: table_id not in hub.tables)
        # a sweep every 300 s loads the tables whose clock ends within 4 hours
        _advance(client, clock, deadline - clock.time() - 4 * 3600 - 300)
        assert table_id not in hub.tables
        _advance(client, clock, 300)  # the next sweep: at most 300 s from now
        _advance(client, clock, 300)
        assert table_id in hub.tables
        table = hub.tables[table_id]
        assert not table.paused and table.seats[0].left_at is None
        # within 4 hours of its clock's end, it stays in memory
        _advance(client, clock, 60)
        assert table_id in hub.tables
        _advance(client, clock, deadline - clock.time())  # her day is out
        wait_until(lambda: table_id in hub.tables and hub.tables[table_id].seats[0].left_at)
        store = Store(make_engine(cfg.url()))
        row = store.load_one(table_id)
        assert row is not None and row.seats[0].left_at == deadline
        assert _my_turn(client) == []


def test_a_restart_leaves_waiting_correspondence_tables_in_the_database(
        clocked: tuple[ServerConfig, ManualClock], bot_backend: PoolBackend) -> None:
    cfg, clock = clocked
    with _app(cfg, bot_backend) as client:
        url = client.post("/api/tables", json=TABLE).json()["url"]
        wait_until(lambda: _my_turn(client))
        playing = client.post("/api/play-now", json={}).json()["url"]  # untimed: loaded
        cookies = dict(client.cookies)
    later = replace(cfg, clock=ManualClock(clock.time() + 3600))
    with _app(later, bot_backend) as client:
        client.cookies.update(cookies)  # the same browser
        hub: Any = client.app.state.hub  # type: ignore[attr-defined]
        assert set(hub.tables) == {playing.rsplit("/", 1)[1]}
        with client.websocket_connect(url + "/ws") as ws:  # opened: loaded
            assert hello(ws)["view"]["deal"]["legal"]
