"""Rate limits shared by every server process (ratelimits.py): in Redis, the same
bucket as in one process's memory; two limits on one Redis (two processes) count
together; Redis out of reach leaves each process its own limit.  Then two real
``polignac serve`` processes on one Redis bus: sign-in tries and requests to play,
sent to both in turn, are limited as one process would limit them.

Real servers: subprocesses on 127.0.0.1, Redis from conftest.py.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from polignac.server.ratelimits import SharedLimits
from polignac.server.seating import KeyedRateLimit

from .cluster_support import TIMEOUT
from .conftest import RedisServer
from .test_cluster import _start

pytest.importorskip("redis")


async def _answers(url: str, n: int, keys: list[tuple[str, ...]]) -> list[bool]:
    """``allow`` for ``keys`` in turn, through ``n`` processes' limits on one Redis."""
    shared = [SharedLimits(url) for _ in range(n)]
    try:
        limits = [s.limit("test", per_minute=0.5, burst=3) for s in shared]
        return [await limits[i % n].allow(*k) for i, k in enumerate(keys)]
    finally:
        for s in shared:
            await s.close()


@pytest.mark.redis
def test_a_bucket_in_redis_answers_as_one_in_memory(redis_server: RedisServer) -> None:
    keys = [("a",), ("a", "b"), ("b",), ("a",), ("b",), ("b",), ("c", "a"), ("c",),
            ("b",), ("c",), ("c",), ("c",)]
    local = KeyedRateLimit(per_minute=0.5, burst=3)
    expected = [local.allow(*k) for k in keys]
    assert expected.count(False) >= 4  # the sequence does empty buckets
    assert asyncio.run(_answers(redis_server.url(5), 1, keys)) == expected
    # two processes (two clients, their buckets shared) answer as one
    assert asyncio.run(_answers(redis_server.url(6), 2, keys)) == expected


def test_without_redis_each_process_keeps_its_limit() -> None:
    keys = [("a",)] * 5
    # memory:// (one process), and a Redis that does not answer (port 1): local buckets
    for url in ("memory://", "redis://127.0.0.1:1/0"):
        assert asyncio.run(_answers(url, 1, keys)) == [True] * 3 + [False] * 2


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_two_processes_share_the_sign_in_and_seek_limits(redis_server: RedisServer,
                                                         tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'data' / 'polignac.db'}"
    procs = _start(2, url, redis_server.url(7), tmp_path / "data")
    try:
        # sign-in: 10 tries per account name at once, whichever process they reach
        signins = []
        for i in range(12):
            with httpx.Client(base_url=procs[i % 2].base, timeout=TIMEOUT,
                              trust_env=False) as http:
                signins.append(http.post("/api/account/signin", json={
                    "username": "nobody", "password": "not-the-password"}).status_code)
        assert signins == [401] * 10 + [429] * 2, signins
        # requests to play: 10 at once per browser and address, across both
        cookies = httpx.Cookies()
        seeks = []
        for i in range(12):
            with httpx.Client(base_url=procs[i % 2].base, timeout=TIMEOUT,
                              trust_env=False, cookies=cookies) as http:
                r = http.post("/api/seeks", json={"preset": "polignac", "name": "Ann"})
                seeks.append(r.status_code if r.status_code != 429 else r.json()["rule"])
                cookies = http.cookies
        assert seeks == [200] * 10 + ["seek-rate"] * 2, seeks
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n" + "\n".join(p.tail() for p in procs)) from None
    finally:
        for p in procs:
            p.kill()
