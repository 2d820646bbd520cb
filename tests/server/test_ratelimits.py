"""Rate limits shared by every server process (ratelimits.py): in Redis, and in the
shared database (a bus without Redis), the same bucket as in one process's memory;
two limits on one Redis or database (two processes) count together; Redis out of
reach leaves each process its own limit.  Then two real ``polignac serve``
processes (SQLite with a Redis bus; PostgreSQL with its own bus): sign-in tries and
requests to play, sent to both in turn, are limited as one process would limit them.

Real servers: subprocesses on 127.0.0.1, PostgreSQL and Redis from conftest.py.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from polignac.server.base.seating import KeyedRateLimit
from polignac.server.players.ratelimits import SharedLimits
from polignac.server.store.db import make_engine, migrate

from .cluster_support import TIMEOUT, Proc
from .conftest import PgServer, RedisServer
from .test_cluster import _start

pytest.importorskip("redis")


async def _answers(url: str, n: int, keys: list[tuple[str, ...]],
                   engine: Any = None) -> list[bool]:
    """``allow`` for ``keys`` in turn, through ``n`` processes' limits on one Redis
    (or, with ``engine``, one database)."""
    shared = [SharedLimits(url, engine is not None, lambda: engine) for _ in range(n)]
    try:
        limits = [s.limit("test", per_minute=0.5, burst=3) for s in shared]
        return [await limits[i % n].allow(*k) for i, k in enumerate(keys)]
    finally:
        for s in shared:
            await s.close()


KEYS = [("a",), ("a", "b"), ("b",), ("a",), ("b",), ("b",), ("c", "a"), ("c",),
        ("b",), ("c",), ("c",), ("c",)]


def _in_memory() -> list[bool]:
    local = KeyedRateLimit(per_minute=0.5, burst=3)
    expected = [local.allow(*k) for k in KEYS]
    assert expected.count(False) >= 4  # the sequence does empty buckets
    return expected


@pytest.mark.redis
def test_a_bucket_in_redis_answers_as_one_in_memory(redis_server: RedisServer) -> None:
    expected = _in_memory()
    assert asyncio.run(_answers(redis_server.url(5), 1, KEYS)) == expected
    # two processes (two clients, their buckets shared) answer as one
    assert asyncio.run(_answers(redis_server.url(6), 2, KEYS)) == expected


def test_a_bucket_in_the_database_answers_as_one_in_memory(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'limits.db'}")
    migrate(engine)
    try:
        expected = _in_memory()
        assert asyncio.run(_answers("postgresql://bus", 2, KEYS, engine)) == expected
        with engine.connect() as conn:  # three buckets, each a fixed-length key
            keys = [r[0] for r in conn.exec_driver_sql("SELECT key FROM rate_buckets")]
        assert len(keys) == 3 and all(len(k) == len(keys[0]) <= 80 for k in keys)
    finally:
        engine.dispose()


MIXED = [[("one", "a"), ("two", "x")], [("one", "a"), ("two", "x")], [("two", "x")],
         [("one", "b"), ("two", "x")], [("one", "a"), ("two", "y")], [("one", "a")],
         [("one", "a"), ("two", "x")], [("two", "y"), ("one", "c")], [("one", "a")],
         [("two", "x"), ("one", "b")], [("one", "b")], [("one", "b")], [("one", "b")],
         [("one", "b")]]
"""Tries that count in two limits of different rates at once (the guessing limits'
shape: signin_limits.py); ``b``'s bucket is still full after the two refused tries
that named it."""


async def _mixed(url: str, n: int, engine: Any = None) -> list[list[str]]:
    """``SharedLimits.take`` for :data:`MIXED` in turn, through ``n`` processes: the
    names of the limits that refused each try."""
    shared = [SharedLimits(url, engine is not None, lambda: engine) for _ in range(n)]
    try:
        limits = [{"one": s.limit("one", per_minute=0.5, burst=3),
                   "two": s.limit("two", per_minute=0.1, burst=2)} for s in shared]
        out = []
        for i, checks in enumerate(MIXED):
            mine = limits[i % n]
            refused = await shared[i % n].take([(mine[name], key) for name, key in checks])
            out.append(sorted(limit.name for limit in refused))
        return out
    finally:
        for s in shared:
            await s.close()


def test_a_try_in_several_limits_takes_from_all_or_none(tmp_path: Path) -> None:
    """In memory and in the database alike (Redis: the test below): a try refused by
    one limit takes nothing from the others."""
    expected = asyncio.run(_mixed("memory://", 1))
    assert expected == [[], [], ["two"], ["two"], [], ["one"], ["one", "two"], [], ["one"],
                        ["two"], [], [], [], ["one"]]
    engine = make_engine(f"sqlite:///{tmp_path / 'limits.db'}")
    migrate(engine)
    try:
        assert asyncio.run(_mixed("postgresql://bus", 2, engine)) == expected
    finally:
        engine.dispose()


@pytest.mark.redis
def test_a_try_in_several_limits_in_redis(redis_server: RedisServer) -> None:
    assert asyncio.run(_mixed(redis_server.url(8), 2)) == asyncio.run(_mixed("memory://", 1))


def test_without_redis_each_process_keeps_its_limit() -> None:
    keys = [("a",)] * 5
    # memory:// (one process), and a Redis that does not answer (port 1): local buckets
    for url in ("memory://", "redis://127.0.0.1:1/0"):
        assert asyncio.run(_answers(url, 1, keys)) == [True] * 3 + [False] * 2


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_two_processes_on_redis_share_the_limits(redis_server: RedisServer,
                                                 tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'data' / 'polignac.db'}"
    _share_the_limits(url, redis_server.url(7), tmp_path)


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_two_processes_on_postgresql_share_the_limits(pg_server: PgServer,
                                                      tmp_path: Path) -> None:
    url = pg_server.new_database()
    _share_the_limits(url, url, tmp_path)


def _burst(procs: list[Proc], n: int, send: Callable[[httpx.Client], httpx.Response],
           cookies: httpx.Cookies | None = None) -> tuple[int, float]:
    """``n`` requests at once, to the processes in turn: (how many were not refused
    with 429, seconds from the first to the last answer)."""
    def one(i: int) -> int:
        with httpx.Client(base_url=procs[i % len(procs)].base, timeout=60,
                          trust_env=False, cookies=cookies) as http:
            return send(http).status_code
    began = time.monotonic()
    with ThreadPoolExecutor(n) as pool:
        codes = list(pool.map(one, range(n)))
    return sum(c != 429 for c in codes), time.monotonic() - began


def _share_the_limits(url: str, bus: str, tmp_path: Path) -> None:
    """24 recovery tries for one name (the guessing limits of sign-in, counted apart;
    a wrong code costs no hash, so the hashing line, one job per network, does not
    answer first), then 24 requests to play from one browser, at once, half to each
    process: 10 of each pass (the burst) and the refill meanwhile (one each 12 s,
    3 s), never the 20 that two separate limits would let through."""
    procs = _start(2, url, bus, tmp_path / "data")
    try:
        allowed, took = _burst(procs, 24, lambda http: http.post(
            "/api/account/recover", json={"username": "nobody", "code": "AAAA-BBBB-CCCC-DDDD",
                                          "password": "not-it-either"}))
        bound = 10 + int(took / 12) + 1
        assert 10 <= allowed <= bound < 20, (allowed, took)
        with httpx.Client(base_url=procs[0].base, timeout=TIMEOUT, trust_env=False) as h:
            h.get("/")  # one browser: its identity cookie
            cookies = h.cookies
        allowed, took = _burst(procs, 24, lambda http: http.post(
            "/api/seeks", json={"preset": "polignac", "name": "Ann"}), cookies)
        bound = 10 + int(took / 3) + 1
        assert 10 <= allowed <= bound < 20, (allowed, took)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n" + "\n".join(p.tail() for p in procs)) from None
    finally:
        for p in procs:
            p.kill()
