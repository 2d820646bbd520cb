"""Arenas on several processes (``events/processes.py``): one runner pairs a tournament
at a time, the one holding its lease; another takes the lease over once the holder
stopped renewing it and it lapsed, records the match the first one formed (from the
stored result: the table is not in its memory) exactly once, and pairs on; a seated
account gets its seat from any runner.  In one app on a ManualClock: the second
runner plays another process (its own lease owner, none of the hub's tables).
The same with real processes and ``kill -9``: ``test_arena_kill9.py``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import select, update
from starlette.testclient import TestClient

from polignac.server import ServerConfig, create_app
from polignac.server.base.clock import ManualClock
from polignac.server.base.security import hash_token
from polignac.server.events import store
from polignac.server.events.processes import lease_key, seat_token
from polignac.server.events.runner import ArenaRunner
from polignac.server.jobs.botmoves import PoolBackend
from polignac.server.store.db import writing
from polignac.server.store.schema import leases_t

from .test_arena_runner import START, account, advance, post, settings, stored
from .waiting import wait_until

LEASE = 60.0


@pytest.fixture
def app_client(config: ServerConfig, bot_backend: PoolBackend) -> Iterator[TestClient]:
    quick = replace(config, clock=ManualClock(START), grace_seconds=1.0,
                    standin_level="random", fill_level="random", arena_tick=2.0,
                    lease_seconds=LEASE)
    with TestClient(create_app(quick, bot_backend), base_url="http://testserver") as c:
        yield c


class Elsewhere:
    """The hub as another process sees it: the same database and clock, none of its
    tables in memory (a table it creates is the hub's, as its own process's would be)."""

    def __init__(self, hub: Any) -> None:
        self._hub = hub
        self.tables: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._hub, name)


def _lease(client: TestClient, tid: str) -> Any:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with writing(hub.store.engine) as conn:
        return conn.execute(select(leases_t).where(
            leases_t.c.table_id == lease_key(tid))).first()


def _lapse(client: TestClient, tid: str) -> None:
    """The database's clock passes the lease's end: its expiry set back one lease, as
    if that much time had gone by without a renewal."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with writing(hub.store.engine) as conn:
        conn.execute(update(leases_t).where(leases_t.c.table_id == lease_key(tid))
                     .values(expires=leases_t.c.expires - LEASE))


def test_one_runner_pairs_and_another_takes_over_once_the_lease_lapses(
        app_client: TestClient) -> None:
    clock: ManualClock = app_client.app.state.hub.clock  # type: ignore[attr-defined]
    hub = app_client.app.state.hub  # type: ignore[attr-defined]
    first: ArenaRunner = app_client.app.state.arena  # type: ignore[attr-defined]
    second = ArenaRunner(Elsewhere(hub), owner="process-two")
    people = [account(app_client, f"Lease_{i}") for i in range(4)]
    tid = post(people[0], "/api/tournaments", settings(bot_wait=None)).json()["id"]
    for p in people:
        assert post(p, f"/api/tournaments/{tid}/join").status_code == 200

    def step(until: Any, both: bool = True) -> None:
        def go() -> bool:
            if until():
                return True
            advance(app_client, clock, 1.0)
            if both:
                app_client.portal.call(second.tick)  # type: ignore[union-attr]
            return False
        wait_until(go, 240, what="the arena to get there", interval=0.05)

    step(lambda: tid in first.leases.held, both=False)  # the app's runner is the first
    step(lambda: stored(app_client, tid)[1])
    (table_id, players), = stored(app_client, tid)[1]
    # only the holder pairs: the second runner's rounds (one after each of the first's,
    # and more) never form a table
    for _ in range(3):
        app_client.portal.call(second.tick)  # type: ignore[union-attr]
    assert _lease(app_client, tid).owner == first.leases.owner
    assert second.created == 0 and tid not in second.leases.held
    assert first.created == 1 and tid in first.leases.held
    # a seated account's seat, from either runner: the token the table holds the hash of
    table = hub.tables[table_id]
    for i, p in enumerate(players):
        assert p is not None
        mine = app_client.portal.call(second.seat_for, tid, p)  # type: ignore[union-attr]
        assert (mine.table_id, mine.seat) == (table_id, i)
        assert hash_token(mine.token) == table.seats[i].token_hash
    me = people[1].get(f"/api/tournaments/{tid}").json()["me"]
    assert me["your_table"] == f"/tables/{table_id}"
    assert people[1].cookies[f"polignac_{table_id}"].split(".")[1] == \
        app_client.portal.call(second.seat_for, tid, 2).token  # type: ignore[union-attr]
    # the holder stops renewing (as a killed process would): its lease stays until it lapses
    app_client.portal.call(first.stop, False)  # type: ignore[union-attr]
    app_client.portal.call(second.tick)  # type: ignore[union-attr]
    assert tid not in second.leases.held and second.created == 0
    _lapse(app_client, tid)
    # the match ends (stand-ins for the absent people) and the second runner records it
    # from its stored result, once, then pairs them again
    step(lambda: second.created >= 1)
    lease = _lease(app_client, tid)
    assert lease.owner == "process-two" and lease.term == 2
    assert second.leases.taken_over == 1
    finished, running = stored(app_client, tid)
    assert [r.table_id for r in finished] == [table_id]
    assert [p for _t, p in running] != [] and table_id not in {t for t, _p in running}
    # recording again (the old holder still running a round, or the next round) is a no-op
    assert app_client.portal.call(first.record_finished, tid) == 0  # type: ignore[union-attr]
    assert app_client.portal.call(second.record_finished, tid) == 0  # type: ignore[union-attr]
    with writing(hub.store.engine) as conn:
        assert store.record_match(conn, tid, finished[0]) is False
        assert [r.table_id for r in store.finished_matches(conn, tid)] == [table_id]
        again = store.standings_of(conn, tid)
    assert sum(len(s.matches) for s in again) == 4  # four people, one match each


def test_seat_tokens_are_the_tables_and_accounts_own() -> None:
    key = b"k" * 32
    token = seat_token(key, "table1", 2, 7)
    assert len(token) == 43 and token == seat_token(key, "table1", 2, 7)
    others = {seat_token(key, "table2", 2, 7), seat_token(key, "table1", 1, 7),
              seat_token(key, "table1", 2, 8), seat_token(b"x" * 32, "table1", 2, 7)}
    assert token not in others and len(others) == 4


def test_the_bus_tells_of_other_processes_changes_only() -> None:
    """A change another process published reaches this process's listeners; its own
    (heard already), a malformed message and a bad id do not."""
    import json
    from types import SimpleNamespace

    from polignac.server.cluster.cluster import Cluster
    from polignac.server.events.processes import ArenaBus

    hub: Any = SimpleNamespace(config=ServerConfig(bus_url="redis://127.0.0.1:1",
                                                   bus_secret="s" * 20))
    hub.cluster = Cluster(hub)  # never started: messages are handed in directly
    heard: list[str] = []
    bus = ArenaBus(hub, heard.append)
    for sender, tid in (("other-1", "abcdefgh12"), (hub.cluster.id, "abcdefgh34"),
                        ("other-1", "../../x"), ("other-2", "zyxwvuts56")):
        bus._on_message(json.dumps({"t": "arena", "p": sender, "tid": tid}))
    bus._on_message("{not json")
    assert heard == ["abcdefgh12", "zyxwvuts56"] and bus.received == 2
    assert ArenaBus(SimpleNamespace(cluster=SimpleNamespace(id="solo")),  # type: ignore[arg-type]
                    heard.append).cluster is None  # one process: no bus
