"""Table leases (leases.py) on SQLite and PostgreSQL: acquire, renew, lapse, takeover;
and the fence: a table whose next event another process wrote is dropped, its
sockets closed with 1012, without a crash."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine
from starlette.testclient import TestClient

from polignac.server.cluster import leases
from polignac.server.store.db import EventRow, SeatRow, Store, TableRow, make_engine, migrate

from .helpers import hello, play_now


@pytest.fixture
def engine(database_url: str) -> Any:
    engine = make_engine(database_url)
    migrate(engine)
    store = Store(engine)
    for tid in ("t1", "t2", "t3"):
        store.create_table(TableRow(tid, "polignac", {}, 3, 0, [
            SeatRow(s, "bot", "random", f"B{s}", None, None) for s in range(3)], []))
    yield engine
    engine.dispose()


def _acquire(engine: Engine, table: str, owner: str, seconds: float) -> tuple[bool, str | None]:
    return leases.try_acquire(engine, table, owner, seconds)


def test_acquire_renew_lapse_takeover(engine: Engine) -> None:
    assert _acquire(engine, "t1", "A", 60) == (True, None)  # nobody held it
    assert _acquire(engine, "t1", "B", 60) == (False, "A")  # A holds it
    assert _acquire(engine, "t1", "A", 60) == (True, None)  # A extends its own
    with engine.begin() as conn:
        held = leases.read(conn, "t1")
        assert held is not None and held.owner == "A" and not held.lapsed
        assert held.expires - held.now == pytest.approx(60, abs=5)
    assert _acquire(engine, "t2", "A", -1) == (True, None)  # a lease already lapsed
    with engine.begin() as conn:
        assert leases.renew(conn, "A", 60) == {"t1", "t2"}  # one statement, both
        assert leases.renew(conn, "B", 60) == set()
        assert not leases.read(conn, "t2").lapsed  # type: ignore[union-attr]
    assert _acquire(engine, "t3", "A", -1) == (True, None)
    with engine.connect() as conn:  # t3 lapsed; t1 and t2 are held
        assert leases.orphans(conn) == ["t3"]
    assert _acquire(engine, "t3", "B", 60) == (True, "A")  # taken over
    with engine.begin() as conn:
        lease = leases.read(conn, "t3")
        assert lease is not None and lease.owner == "B" and lease.term == 2
        assert leases.renew(conn, "A", 60) == {"t1", "t2"}  # A lost t3
        assert leases.orphans(conn) == []
        leases.release(conn, "t1", "B")  # not B's: nothing
        assert leases.read(conn, "t1").owner == "A"  # type: ignore[union-attr]
        leases.release_all(conn, "A")
        assert leases.read(conn, "t1") is None
        assert sorted(leases.orphans(conn)) == ["t1", "t2"]  # no lease at all: orphans


def test_a_takeover_is_a_compare_and_set(engine: Engine) -> None:
    """Of two processes that both saw the lapsed lease, only one takes it."""
    assert _acquire(engine, "t1", "A", -1) == (True, None)
    with engine.begin() as c1:
        seen = leases.read(c1, "t1")
    assert seen is not None and seen.lapsed
    assert _acquire(engine, "t1", "B", 60) == (True, "A")
    with engine.begin() as conn:  # C read the lease before B took it: its update misses
        from sqlalchemy import update

        done = conn.execute(update(leases.leases_t).where(
            leases.leases_t.c.table_id == "t1", leases.leases_t.c.term == seen.term,
            leases.leases_t.c.expires <= leases.now_sql(conn)).values(owner="C")).rowcount
        assert done == 0
        assert leases.read(conn, "t1").owner == "B"  # type: ignore[union-attr]


def test_a_stale_owner_is_fenced_by_the_event_key(client: TestClient) -> None:
    """Another process wrote this table's next event: the action is refused
    (``table-moved``), the table leaves memory and the socket closes with 1012; the
    table comes back from the log on the next request."""
    url = play_now(client, level="random")
    table_id = url.rsplit("/", 1)[-1]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with client.websocket_connect(url + "/ws") as ws:
        state = hello(ws)
        while not (state["view"].get("deal") or {}).get("legal"):
            frame = ws.receive_json()
            if frame["type"] in ("event", "state"):
                state = frame
        seq = state["seq"]
        rival = EventRow(seq + 1, "act", state["view"]["deal"]["legal"][0], 0, None)
        hub.store.append_event(table_id, rival)  # as the table's new owner would
        ws.send_json({"type": "act", "action": state["view"]["deal"]["legal"][-1],
                      "seq": seq})
        frames = []
        with pytest.raises(Exception) as closed:
            while True:
                frames.append(ws.receive_json())
        assert any(f.get("rule") == "table-moved" for f in frames), frames
        assert getattr(closed.value, "code", None) == 1012
    assert table_id not in hub.tables or hub.tables[table_id].seq >= seq + 1
    with client.websocket_connect(url + "/ws") as ws:  # reloaded from the log
        again = hello(ws)
        assert again["seq"] >= seq + 1


def test_ready_and_health_name_the_process(config: Any, bot_backend: Any) -> None:
    """``GET /ready``: 503 until the process has started (lifespan not run here), then
    200; ``/health`` names the process and counts the tables it owns."""
    from polignac.server import create_app

    app = create_app(config, bot_backend)
    cold = TestClient(app, base_url="http://testserver")  # no lifespan: not started
    r = cold.get("/ready")
    assert r.status_code == 503 and r.json() == {"ready": False, "why": "starting",
                                                 "process": app.state.hub.process_id}
    with TestClient(app, base_url="http://testserver") as client:
        r = client.get("/ready")
        assert r.status_code == 200 and r.json()["ready"] is True
        play_now(client)
        health = client.get("/health").json()
        assert health["process"] == r.json()["process"] and health["owned_tables"] == 1
