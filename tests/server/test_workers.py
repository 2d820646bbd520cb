"""The worker pool's fair share (server/jobs/workers.py): jobs start round-robin over
clients, one client runs at most its share, heavy jobs leave a worker to the light
ones, a client past its waiting jobs is refused alone, a caller that gives up takes
its waiting job out of the queue."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from polignac.server.jobs.workers import PoolBusy, WorkerPool

from .waiting import Gate, held, until, until_done


def stamp(gate: str | None = None) -> tuple[float, float]:
    """Job: wait in the worker until ``gate`` is open (None: not at all) -> (start, end)
    by the wall clock.  A job held so runs for as long as the test needs, on any
    machine."""
    start = time.time()
    if gate is not None:
        held(gate)
    return start, time.time()


@pytest.fixture(scope="module")
def pool() -> Iterator[WorkerPool]:
    """A fair pool of two processes, started once (starting takes seconds)."""
    p = WorkerPool(2, 30.0, client_waiting=4, preload=("tests.server.test_workers",))
    p.start()
    yield p
    asyncio.run(p.stop())


def _overlap(spans: list[tuple[float, float]]) -> int:
    """The most spans running at one moment."""
    edges = sorted([(s, 1) for s, _ in spans] + [(e, -1) for _, e in spans])
    now = most = 0
    for _, step in edges:
        now += step
        most = max(most, now)
    return most


def test_a_flood_of_heavy_jobs_leaves_a_worker_to_another_client(
        pool: WorkerPool, tmp_path: Path) -> None:
    async def run(gate: Gate) -> tuple[list[tuple[float, float]], list[tuple[float, float]],
                                       int]:
        flood = [asyncio.ensure_future(pool.run(stamp, gate.path, client="a", heavy=True))
                 for _ in range(4)]
        await until(lambda: pool.pending == 4, what="the flood queued first")
        light = [await pool.run(stamp, client="b") for _ in range(3)]
        still = sum(not f.done() for f in flood)
        gate.open()
        return list(await until_done(asyncio.gather(*flood), what="the flood")), light, still

    with Gate(tmp_path) as gate:
        heavy, light, still = asyncio.run(run(gate))
    assert _overlap(heavy) == 1  # client a: its share (one of two workers), heavy: one
    assert still >= 1  # b's three jobs were answered while a's were still queued
    last = max(e for _, e in light)
    assert last < max(e for _, e in heavy)


def test_round_robin_between_two_heavy_clients(pool: WorkerPool, tmp_path: Path) -> None:
    async def run(gate: Gate) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
        a = [asyncio.ensure_future(pool.run(stamp, gate.path, client="a", heavy=True))
             for _ in range(3)]
        await until(lambda: pool.pending == 3, what="a's jobs queued first")
        b = [asyncio.ensure_future(pool.run(stamp, gate.path, client="b", heavy=True))
             for _ in range(3)]
        await until(lambda: pool.pending == 6, what="b's jobs queued")
        gate.open()
        return (list(await until_done(asyncio.gather(*a), what="a's jobs")),
                list(await until_done(asyncio.gather(*b), what="b's jobs")))

    with Gate(tmp_path) as gate:
        a, b = asyncio.run(run(gate))
    order = sorted([(s, "a") for s, _ in a] + [(s, "b") for s, _ in b])
    # one heavy job at a time (two workers: one kept for light jobs), turn by turn
    assert _overlap(a + b) == 1
    assert [who for _, who in order] == ["a", "b", "a", "b", "a", "b"]


def test_a_client_past_its_share_of_waiting_jobs_is_refused_alone(
        pool: WorkerPool, tmp_path: Path) -> None:
    async def run(gate: Gate) -> tuple[int, tuple[float, float]]:
        mine = [asyncio.ensure_future(pool.run(stamp, gate.path, client="a", heavy=True))
                for _ in range(4)]
        await until(lambda: pool.pending == 4, what="a's jobs counted")
        refused = 0
        try:
            await pool.run(stamp, client="a")
        except PoolBusy:
            refused += 1
        other = await pool.run(stamp, client="b")
        gate.open()
        await until_done(asyncio.gather(*mine), what="a's jobs")
        return refused, other

    with Gate(tmp_path) as gate:
        refused, other = asyncio.run(run(gate))
    assert refused == 1 and other[1] >= other[0]


def test_a_caller_that_gives_up_leaves_the_queue(pool: WorkerPool, tmp_path: Path) -> None:
    async def run(gate: Gate, never: Gate) -> tuple[int, int]:
        first = asyncio.ensure_future(pool.run(stamp, gate.path, client="a", heavy=True))
        waiting = asyncio.ensure_future(pool.run(stamp, never.path, client="a", heavy=True))
        await until(lambda: pool.stats()["running"] == 1 and pool.pending == 2,
                    what="one job running, one waiting")
        done_before = pool.done
        waiting.cancel()
        gate.open()
        await until_done(first, what="the first job")
        await until(lambda: pool.pending == 0,  # the cancelled job never runs
                    what="the queue to empty")
        return pool.done - done_before, pool.stats()["running"]

    with Gate(tmp_path) as gate, Gate(tmp_path, "never") as never:
        finished, running = asyncio.run(run(gate, never))
    assert finished == 1 and running == 0


def test_an_unfair_pool_runs_one_clients_jobs_on_every_worker(tmp_path: Path) -> None:
    """Pools of bot moves: no share (a table has one move at a time)."""
    async def run(gate: Gate) -> int:
        p = WorkerPool(2, 30.0, fair=False, preload=("tests.server.test_workers",))
        try:
            jobs = [asyncio.ensure_future(p.run(stamp, gate.path, heavy=True))
                    for _ in range(2)]
            await until(lambda: p.stats()["running"] == 2 or p.done > 0,
                        what="both jobs handed to a worker")
            running: int = p.stats()["running"]  # both handed to a worker at once
            gate.open()
            await until_done(asyncio.gather(*jobs), what="the jobs")
            return running
        finally:
            await p.stop()

    with Gate(tmp_path) as gate:
        assert asyncio.run(run(gate)) == 2
