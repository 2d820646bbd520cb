"""The Argon2id line of one web process: a bounded queue shared fairly by client
networks (docs/server.md, "Accounts and sessions").

Every password hash or verification of the account routes (sign-up, sign-in,
recovery, deletion) runs here, in :data:`WORKERS` threads of its own, never on the
event loop.  The line holds at most :data:`BOUND` jobs, running or waiting, and each
client network (its /24 in IPv4, its /64 in IPv6: ``httplimits.py:client_network``)
at most one of them: a second job from a network that has one, or one more when the
line is full, is refused at once (``429 hashing-busy`` with ``Retry-After``) instead
of waiting behind a flood.

The next job to run is that of the network that asked least lately (its tries,
taken or refused, counted down by half every :data:`HALF_LIFE` seconds of the
server's clock; among equals, the first to come): a network that floods the line
with made-up names has asked hundreds of times, a person signing in once or twice,
so she goes first.  When the line is full, a newcomer that asked less lately than
the waiting job that asked most takes that job's place, and that job is refused
(429) then.  So during a flood from many networks a real sign-in waits for about one
hash per thread, not for the flood.

The line is this process's: each web process has its own threads (the guessing
limits, ``signin_limits.py``, are the ones shared by every process).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import math
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..base.clock import SYSTEM, Clock
from ..base.errors import ApiError

T = TypeVar("T")

WORKERS = 2
"""Threads that hash at once (each Argon2id job takes 19 MiB and one core)."""
BOUND = 16
"""Jobs running or waiting, at most (one per network)."""
HALF_LIFE = 60.0
"""Seconds after which a network's count of tries counts half."""
MAX_NETWORKS = 4096
"""Networks whose count is kept, at most (the least counted are forgotten first)."""


