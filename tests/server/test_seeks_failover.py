"""Find players when the process seating a group dies (docs/server.md, "Find
players"): two ``polignac serve`` processes on one PostgreSQL database; four people
ask for the same game; the process that claims their group is killed (``kill -9``)
between the claim and the table, and the other seats them within a few seconds
(its claim lapses with a lease, 2 s here, and its heartbeats stop), each person
once, at one table.

To hold the claimant between the claim and the table, the test locks the ``tables``
table (``LOCK TABLE ... IN SHARE MODE``: an insert waits) until it has killed it.

Real servers: subprocesses on 127.0.0.1, PostgreSQL from conftest.py.
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from polignac.server.base.security import hash_token
from polignac.server.store.db import make_engine

from .cluster_support import TIMEOUT, Proc
from .conftest import PgServer
from .test_cluster import _start
from .waiting import wait_until

pytest.importorskip("broadcaster")

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.timeout(600)]
PEOPLE = 4
LEASE = 2.0
BOUND = 15.0
"""Seconds from the kill to everyone seated at most: a lease, a heartbeat and a
matchmaker's round, with room for a shared machine (it was 60 s before)."""


def _logs(procs: list[Proc]) -> str:
    return "\n".join(p.tail() for p in procs)


def test_a_group_whose_claimant_dies_is_seated_by_the_other_process(
        pg_server: PgServer, tmp_path: Path) -> None:
    url = pg_server.new_database()
    procs = _start(2, url, url, tmp_path / "data", lease=LEASE)
    engine = make_engine(url)
    clients = [httpx.Client(base_url=procs[i % 2].base, timeout=TIMEOUT, trust_env=False)
               for i in range(PEOPLE)]
    lock = engine.connect()
    try:
        lock.begin()
        lock.execute(text("LOCK TABLE tables IN SHARE MODE"))  # a table insert waits
        for i, http in enumerate(clients):
            r = http.post("/api/seeks", json={"preset": "polignac", "players": 4,
                                              "name": f"P{i}"})
            assert r.status_code == 200, r.text

        def claimed() -> str | None:  # the pages keep asking; the countdown (5 s) ends
            for http in clients:
                assert http.get("/api/seeks").json()["mine"] is not None
            with engine.connect() as conn:
                found: str | None = conn.execute(text(
                    "SELECT claimant FROM seeks WHERE state = 'creating'")).scalar()
            return found

        claimant = wait_until(claimed, 60, what="the group to be claimed", interval=0.2)
        pid = int(str(claimant).split("-")[-2])
        victim = next(p for p in procs if p.pid == pid)
        survivor = next(p for p in procs if p is not victim)
        victim.kill()  # kill -9, its table insert waiting on the lock
        killed = time.monotonic()
        lock.rollback()  # the lock is gone: the dead process's insert is rolled back
        # everyone's page now asks the survivor (as a load balancer would send them)
        clients = [httpx.Client(base_url=survivor.base, timeout=TIMEOUT, trust_env=False,
                                cookies=c.cookies) for c in clients]
        seated: dict[int, str] = {}

        def everyone_seated() -> bool:
            assert time.monotonic() - killed < BOUND, f"seated: {sorted(seated)}"
            for i, http in enumerate(clients):
                if i not in seated:
                    mine = http.get("/api/seeks").json()["mine"]
                    assert mine is not None, f"P{i}'s request vanished"
                    if mine["state"] == "seated":
                        seated[i] = mine["url"].rsplit("/", 1)[-1]
            return len(seated) == PEOPLE

        wait_until(everyone_seated, 120,  # the bound is checked in it: this never fires
                   what=lambda: f"everyone seated: {sorted(seated)}", interval=0.1)
        took = time.monotonic() - killed
        assert len(set(seated.values())) == 1, seated
        table = seated[0]
        seats = set()
        with engine.connect() as conn:
            for i, http in enumerate(clients):
                seat, token = http.cookies[f"polignac_{table}"].split(".", 1)
                row = conn.execute(text("SELECT token_hash, name FROM seats WHERE "
                                        "table_id = :t AND seat = :s"),
                                   {"t": table, "s": int(seat)}).one()
                assert row.token_hash == hash_token(token) and row.name == f"P{i}"
                seats.add(int(seat))
            assert seats == {0, 1, 2, 3}  # each person once, each seat once
            assert conn.execute(text("SELECT count(*) FROM tables")).scalar() == 1
            assert conn.execute(text("SELECT count(*) FROM seeks")).scalar() == 0
        print(f"\nFind players: seated {took:.1f} s after the claimant's kill -9 "
              f"(lease {LEASE:g} s)")
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{_logs(procs)}") from None
    finally:
        lock.close()
        for http in clients:
            http.close()
        engine.dispose()
        for p in procs:
            p.kill()
