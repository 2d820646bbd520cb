"""Bot moves off the event loop: the job, the backend interface, the local worker pool.

A bot's move is a :class:`BotJob`: the level spec (``hard``), the seat's view
(:class:`~polignac.bots.base.SeatView`: the seat's hand and the deal's whole
public history, which is everything a bot uses: bots keep no state between
moves) and the move's seed (:func:`~polignac.bots.runner.move_seed`, from the
table's bot seed, the deal number and the action's index).  The answer is
:func:`polignac.bots.runner.move_for` of those three, a pure function: the
same job gives the same action in any process, so a move whose worker died
is computed again, identically.

A table asks its :class:`BotBackend` (``await backend.choose(job)``).  The one
here, :class:`PoolBackend`, runs the jobs in a :class:`~.workers.WorkerPool` of
its own (sized to the machine by default, ``polignac serve --bot-workers``),
separate from the pool of replays and score pads so that a move never waits
behind a 10-second replay.  A move that runs past ``move_seconds`` is stopped
(its worker killed and replaced) and the next cheaper level of
:func:`fallback_chain` plays instead (``hard`` -> ``medium`` -> ``easy``), logged;
when the pool refuses (every slot taken) or its workers keep dying, ``easy``
plays in-process (about 0.03 ms: the one move computed on the event loop).

Bot moves on other machines (``polignac serve --bot-queue redis://...``) are the
same :class:`PoolBackend` over a :class:`~.botqueue.QueuePool` instead of a local
pool (:meth:`PoolBackend.queue`): the job goes as JSON to a Redis stream, and
``polignac bot-worker`` processes anywhere compute it; the fallback rules are
these (docs/server.md, "Bot moves"; docs/deploy.md).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Any, Protocol

from ...bots.base import SeatView
from ...bots.registry import LEVELS, parse_spec
from ...bots.runner import move_for
from ...core.actions import Action
from .botqueue import QueuePool
from .workers import JobTimeout, PoolBusy, WorkerFailed, WorkerPool

log = logging.getLogger("polignac.server")

CHEAPER: tuple[str, ...] = ("medium", "easy")
"""The levels a move falls back to, in order, when it runs out of time."""


@dataclass(frozen=True)
class BotJob:
    """One bot move to compute: ``move_for(spec, view, seed)``; ``table`` is for logs."""

    spec: str
    view: SeatView
    seed: str
    table: str = ""


class BotBackend(Protocol):
    """Where bot moves are computed (this machine's workers, or others')."""

    async def choose(self, job: BotJob) -> Action:
        """The job's action (a level of its fallback chain when time runs out)."""
        ...

    def stats(self) -> dict[str, Any]:
        """Counts for ``/health``."""
        ...

    async def stop(self) -> None:
        """Stop computing (a move in progress is abandoned)."""
        ...


def fallback_chain(spec: str) -> list[str]:
    """``spec``, then each level of :data:`CHEAPER` weaker than it (a level outside
    :data:`~polignac.bots.registry.LEVELS` falls back to both)."""
    level, _ = parse_spec(spec)
    rank = LEVELS.index(level) if level in LEVELS else len(LEVELS)
    return [spec] + [c for c in CHEAPER if LEVELS.index(c) < rank]


def machine_workers() -> int:
    """Worker processes for bot moves by default: one per CPU this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class PoolBackend:
    """Bot moves in a :class:`WorkerPool` of their own; see the module's docstring.

    ``retries``: how many times a move whose worker died is computed again before
    it falls back.
    """

    def __init__(self, pool: WorkerPool | QueuePool, move_seconds: float = 5.0,
                 retries: int = 2) -> None:
        self.pool = pool
        self.move_seconds = move_seconds
        self.retries = retries
        self.moves = 0
        self.fallbacks = 0
        self.recomputed = 0
        self.inline = 0

    @classmethod
    def local(cls, size: int | None = None, move_seconds: float = 5.0,
              max_waiting: int = 1000, memory_mb: int = 0) -> PoolBackend:
        """A backend with its own pool of ``size`` processes (None: one per CPU).

        ``max_waiting``: moves waiting or running at once (a table has at most one).
        """
        pool = WorkerPool(size or machine_workers(), move_seconds, max_waiting=max_waiting,
                          memory_mb=memory_mb, fair=False,
                          preload=("polignac.bots.runner", "polignac.bots.hard"))
        return cls(pool, move_seconds)

    @classmethod
    def queue(cls, url: str, move_seconds: float = 5.0, max_waiting: int = 1000,
              prefix: str = "polignac") -> PoolBackend:
        """A backend whose moves ``polignac bot-worker`` processes compute, from the
        Redis streams at ``url`` (:class:`~.botqueue.QueuePool`)."""
        return cls(QueuePool(url, prefix, max_waiting=max_waiting, time_limit=move_seconds),
                   move_seconds)

    def start(self) -> None:
        """Start the worker processes now, or check that the queue's Redis answers
        (slow: call it in a thread).

        Raises:
            TimeoutError: the processes did not start in 60 s.
            redis.RedisError: the queue's Redis is out of reach.
        """
        self.pool.start()

    async def choose(self, job: BotJob) -> Action:
        """The job's action, computed in a worker: its own level, or when that runs out
        of time the next of :func:`fallback_chain`; ``easy`` in-process when the pool
        refuses or its workers keep dying.

        Raises:
            UnknownBotError, IllegalActionError: as :func:`move_for` (a bad spec or
                view: not a matter of time).
        """
        self.moves += 1
        chain = fallback_chain(job.spec)
        for spec in chain:
            for attempt in range(self.retries + 1):
                try:
                    return await self.pool.run(move_for, spec, job.view, job.seed,
                                               time_limit=self.move_seconds)
                except WorkerFailed as exc:
                    self.recomputed += 1
                    log.warning("table %s: bot %s: %s; computing the move again (%d)",
                                job.table, spec, exc, attempt + 1)
                    continue
                except JobTimeout:
                    log.warning("table %s: bot %s took more than %g s; falling back",
                                job.table, spec, self.move_seconds)
                    break
                except PoolBusy as exc:
                    log.warning("table %s: bot %s: %s; easy plays this move in-process",
                                job.table, spec, exc)
                    return self._inline(job)
            self.fallbacks += 1
        return self._inline(job)

    def _inline(self, job: BotJob) -> Action:
        """``easy``'s move, computed here (microseconds): the last resort."""
        self.inline += 1
        return move_for("easy", job.view, job.seed)

    def stats(self) -> dict[str, Any]:
        """The pool's counts and the moves': total, fallbacks, recomputed, in-process."""
        return {**self.pool.stats(), "moves": self.moves, "fallbacks": self.fallbacks,
                "recomputed": self.recomputed, "inline": self.inline,
                "move_seconds": self.move_seconds}

    async def stop(self) -> None:
        """Stop the workers."""
        await self.pool.stop()


def backend_for(config: Any) -> PoolBackend:
    """The bot backend a :class:`~.config.ServerConfig` asks for: the queue of
    ``bot_queue`` when set (``polignac serve --bot-queue``), else a local pool of
    ``bot_workers`` processes."""
    max_waiting = config.max_tables + 64
    queue = getattr(config, "bot_queue", None)
    if queue:
        return PoolBackend.queue(queue, config.bot_move_seconds, max_waiting=max_waiting)
    return PoolBackend.local(config.bot_workers, config.bot_move_seconds,
                             max_waiting=max_waiting, memory_mb=config.worker_memory_mb)