class HashingBusy(ApiError):
    """A hash refused at once: its network has one in the line, or the line is full
    (``429 hashing-busy`` with ``Retry-After``)."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"the server is busy checking passwords: try again in {retry_after} s",
                         "hashing-busy", 429, {"Retry-After": str(retry_after)})


@dataclass
class _Job:
    network: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    seq: int
    done: asyncio.Future[Any] = field(repr=False)
    started: bool = False


class HashQueue:
    """The bounded, fair line of Argon2 jobs (see the module).  Use it from one event
    loop; :meth:`run` is the only way in."""

    def __init__(self, workers: int = WORKERS, bound: int = BOUND, clock: Clock = SYSTEM,
                 half_life: float = HALF_LIFE, max_networks: int = MAX_NETWORKS) -> None:
        if not 1 <= workers <= bound:
            raise ValueError("a hashing line needs 1 <= workers <= bound")
        self.workers, self.bound, self.clock = workers, bound, clock
        self.half_life, self.max_networks = half_life, max_networks
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="polignac-argon2")
        self.jobs: dict[str, _Job] = {}
        """The network of each job in the line (running or waiting): one each."""
        self.asked: dict[str, tuple[float, float]] = {}
        """Per network: (tries lately, counted down to ``when``), ``when``."""
        self.seconds = 0.05
        """The mean seconds of a job lately (on the clock): what Retry-After tells."""
        self._seq = itertools.count()
        self.refused = 0
        """Jobs refused so far (a figure for the benchmark)."""

    @property
    def running(self) -> int:
        """Jobs running in the threads now."""
        return sum(1 for job in self.jobs.values() if job.started)

    def waiting(self) -> list[_Job]:
        """The jobs waiting for a thread, the next to run first."""
        return sorted((j for j in self.jobs.values() if not j.started), key=self._order)

    def count(self, network: str) -> float:
        """The tries of ``network`` lately, taken or refused (halved every
        ``half_life`` seconds)."""
        found = self.asked.get(network)
        if found is None:
            return 0.0
        value, when = found
        return float(value * 0.5 ** (max(0.0, self.clock.monotonic() - when) / self.half_life))

    def _order(self, job: _Job) -> tuple[float, int]:
        return (self.count(job.network), job.seq)

    def _retry_after(self) -> int:
        return max(1, math.ceil(len(self.jobs) / self.workers * self.seconds))

    def check(self, network: str) -> None:
        """Refuse at once, before any other work, a network that has a job in the line.

        Raises:
            HashingBusy: ``network`` has a job running or waiting.
        """
        if network in self.jobs:
            self._count(network)
            self.refused += 1
            raise HashingBusy(self._retry_after())

    async def run(self, network: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a hashing thread, in turn (see the module), for a client
        of ``network``.

        Raises:
            HashingBusy: ``network`` has a job in the line, or the line is full and
                this network asked at least as much lately as every waiting job's; or
                this job was waiting and a network that asked less took its place.
            Exception: whatever ``fn`` raised.
        """
        self.check(network)
        self._count(network)
        if len(self.jobs) >= self.bound:
            self._push_out(self.count(network))
        job = _Job(network, fn, args, next(self._seq),
                   asyncio.get_running_loop().create_future())
        self.jobs[network] = job
        self._start_next()
        try:
            return await asyncio.shield(job.done)
        except asyncio.CancelledError:
            if not job.started:  # gone before its turn: its place is free
                self.jobs.pop(network, None)
                self._start_next()
            # a started one keeps its place until its thread is done; its answer is
            # read then, so that nobody is told of an exception never retrieved
            job.done.add_done_callback(lambda f: f.cancelled() or f.exception())
            raise

    def _push_out(self, mine: float) -> None:
        """Make room in a full line for the job of a network whose count (this try
        included) is ``mine``: push out the waiting job whose network asked most, if
        it asked more; else refuse this one."""
        waiting = self.waiting()
        victim = waiting[-1] if waiting else None
        if victim is None or self.count(victim.network) <= mine:
            self.refused += 1
            raise HashingBusy(self._retry_after())
        del self.jobs[victim.network]
        self.refused += 1
        victim.done.set_exception(HashingBusy(self._retry_after()))

    def _start_next(self) -> None:
        """Start waiting jobs, the network that asked least first, while a thread is
        free."""
        while self.running < self.workers:
            waiting = self.waiting()
            if not waiting:
                return
            job = waiting[0]
            job.started = True
            loop = asyncio.get_running_loop()
            began = self.clock.monotonic()
            future: Future[Any] = self.pool.submit(job.fn, *job.args)
            future.add_done_callback(functools.partial(self._done, loop, job, began))

    def _done(self, loop: asyncio.AbstractEventLoop, job: _Job, began: float,
              future: Future[Any]) -> None:
        """(In the job's thread) hand its end to the event loop (none when the loop
        has closed meanwhile: the app stopped)."""
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._finished, job, future, began)

    def _count(self, network: str) -> None:
        """One more try of ``network``; forget the least counted networks beyond
        ``max_networks``."""
        self.asked[network] = (self.count(network) + 1.0, self.clock.monotonic())
        if len(self.asked) > self.max_networks:
            keep = sorted(self.asked, key=self.count, reverse=True)[:self.max_networks // 2]
            self.asked = {n: self.asked[n] for n in keep}

    def _finished(self, job: _Job, future: Future[Any], began: float) -> None:
        """A thread is done with ``job``: answer its caller, start the next."""
        self.seconds = 0.8 * self.seconds + 0.2 * max(0.0, self.clock.monotonic() - began)
        if self.jobs.get(job.network) is job:
            del self.jobs[job.network]
        if not job.done.done():
            exc = future.exception()
            if exc is not None:
                job.done.set_exception(exc)
            else:
                job.done.set_result(future.result())
        self._start_next()

    def close(self) -> None:
        """Stop the threads (jobs running finish; none waits)."""
        self.pool.shutdown(wait=False, cancel_futures=True)
