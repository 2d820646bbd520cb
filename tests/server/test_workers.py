"""The worker pool's fair share (server/jobs/workers.py): jobs start round-robin over
clients, one client runs at most its share, heavy jobs leave a worker to the light
ones, a client past its waiting jobs is refused alone, a caller that gives up takes
its waiting job out of the queue."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator

import pytest

from polignac.server.jobs.workers import PoolBusy, WorkerPool


def stamp(seconds: float) -> tuple[float, float]:
    """Job: wait ``seconds`` in the worker -> (start, end) by the wall clock."""
    start = time.time()
    time.sleep(seconds)
    return start, time.time()


@pytest.fixture(scope="module")
def pool() -> Iterator[WorkerPool]:
    """A fair pool of two processes, started once (starting takes seconds)."""
    p = WorkerPool(2, 30.0, client_waiting=4, preload=("tests.server.test_workers",))
    p.start()
    yield p
    asyncio.run(p.stop())


async def _until(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    """Wait until ``condition()`` holds (checked every 10 ms), at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the pool never got there"
        await asyncio.sleep(0.01)


def _overlap(spans: list[tuple[float, float]]) -> int:
    """The most spans running at one moment."""
    edges = sorted([(s, 1) for s, _ in spans] + [(e, -1) for _, e in spans])
    now = most = 0
    for _, step in edges:
        now += step
        most = max(most, now)
    return most


def test_a_flood_of_heavy_jobs_leaves_a_worker_to_another_client(pool: WorkerPool) -> None:
    async def run() -> tuple[list[tuple[float, float]], list[tuple[float, float]], int]:
        flood = [asyncio.ensure_future(pool.run(stamp, 0.4, client="a", heavy=True))
                 for _ in range(4)]
        await asyncio.sleep(0)  # the flood is queued first
        light = [await pool.run(stamp, 0.0, client="b") for _ in range(3)]
        still = sum(not f.done() for f in flood)
        return list(await asyncio.gather(*flood)), light, still

    heavy, light, still = asyncio.run(run())
    assert _overlap(heavy) == 1  # client a: its share (one of two workers), heavy: one
    assert still >= 1  # b's three jobs were answered while a's were still queued
    last = max(e for _, e in light)
    assert last < max(e for _, e in heavy)


def test_round_robin_between_two_heavy_clients(pool: WorkerPool) -> None:
    async def run() -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
        a = [asyncio.ensure_future(pool.run(stamp, 0.2, client="a", heavy=True))
             for _ in range(3)]
        await asyncio.sleep(0)
        b = [asyncio.ensure_future(pool.run(stamp, 0.2, client="b", heavy=True))
             for _ in range(3)]
        return list(await asyncio.gather(*a)), list(await asyncio.gather(*b))

    a, b = asyncio.run(run())
    order = sorted([(s, "a") for s, _ in a] + [(s, "b") for s, _ in b])
    # one heavy job at a time (two workers: one kept for light jobs), turn by turn
    assert _overlap(a + b) == 1
    assert [who for _, who in order] == ["a", "b", "a", "b", "a", "b"]


def test_a_client_past_its_share_of_waiting_jobs_is_refused_alone(pool: WorkerPool) -> None:
    async def run() -> tuple[int, tuple[float, float]]:
        mine = [asyncio.ensure_future(pool.run(stamp, 0.2, client="a", heavy=True))
                for _ in range(4)]
        await asyncio.sleep(0)
        refused = 0
        try:
            await pool.run(stamp, 0.0, client="a")
        except PoolBusy:
            refused += 1
        other = await pool.run(stamp, 0.0, client="b")
        await asyncio.gather(*mine)
        return refused, other

    refused, other = asyncio.run(run())
    assert refused == 1 and other[1] >= other[0]


def test_a_caller_that_gives_up_leaves_the_queue(pool: WorkerPool) -> None:
    async def run() -> tuple[int, int]:
        first = asyncio.ensure_future(pool.run(stamp, 0.3, client="a", heavy=True))
        waiting = asyncio.ensure_future(pool.run(stamp, 5.0, client="a", heavy=True))
        await _until(lambda: pool.stats()["running"] == 1)
        done_before = pool.done
        waiting.cancel()
        await first
        await _until(lambda: pool.pending == 0)  # the cancelled job never runs
        return pool.done - done_before, pool.stats()["running"]

    finished, running = asyncio.run(run())
    assert finished == 1 and running == 0


def test_an_unfair_pool_runs_one_clients_jobs_on_every_worker() -> None:
    """Pools of bot moves: no share (a table has one move at a time)."""
    async def run() -> int:
        p = WorkerPool(2, 30.0, fair=False, preload=("tests.server.test_workers",))
        try:
            jobs = [asyncio.ensure_future(p.run(stamp, 0.5, heavy=True)) for _ in range(2)]
            await _until(lambda: p.stats()["running"] == 2 or p.done > 0)
            running: int = p.stats()["running"]  # both handed to a worker at once
            await asyncio.gather(*jobs)
            return running
        finally:
            await p.stop()

    assert asyncio.run(run()) == 2
