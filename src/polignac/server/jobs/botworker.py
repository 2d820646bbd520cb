"""A bot worker (``polignac bot-worker``): takes the bot queue's jobs from Redis and
computes them in a local worker pool; the queue and its protocol are ``botqueue.py``'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
from typing import Any

from .botqueue import (
    REPLY_LEN,
    REPLY_TTL,
    _ensure_group,
    _job_fields,
    _names,
    redacted,
)
from .jobs import queue_job
from .workers import JobTimeout, PoolBusy, WorkerFailed, WorkerPool

log = logging.getLogger("polignac.server")


class BotWorker:
    """A worker: takes jobs from the queue at ``url`` and computes them in a local
    :class:`WorkerPool` of ``jobs`` processes; see the module's docstring.

    ``name`` must be unique among the workers of a queue (default: host and pid);
    ``claim_seconds``: how long a job taken by a worker that stopped renewing it (a
    dead worker) waits before another takes it over.
    """

    def __init__(self, url: str, jobs: int = 1, name: str | None = None,
                 prefix: str = "polignac", claim_seconds: float = 3.0,
                 memory_mb: int = 1024, kind: str = "jobs") -> None:
        if jobs < 1:
            raise ValueError(f"a bot worker needs at least 1 job slot, not {jobs}")
        self.url = url
        self.jobs = jobs
        self.name = name or f"{socket.gethostname()}-{os.getpid()}"
        self.prefix = prefix
        self.stream, self.group = _names(prefix, kind)
        self.claim_seconds = claim_seconds
        self.pool = WorkerPool(jobs, 600.0, max_waiting=jobs, memory_mb=memory_mb, fair=False,
                               preload=("polignac.bots.runner", "polignac.bots.hard",
                                        "polignac.server.jobs.botworker"))
        self.inflight: dict[bytes, asyncio.Task[None]] = {}
        self.done = self.expired = self.reclaimed = self.errors = self.malformed = 0
        self._free = asyncio.Event()
        self._client: Any = None

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Take and compute jobs until ``stop`` is set (or the task is cancelled); the
        jobs in flight then are left to other workers (taken over after
        ``claim_seconds``).

        Raises:
            redis.RedisError: Redis is out of reach when the worker starts.
            TimeoutError: the local processes did not start in 60 s.
        """
        import redis
        import redis.asyncio

        stop = stop or asyncio.Event()
        self._client = client = redis.asyncio.Redis.from_url(self.url,
                                                             socket_connect_timeout=10)
        try:
            await _ensure_group(client, self.stream, self.group)
        except BaseException:
            await client.aclose()
            raise
        heartbeat = asyncio.create_task(self._renew())
        try:
            await asyncio.to_thread(self.pool.start)
            # listed at once (XINFO CONSUMERS), not at its first job: ready to compute
            await client.xgroup_createconsumer(self.stream, self.group, self.name)
            log.info("bot worker %s: %d job slots, stream %s of %s", self.name, self.jobs,
                     self.stream, redacted(self.url))
            while not stop.is_set():
                free = self.jobs - len(self.inflight)
                if free <= 0:
                    self._free.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._free.wait(), 1.0)
                    continue
                try:
                    entries = await self._take(client, free)
                except (redis.RedisError, OSError) as exc:
                    log.warning("bot worker %s: %s; again in 1 s", self.name, exc)
                    await asyncio.sleep(1.0)
                    continue
                for entry, fields in entries:
                    if entry not in self.inflight and fields:
                        self.inflight[entry] = asyncio.create_task(self._handle(entry, fields))
        finally:
            heartbeat.cancel()
            for task in list(self.inflight.values()):
                task.cancel()
            await self.pool.stop()
            with contextlib.suppress(Exception):
                await client.aclose()

    async def _take(self, client: Any, free: int) -> list[tuple[bytes, dict[bytes, bytes]]]:
        """Up to ``free`` jobs: first those a dead worker left (idle over
        ``claim_seconds``), else new ones (waiting up to 1 s for one)."""
        claimed = await client.xautoclaim(self.stream, self.group, self.name,
                                          min_idle_time=int(self.claim_seconds * 1000),
                                          start_id="0-0", count=free)
        entries = [e for e in claimed[1] if e and e[1]]
        if entries:
            self.reclaimed += len(entries)
            log.warning("bot worker %s: took over %d job(s) of a worker that stopped",
                        self.name, len(entries))
            return entries
        batches = await client.xreadgroup(self.group, self.name, {self.stream: ">"},
                                          count=free, block=1000)
        return [e for _s, items in batches or () for e in items]

    async def _renew(self) -> None:
        """Reset the idle time of the jobs in flight, so that no one takes them over."""
        import redis

        while True:
            await asyncio.sleep(self.claim_seconds / 4)
            ids = list(self.inflight)
            if not ids or self._client is None:
                continue
            try:
                await self._client.xclaim(self.stream, self.group, self.name, 0, ids,
                                          justid=True)
            except (redis.RedisError, OSError) as exc:
                log.warning("bot worker %s: renewing: %s", self.name, exc)

    async def _handle(self, entry: bytes, fields: dict[bytes, bytes]) -> None:
        """Compute one job within the time it has left and answer it; drop it when
        its time is already up (the server gave up on it)."""
        import redis

        client = self._client
        acknowledge = True
        try:
            problem = None  # fields that do not parse: acknowledged and dropped, once
            try:
                reply_to, request, limit = _job_fields(fields)
            except ValueError as exc:
                problem, reply_to, request, limit = str(exc), "", "", 0.0
            seconds, micros = await client.time()
            age = seconds + micros / 1e6 - int(entry.split(b"-")[0]) / 1000
            left = limit - age
            if problem is not None:
                self.malformed += 1
                log.warning("bot worker %s: job %s dropped: %s", self.name, entry, problem)
            elif not reply_to.startswith(f"{self.prefix}:replies:") or len(reply_to) > 200:
                log.warning("bot worker %s: job %s without a reply stream, dropped",
                            self.name, entry)
            elif left <= 0.01:
                self.expired += 1
            else:
                reply = await self._compute(fields, left)
                reply["worker"] = self.name
                body = json.dumps(reply, separators=(",", ":"))
                async with client.pipeline(transaction=False) as pipe:
                    pipe.xadd(reply_to, {"req": request, "reply": body}, maxlen=REPLY_LEN,
                              approximate=True)
                    pipe.expire(reply_to, REPLY_TTL)
                    await pipe.execute()
        except (redis.RedisError, OSError, ValueError, UnicodeDecodeError) as exc:
            self.errors += 1
            acknowledge = False  # another worker takes it over
            log.warning("bot worker %s: job %s: %s", self.name, entry, exc)
        finally:
            self.inflight.pop(entry, None)
            self._free.set()
        if acknowledge:
            with contextlib.suppress(redis.RedisError, OSError):
                async with client.pipeline(transaction=False) as pipe:
                    pipe.xack(self.stream, self.group, entry)
                    pipe.xdel(self.stream, entry)
                    await pipe.execute()

    async def _compute(self, fields: dict[bytes, bytes], left: float) -> dict[str, Any]:
        """The reply to one job (:func:`queue_job` in the pool), or ``timeout``,
        ``failed``."""
        try:
            reply: dict[str, Any] = await self.pool.run(
                queue_job, fields.get(b"job", b"").decode(errors="replace")[:100],
                fields.get(b"args", b"null").decode(errors="replace"), time_limit=left)
        except JobTimeout:
            return {"status": "timeout"}
        except (WorkerFailed, PoolBusy, MemoryError) as exc:
            return {"status": "failed", "message": str(exc)}
        if reply.get("status") == "ok":
            self.done += 1
        return reply

    def stats(self) -> dict[str, Any]:
        """Counts: jobs in flight, answered, dropped as expired, taken over, errors,
        dropped as malformed."""
        return {"name": self.name, "jobs": self.jobs, "inflight": len(self.inflight),
                "done": self.done, "expired": self.expired, "reclaimed": self.reclaimed,
                "errors": self.errors, "malformed": self.malformed}
