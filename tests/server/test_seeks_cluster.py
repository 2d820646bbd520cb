"""Find players with two ``polignac serve`` processes on one database (docs/server.md,
"Find players"): twelve people ask for the same game, half through each process;
both processes' matchmakers run on the same rows at once, and every person is
seated exactly once, at one of three tables, holding a seat cookie that is valid
there.  On PostgreSQL (LISTEN/NOTIFY as the bus; ``FOR UPDATE SKIP LOCKED``) and
on SQLite (one writer; Redis as the bus).

Real servers: subprocesses on 127.0.0.1, PostgreSQL and Redis from conftest.py.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from polignac.server.base.security import hash_token
from polignac.server.store.db import make_engine

from .cluster_support import TIMEOUT, Proc
from .conftest import PgServer, RedisServer
from .test_cluster import _start
from .waiting import wait_until

pytest.importorskip("broadcaster")

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]
PEOPLE = 12


def _seat_everyone(procs: list[Proc], url: str) -> None:
    clients = [httpx.Client(base_url=procs[i % 2].base, timeout=TIMEOUT, trust_env=False)
               for i in range(PEOPLE)]
    try:
        for i, http in enumerate(clients):
            for _ in range(5):  # one address for all: 10 at once, then one each 3 s,
                r = http.post("/api/seeks", json={"preset": "polignac", "players": 4,
                                                  "name": f"P{i}"})
                if r.status_code != 429:  # counted by both processes together
                    break
                time.sleep(int(r.headers["retry-after"]))  # as the server asks
            assert r.status_code == 200, r.text
        seated: dict[int, str] = {}

        def everyone_seated() -> bool:  # each person's page asks how it goes
            for i, http in enumerate(clients):
                if i in seated:
                    continue
                mine = http.get("/api/seeks").json()["mine"]
                assert mine is not None, f"P{i}'s request vanished"
                if mine["state"] == "seated":
                    seated[i] = mine["url"].rsplit("/", 1)[-1]
            return len(seated) == PEOPLE

        wait_until(everyone_seated, 120, what=lambda: f"everyone seated: {sorted(seated)}",
                   interval=0.2)
        tables = set(seated.values())
        assert len(tables) == PEOPLE // 4
        seats: set[tuple[str, int]] = set()
        engine = make_engine(url)
        with engine.connect() as conn:
            for i, table in seated.items():
                value = clients[i].cookies[f"polignac_{table}"]
                seat, token = value.split(".", 1)
                row = conn.execute(text("SELECT token_hash, name FROM seats WHERE "
                                        "table_id = :t AND seat = :s"),
                                   {"t": table, "s": int(seat)}).one()
                assert row.token_hash == hash_token(token) and row.name == f"P{i}"
                seats.add((table, int(seat)))
            assert len(seats) == PEOPLE  # nobody twice, no seat twice
            left = conn.execute(text("SELECT count(*) FROM seeks")).scalar()
            assert left == 0
            made = conn.execute(text("SELECT count(*) FROM tables")).scalar()
            assert made == PEOPLE // 4  # no table created for a group twice
        engine.dispose()
    finally:
        for http in clients:
            http.close()


def _logs(procs: list[Proc]) -> Any:
    return "\n".join(p.tail() for p in procs)


@pytest.mark.postgres
def test_two_processes_on_postgresql_never_seat_anyone_twice(pg_server: PgServer,
                                                             tmp_path: Path) -> None:
    url = pg_server.new_database()
    procs = _start(2, url, url, tmp_path / "data")
    try:
        _seat_everyone(procs, url)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{_logs(procs)}") from None
    finally:
        for p in procs:
            p.kill()


@pytest.mark.redis
def test_two_processes_on_sqlite_never_seat_anyone_twice(redis_server: RedisServer,
                                                         tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'data' / 'polignac.db'}"
    procs = _start(2, url, redis_server.url(3), tmp_path / "data")
    try:
        _seat_everyone(procs, url)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{_logs(procs)}") from None
    finally:
        for p in procs:
            p.kill()
