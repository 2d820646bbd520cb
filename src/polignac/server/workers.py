"""Worker processes for work that must not run on the event loop.

Anything whose cost grows with what a client sent (replaying a record, replaying
a score pad; later, choosing a bot's move) runs in a :class:`WorkerPool`: a
pool of ``size`` processes (pebble's ``ProcessPool``, processes forked from a
``forkserver``, at a lower CPU priority than the server), each job with a time
limit after which its process is killed and replaced, and a memory cap.  The
loop only awaits the result.

A job is a plain function importable at module level (it is sent by name),
taking and returning picklable values.  Its exceptions are sent back too, but
an exception's extra attributes may not survive the trip: a job that must
report a domain error should return it as a value (the replay and score pad
jobs return ``(status, JSON bytes)``).

    pool = WorkerPool(size=2, time_limit=10.0)
    status, body = await pool.run(replay_job, raw_body)   # JobTimeout, PoolBusy
    await pool.stop()
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import TimeoutError as FuturesTimeout
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


class WorkerPool:
    """``size`` worker processes, started on the first job; at most ``max_waiting``
    jobs waiting or running at once; each job killed after ``time_limit`` seconds
    of running (not of waiting).  ``memory_mb`` caps each worker's memory (0: no cap);
    workers run ``nice`` steps below the server's priority.
    """

    def __init__(self, size: int = 2, time_limit: float = 10.0, max_waiting: int | None = None,
                 memory_mb: int = 0, nice: int = 10, preload: tuple[str, ...] = ()) -> None:
        if size < 1:
            raise ValueError(f"a worker pool needs at least 1 process, not {size}")
        self.size = size
        self.time_limit = time_limit
        self.max_waiting = max_waiting if max_waiting is not None else 8 * size
        self.memory_mb = memory_mb
        self.nice = nice
        self.preload = preload
        self._pool: ProcessPool | None = None
        self._lock = threading.Lock()
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

    async def run(self, fn: Callable[..., T], *args: Any, time_limit: float | None = None) -> T:
        """Run ``fn(*args)`` in a worker and return its result.

        Raises:
            PoolBusy: ``max_waiting`` jobs already wait or run.
            JobTimeout: the job ran longer than ``time_limit`` (default: the pool's).
            WorkerFailed: the worker process died.
            Exception: whatever ``fn`` raised (re-raised here).
        """
        if self.pending >= self.max_waiting:
            self.refused += 1
            raise PoolBusy(f"{self.pending} jobs are waiting for a worker, the most")
        limit = self.time_limit if time_limit is None else time_limit
        self.pending += 1
        try:
            pool = self._pool or await asyncio.to_thread(self._get_pool)  # starts processes
            future = pool.schedule(fn, args=args, timeout=limit)
            try:
                result: T = await asyncio.wrap_future(future)
            except FuturesTimeout:
                self.timeouts += 1
                raise JobTimeout(f"the job took more than {limit:g} s") from None
            except ProcessExpired as exc:
                self.failed += 1
                raise WorkerFailed(f"the worker process died ({exc})") from None
            self.done += 1
            return result
        finally:
            self.pending -= 1

    def stats(self) -> dict[str, Any]:
        """Size, jobs waiting or running now, and counts since start (for ``/health``)."""
        return {"size": self.size, "started": self._pool is not None,
                "pending": self.pending, "done": self.done, "timeouts": self.timeouts,
                "refused": self.refused, "failed": self.failed,
                "time_limit_s": self.time_limit}

    async def stop(self) -> None:
        """Stop the workers (a job still running is killed)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.stop()  # type: ignore[no-untyped-call]
            await asyncio.to_thread(pool.join, 10)
