"""An arena on two ``polignac serve`` processes (PostgreSQL, Redis as the bus;
docs/events.md, "Several processes"): six accounts and bots play a running arena
(absent people's seats played by stand-ins), the process holding the tournament's
lease is killed with ``kill -9`` while matches play, and the other process takes the
lease over and pairs on.  No match is lost (every match started is recorded once it
ends, including those whose table was on the dead process), the standings equal
``scoring.standings`` of the stored records, the live standings socket on the
process that never paired heard every change over the bus, and a seated account gets
its seat from the process left.

Real servers: subprocesses on 127.0.0.1, PostgreSQL and Redis from conftest.py.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Engine, text

from polignac.server.base.security import hash_token
from polignac.server.events import store
from polignac.server.events.processes import lease_key
from polignac.server.events.scoring import standings
from polignac.server.store.db import make_engine

from .cluster_support import TIMEOUT, Proc, owner_pid
from .conftest import PgServer, RedisServer, free_port
from .waiting import wait_until

pytest.importorskip("websockets.sync.client")
pytest.importorskip("broadcaster")
from websockets.sync.client import connect

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis,
              pytest.mark.timeout(900)]
PEOPLE = 6
PASSWORD = "correct horse battery"


class Standings:
    """The live standings socket of a tournament on one process: the frames it pushed."""

    def __init__(self, proc: Proc, tid: str) -> None:
        self.ws = connect(f"ws://127.0.0.1:{proc.port}/tournaments/{tid}/ws",
                          proxy=None, open_timeout=TIMEOUT).__enter__()  # closed by close()
        self.frames: list[dict[str, Any]] = []

    def matches_seen(self) -> int:
        """The most finished matches a frame pushed so far showed (every frame come is
        read first)."""
        with contextlib.suppress(TimeoutError):
            while True:
                self.frames.append(json.loads(self.ws.recv(timeout=0.05)))
        return max((sum(len(s["matches"]) for s in f["standings"]) for f in self.frames),
                   default=0)

    def close(self) -> None:
        self.ws.close()


def _people(procs: list[Proc]) -> list[httpx.Client]:
    """Six browsers signed up as accounts, each through one of the processes."""
    people = []
    for i in range(PEOPLE):
        http = httpx.Client(base_url=procs[i % 2].base, timeout=TIMEOUT, trust_env=False)
        for _ in range(10):  # the sign-up limit per address is counted by both processes
            r = http.post("/api/account/signup",
                          json={"username": f"Arena_{i}", "password": PASSWORD})
            if r.status_code != 429:
                break
            time.sleep(int(r.headers["retry-after"]))  # as the server asks
        assert r.status_code == 200, r.text
        people.append(http)
    return people


def _matches(engine: Engine, tid: str) -> tuple[list[Any], list[tuple[str, Any]]]:
    with engine.connect() as conn:
        return store.finished_matches(conn, tid), store.running_matches(conn, tid)


def test_kill_minus_9_of_the_arenas_runner(pg_server: PgServer, redis_server: RedisServer,
                                           tmp_path: Path) -> None:
    url = pg_server.new_database()
    data = tmp_path / "data"
    procs = [Proc(f"a{i}", free_port(), url, redis_server.url(9), data, 2.0,
                  extra=("--grace", "1")) for i in range(2)]  # stand-ins after 1 s
    engine = make_engine(url)
    people: list[httpx.Client] = []
    sockets: list[Standings] = []
    try:
        for p in procs:
            p.wait_ready()
        people = _people(procs)
        r = people[0].post("/api/tournaments", json={
            "preset": "polignac", "seats": 4,
            "time_control": {"kind": "realtime", "base": 180, "increment": 2},
            "starts_at": time.time(), "minutes": 10, "rated": False, "bot_wait": 10})
        assert r.status_code == 200, r.text
        tid = r.json()["id"]
        sockets = [Standings(p, tid) for p in procs]
        for http in people:
            assert http.post(f"/api/tournaments/{tid}/join").json() == {"state": "joined"}

        def under_way() -> bool:  # matches recorded, and one playing to be cut off
            finished, running = _matches(engine, tid)
            return len(finished) >= 2 and bool(running)
        wait_until(under_way, 300, what="matches of the arena", interval=0.2)
        holder = owner_pid(url, lease_key(tid))
        victim = next(p for p in procs if p.pid == holder)
        survivor = next(p for p in procs if p is not victim)
        # the socket on the process that does not pair hears the matches the holder
        # records (over the bus)
        left = sockets[procs.index(survivor)]
        seats = sum(p is not None for r in _matches(engine, tid)[0] for p in r.players)
        wait_until(lambda: left.matches_seen() >= seats, 60, interval=0.1,
                   what="the other process's socket to hear of the matches")
        victim.kill()
        killed_at = time.monotonic()
        took: list[float] = []
        before = {t for t, _p in _matches(engine, tid)[1]} | \
            {r.table_id for r in _matches(engine, tid)[0]}

        # the survivor takes the lease over and pairs on; every match started before
        # the kill is recorded once it ends (its table taken over too)
        def went_on() -> bool:
            finished, _running = _matches(engine, tid)
            done = {r.table_id for r in finished}
            if not took and owner_pid(url, lease_key(tid)) == survivor.pid:
                took.append(time.monotonic() - killed_at)
            return bool(took) and before <= done and len(done - before) >= 2
        wait_until(went_on, 300, interval=0.2,
                   what=lambda: f"the arena to go on after the kill:\n{survivor.tail()}")
        print(f"\narena lease taken over {took[0]:.2f} s after the kill -9 (lease 2 s, "
              f"rounds every 2 s)")
        assert owner_pid(url, lease_key(tid)) == survivor.pid
        finished, running = _matches(engine, tid)
        assert len({r.table_id for r in finished}) == len(finished)  # each once
        with engine.connect() as conn:  # every match still running has a table in play
            for table_id, _players in running:
                row = conn.execute(text("SELECT finished_at, closed_at FROM tables "
                                        "WHERE id = :t"), {"t": table_id}).one()
                assert row.closed_at is None
            lease = conn.execute(text("SELECT term FROM leases WHERE table_id = :k"),
                                 {"k": lease_key(tid)}).scalar_one()
            assert lease >= 2  # taken over, not made anew
        # the standings the survivor serves are the pure recomputation of the records
        got = httpx.get(f"{survivor.base}/api/tournaments/{tid}", timeout=TIMEOUT,
                        trust_env=False).json()
        with engine.connect() as conn:
            finished = store.finished_matches(conn, tid)
            ids = [e.account_id for e in store.entrants(conn, tid)]
        again = standings(finished, ids)
        shown = [(s["id"], s["points"], len(s["matches"])) for s in got["standings"]]
        assert shown == [(s.player, float(s.points), len(s.matches)) for s in again]
        # and the survivor's own, after the takeover
        wait_until(lambda: left.matches_seen() >= sum(len(s.matches) for s in again),
                   60, what="the survivor's socket to show the standings", interval=0.1)
        # a seated account gets its seat from the survivor (a token it made again)
        _seat_from_the_survivor(engine, survivor, people, tid)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n" + "\n".join(p.tail() for p in procs)) from None
    finally:
        for s in sockets:
            s.close()
        for http in people:
            http.close()
        for p in procs:
            p.kill()
        engine.dispose()


def _seat_from_the_survivor(engine: Engine, survivor: Proc, people: list[httpx.Client],
                            tid: str) -> None:
    """Once an account is seated, its page on the survivor gives its table and a seat
    cookie whose token the table's seat holds the hash of."""
    found: list[tuple[int, str, int]] = []

    def seated() -> bool:
        with engine.connect() as conn:
            for i in range(PEOPLE):
                spot = store.seat_of(conn, tid, i + 1)
                if spot is not None:
                    found[:] = [(i, *spot)]
                    return True
        return False
    wait_until(seated, 120, what="someone seated", interval=0.2)
    i, table_id, seat = found[0]
    http = people[i]
    got = http.get(f"{survivor.base}/api/tournaments/{tid}").json()
    if got["me"]["your_table"] is None:  # the match ended in between: nothing to check
        return
    assert got["me"]["your_table"] == f"/tables/{table_id}"
    value = http.cookies[f"polignac_{table_id}"]
    cookie_seat, token = value.split(".", 1)
    with engine.connect() as conn:
        stored = conn.execute(text("SELECT token_hash FROM seats WHERE table_id = :t AND "
                                   "seat = :s"), {"t": table_id, "s": seat}).scalar_one()
    assert int(cookie_seat) == seat and stored == hash_token(token)
