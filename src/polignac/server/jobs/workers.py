"""Worker processes for work that must not run on the event loop.

Anything whose cost grows with what a client sent (replaying a record, replaying
a score pad, a hint, the analysis of a deal; bot moves in a pool of their own)
runs in a :class:`WorkerPool`: a pool of ``size`` processes (pebble's
``ProcessPool``, processes forked from a ``forkserver``, at a lower CPU priority
than the server), each job with a time limit after which its process is killed
and replaced, and a memory cap.  The loop only awaits the result.  The jobs
themselves live in ``jobs.py``.

**A fair share for each client.**  A job is queued under its ``client`` (the
route passes :func:`client_key`, the client's address); the pool starts jobs
round-robin over the clients that have some waiting, so a client with twenty
jobs queued does not delay another's one job by twenty jobs.  In a ``fair`` pool
(the app's), one client runs at most half the workers at once (at least one) and
has at most ``client_waiting`` jobs waiting or running (past that,
:class:`PoolBusy` for that client only), and ``heavy`` jobs (hints, analyses) run
on all the workers but one at most, so that a worker is always left for the light
ones (replays, score pads) of everyone.  A job's time limit counts from its
start, never its wait.

A job is a plain function importable at module level (it is sent by name),
taking and returning picklable values.  Its exceptions are sent back too, but
an exception's extra attributes may not survive the trip: a job that must
report a domain error should return it as a value (the replay and score pad
jobs return ``(status, JSON bytes)``).

    pool = WorkerPool(size=2, time_limit=10.0)
    status, body = await pool.run(replay_job, raw_body, client="203.0.113.9")
    await pool.stop()                                   # run: JobTimeout, PoolBusy ...
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FuturesTimeout
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pebble import ProcessExpired, ProcessPool

log = logging.getLogger("polignac.server")
T = TypeVar("T")


class JobTimeout(Exception):
    """A job ran longer than its time limit; its worker process was killed."""


class PoolBusy(Exception):
    """Too many jobs are already waiting for a worker; try again later."""


class WorkerFailed(Exception):
    """A job's worker process died (killed, out of memory) before it answered."""


def _init_worker(megabytes: int, nice: int) -> None:  # pragma: no cover - in the worker
    """Worker initializer: lower the process's priority by ``nice`` (the event loop's
    process gets the CPU first when both want it) and cap its address space at
    ``megabytes`` (0: no cap), so that one job cannot exhaust the machine's memory
    (it gets MemoryError instead).

    With ``nice`` > 0 the worker also leaves the server's session (``setsid``): where
    the kernel schedules processes by session group (autogroup, the default of many
    Linux systems), a busy worker's CPU time would otherwise count against the
    server's own group, and the event loop would wait for the CPU behind it
    (benchmarks/bench_bots.py: the person's p50 acknowledgement at 100 tables of
    hard bots went from 8.2 ms to 1.4 ms).  ``nice`` then ranks it within its own
    group only.

    On Linux the worker also asks to be killed when its parent (the forkserver, which
    exits with the server) dies: a server or ``polignac bot-worker`` killed with
    ``kill -9`` leaves no worker computing a move nobody will read."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
            if os.getppid() == 1:  # the parent died before that
                os._exit(1)
    if nice > 0:
        with contextlib.suppress(OSError):  # already a session leader: nice still applies
            os.setsid()
        os.nice(nice)
    if megabytes > 0:
        import resource

        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def client_key(request: Any) -> str:
    """The key a request's jobs are queued under: its client's address (``?`` when
    the server does not know it)."""
    client = getattr(request, "client", None)
    return str(client.host) if client is not None else "?"


@dataclass(eq=False)
class _Job:
    """A job waiting for a worker, or running: its call, its limit, its caller's future."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    limit: float
    key: tuple[str, bool]
    """(client, heavy): the queue it waits in."""
    future: asyncio.Future[Any]
    started: bool = False
    running: Future[Any] | None = field(default=None, repr=False)
    queued_turn: int = 0
    """How many jobs the pool had started when this one was queued ..."""
    start_turn: int = 0
    """... and when it started: the difference less one started ahead of it."""


class WorkerPool:
    """``size`` worker processes, started on the first job; at most ``max_waiting``
    jobs waiting or running at once; each job killed after ``time_limit`` seconds
    of running (not of waiting).  ``memory_mb`` caps each worker's memory (0: no cap);
    workers run ``nice`` steps below the server's priority.

    Fair share (see the module's docstring): jobs start round-robin over their
    clients; with ``fair`` (the default), one client runs at most half the workers
    at once (at least one: ``client_share``) and has at most ``client_waiting``
    jobs waiting or running (default ``2 * size``), and heavy jobs run on all the
    workers but one at most (at least one: ``heavy_share``).  Pools of bot moves
    pass ``fair=False`` (a table has one move at a time; they queue in order).
    """

    def __init__(self, size: int = 2, time_limit: float = 10.0, max_waiting: int | None = None,
                 memory_mb: int = 0, nice: int = 10, preload: tuple[str, ...] = (),
                 fair: bool = True, client_waiting: int | None = None) -> None:
        if size < 1:
            raise ValueError(f"a worker pool needs at least 1 process, not {size}")
        self.size = size
        self.time_limit = time_limit
        self.max_waiting = max_waiting if max_waiting is not None else 8 * size
        self.memory_mb = memory_mb
        self.nice = nice
        self.preload = preload
        self.fair = fair
        self.client_share = max(1, size // 2)
        self.client_waiting = client_waiting if client_waiting is not None else 2 * size
        self.heavy_share = max(1, size - 1)
        self._pool: ProcessPool | None = None
        self._lock = threading.Lock()
        self._queues: dict[tuple[str, bool], deque[_Job]] = {}
        """Jobs waiting, per (client, heavy)."""
        self._running: set[_Job] = set()
        self._by_client: dict[str, int] = {}
        """Jobs waiting or running, per client."""
        self._turn = 0
        self._turns: dict[str, int] = {}
        """Per client with jobs: when it last started one (the round-robin's order)."""
        self.pending = 0
        self.done = 0
        self.timeouts = 0
        self.refused = 0
        self.failed = 0

    def _get_pool(self) -> ProcessPool:
        """The pool, started (with its processes) on the first call: slow, call it in
        a thread.

        Raises:
            TimeoutError: the processes did not start in 60 s.
        """
        with self._lock:
            if self._pool is None:
                context = multiprocessing.get_context("forkserver")
                if self.preload:
                    context.set_forkserver_preload(list(self.preload))
                pool = ProcessPool(max_workers=self.size, context=context,
                                   initializer=_init_worker, initargs=(self.memory_mb, self.nice))
                pool.schedule(os.getpid).result(timeout=60)  # starts every worker now
                self._pool = pool
                log.info("worker pool started: %d processes (pid %d)", self.size, os.getpid())
            return self._pool

    def start(self) -> None:
        """Start the processes now rather than on the first job (slow: in a thread).

        Raises:
            TimeoutError: they did not start in 60 s.
        """
        self._get_pool()

    async def run(self, fn: Callable[..., T], *args: Any, time_limit: float | None = None,
                  client: str = "", heavy: bool = False) -> T:
        """Run ``fn(*args)`` in a worker, queued under ``client`` (``heavy``: a hint or
        an analysis), and return its result.  Cancelling the caller takes a waiting
        job out of the queue (a running one runs to its end).

        Raises:
            PoolBusy: ``max_waiting`` jobs already wait or run, or ``client_waiting``
                of this client's.
            JobTimeout: the job ran longer than ``time_limit`` (default: the pool's).
            WorkerFailed: the worker process died.
            Exception: whatever ``fn`` raised (re-raised here).
        """
        if self.pending >= self.max_waiting:
            self.refused += 1
            raise PoolBusy(f"{self.pending} jobs are waiting for a worker, the most")
        if self.fair and self._by_client.get(client, 0) >= self.client_waiting:
            self.refused += 1
            raise PoolBusy(f"{self.client_waiting} of your jobs are already waiting for a "
                           "worker, the most")
        limit = self.time_limit if time_limit is None else time_limit
        job = _Job(fn, args, limit, (client, heavy), asyncio.get_running_loop().create_future())
        self.pending += 1
        self._by_client[client] = self._by_client.get(client, 0) + 1
        try:
            if self._pool is None:
                await asyncio.to_thread(self._get_pool)  # starts the processes
            job.queued_turn = self._turn
            self._queues.setdefault(job.key, deque()).append(job)
            self._dispatch()
            result: T = await job.future
            return result
        finally:
            if not job.started:
                self._drop(job)
            self.pending -= 1
            left = self._by_client.get(client, 1) - 1
            if left > 0:
                self._by_client[client] = left
            else:
                self._by_client.pop(client, None)
                self._turns.pop(client, None)

    def _drop(self, job: _Job) -> None:
        """Take a job that never started out of its queue."""
        queue = self._queues.get(job.key)
        if queue is not None and job in queue:
            queue.remove(job)
            if not queue:
                del self._queues[job.key]

    def _may_start(self, key: tuple[str, bool]) -> bool:
        if not self.fair:
            return True
        client, heavy = key
        if sum(1 for j in self._running if j.key[0] == client) >= self.client_share:
            return False
        return not (heavy and sum(1 for j in self._running if j.key[1]) >= self.heavy_share)

    def _dispatch(self) -> None:
        """Start waiting jobs while a worker is free: of the queues whose client and kind
        are under their shares, the one whose client started a job least recently."""
        while len(self._running) < self.size and self._queues and self._pool is not None:
            keys = [k for k in self._queues if self._may_start(k)]
            if not keys:
                return
            key = min(keys, key=lambda k: self._turns.get(k[0], -1))
            queue = self._queues[key]
            job = queue.popleft()
            if not queue:
                del self._queues[key]
            if job.future.done():  # its caller gave up
                continue
            self._turn += 1
            self._turns[key[0]] = self._turn
            job.start_turn = self._turn
            job.started = True
            self._running.add(job)
            job.running = self._pool.schedule(job.fn, args=job.args, timeout=job.limit)
            running = asyncio.wrap_future(job.running)
            running.add_done_callback(functools.partial(self._finished, job))

    def _finished(self, job: _Job, fut: asyncio.Future[Any]) -> None:
        """A job's worker answered (or it timed out, or died): hand the outcome to its
        caller, start the next."""
        self._running.discard(job)
        if fut.cancelled():
            outcome: BaseException | None = WorkerFailed("the worker pool stopped")
        else:
            outcome = fut.exception()
        if isinstance(outcome, FuturesTimeout):
            self.timeouts += 1
            outcome = JobTimeout(f"the job took more than {job.limit:g} s")
        elif isinstance(outcome, ProcessExpired):
            self.failed += 1
            outcome = WorkerFailed(f"the worker process died ({outcome})")
        elif outcome is None:
            self.done += 1
        if not job.future.done():
            if outcome is None:
                job.future.set_result(fut.result())
            else:
                job.future.set_exception(outcome)
        self._dispatch()

    def stats(self) -> dict[str, Any]:
        """Size, jobs waiting or running now, and counts since start (for ``/health``)."""
        return {"size": self.size, "started": self._pool is not None,
                "pending": self.pending, "running": len(self._running),
                "clients": len(self._by_client), "done": self.done,
                "timeouts": self.timeouts, "refused": self.refused, "failed": self.failed,
                "time_limit_s": self.time_limit}

    async def stop(self) -> None:
        """Stop the workers (a job still running is killed; its caller and every
        waiting one get :class:`WorkerFailed`)."""
        with self._lock:
            pool, self._pool = self._pool, None
        for queue in self._queues.values():
            for job in queue:
                if not job.future.done():
                    job.future.set_exception(WorkerFailed("the worker pool stopped"))
        self._queues.clear()
        if pool is not None:
            pool.stop()  # type: ignore[no-untyped-call]
            await asyncio.to_thread(pool.join, 10)
