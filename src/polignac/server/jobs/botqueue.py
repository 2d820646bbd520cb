"""Bot moves on workers anywhere: a Redis-streams queue (``polignac serve --bot-queue``).

The server side is :class:`QueuePool`, a drop-in for :class:`~.workers.WorkerPool`
under :class:`~.botmoves.PoolBackend` (``await pool.run(move_for, spec, view, seed,
time_limit=...)``), so the fallback rules of bot moves are the local pool's, by
construction.  The worker side is ``botworker.py:BotWorker`` (``polignac bot-worker --redis
URL``), which computes the same :func:`~polignac.bots.runner.move_for` in a local
:class:`~.workers.WorkerPool` of its own.

The path of one move::

    server  XADD  {prefix}:jobs            {req, job: "move", args: JSON, limit, reply}
    worker  XREADGROUP {prefix}:workers    (a consumer group: each entry to one worker)
    worker  move_for(spec, view, seed) in its pool, at most the time left
    worker  XADD  {prefix}:replies:{server} {req, status, result | type+message, worker}
            XACK + XDEL the job (the stream keeps only jobs waiting or being computed)
    server  XREAD its reply stream (one reader task) -> the waiting move's future

- **JSON, not pickles**: the job is the spec, the seat's view
  (:mod:`polignac.bots.wire`: that seat's hand and the public history, nothing
  another seat holds) and the seed; a worker runs only the jobs of
  :data:`~.jobs.JOBS` (``jobs.py``: every worker job, with its JSON codecs).
- **A worker that dies** (``kill -9``) leaves its jobs in the group's pending list;
  live workers renew theirs every ``claim_seconds / 4`` (``XCLAIM ... JUSTID``), and
  any worker takes over an entry idle for ``claim_seconds`` (``XAUTOCLAIM``) and
  computes it again: the same move, since ``move_for`` is a pure function.
- **Time**: the server waits ``time_limit`` from the moment it adds the job (waiting
  in the stream counts, unlike the local pool's limit, which counts running only:
  another machine's queue cannot be told apart from its work).  A worker computes
  with the time left (by Redis's clock: an entry's id is its time of arrival) and
  drops a job already past it.  When the time is up the server looks at the group:
  a job a worker took is a :class:`~.workers.JobTimeout` (the next cheaper level
  plays, through the queue again); a job nobody took is removed from the stream
  and a :class:`~.workers.PoolBusy` (``easy`` plays in-process at once, as when the
  local pool refuses): no worker, or every worker busy.  Redis out of reach is a
  ``PoolBusy`` too.  A reply for a job the server gave up on is counted
  (``late``) and dropped.
- **Bounds**: the job stream is capped at ``stream_len`` entries (``XADD MAXLEN``;
  a job trimmed away is one nobody took), each reply stream at
  :data:`REPLY_LEN` and expires :data:`REPLY_TTL` seconds after its last reply (a
  server that went away leaves nothing behind for long), at most ``max_waiting``
  jobs wait at once per server, a job's arguments at most :data:`MAX_ARGS` bytes.

Hints and analyses take the same path on a stream of their own, ``{prefix}:heavy``
(:func:`heavy_pool_for`, ``hub.heavy``; jobs ``hint``, ``analysis-plan``,
``deal-analysis``), computed by each worker's ``--heavy-jobs`` processes apart
from its moves, so that a minute of analysis never delays a move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ...bots.registry import UnknownBotError
from ...bots.wire import WireError
from ...core.errors import IllegalActionError, PolignacError, RulesError
from .jobs import BY_FUNCTION
from .workers import JobTimeout, PoolBusy, WorkerFailed, WorkerPool

log = logging.getLogger("polignac.server")

REPLY_LEN = 1000
"""Entries a server's reply stream keeps at most (it reads them as they come)."""
REPLY_TTL = 600
"""Seconds a reply stream lives after its last reply."""
MAX_ARGS = 4 * 1024 * 1024
"""Bytes of one job's JSON arguments at most (a move's view is about 1 KB, a record
to analyse at most 1 MiB)."""


MAX_JOB_SECONDS = 3600.0
"""The longest time limit a job may carry (``limit``); a job with more is malformed."""


def _job_fields(fields: dict[bytes, bytes]) -> tuple[str, str, float]:
    """A job's ``reply`` stream, ``req`` id and ``limit`` (seconds, finite, from 0 to
    :data:`MAX_JOB_SECONDS`).

    Raises:
        ValueError: one of them does not parse (UnicodeDecodeError included); the
            message names it.
    """
    try:
        reply_to = fields.get(b"reply", b"").decode()
        request = fields.get(b"req", b"").decode()
        text = fields.get(b"limit", b"0").decode("ascii")
    except UnicodeDecodeError:
        raise ValueError("its reply, req or limit is not text") from None
    try:
        limit = float(text[:40])
    except ValueError:
        raise ValueError(f"its limit {text[:40]!r} is not a number") from None
    if not 0 <= limit <= MAX_JOB_SECONDS:  # NaN fails too
        raise ValueError(f"its limit {text[:40]!r} is not from 0 to {MAX_JOB_SECONDS:g} s")
    return reply_to, request, limit


_ERRORS: dict[str, type[Exception]] = {
    cls.__name__: cls for cls in (UnknownBotError, RulesError, WireError, PolignacError,
                                  ValueError, MemoryError)}
"""Exceptions a worker's answer may name, raised again on the server (others:
``RuntimeError``); :class:`IllegalActionError` is rebuilt with its ``rule``."""


def redacted(url: str) -> str:
    """``url`` without its password (for logs and ``/health``)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def _names(prefix: str, kind: str = "jobs") -> tuple[str, str]:
    """The job stream of ``kind`` (``jobs``: bot moves, ``heavy``: hints and analyses)
    and the consumer group of ``prefix``."""
    return f"{prefix}:{kind}", f"{prefix}:workers"


def _ensure_group_sync(client: Any, stream: str, group: str) -> None:
    import redis

    try:
        client.xgroup_create(stream, group, id="0", mkstream=True)
    except redis.ResponseError as exc:
        if "BUSYGROUP" not in str(exc):
            raise


async def _ensure_group(client: Any, stream: str, group: str) -> None:
    import redis

    try:
        await client.xgroup_create(stream, group, id="0", mkstream=True)
    except redis.ResponseError as exc:
        if "BUSYGROUP" not in str(exc):
            raise


def _error_of(reply: dict[str, Any]) -> Exception:
    """The exception a worker's ``error`` answer names."""
    kind, message = str(reply.get("type", "")), str(reply.get("message", ""))[:2000]
    if kind in ("IllegalActionError", "NotYourTurnError", "GameOverError"):
        return IllegalActionError(message, rule=str(reply.get("rule") or "illegal-action"))
    return _ERRORS.get(kind, RuntimeError)(message)


class QueuePool:
    """The server's end of the queue: ``run(fn, *args, time_limit)`` as
    :meth:`WorkerPool.run <polignac.server.jobs.workers.WorkerPool.run>`, computed by
    ``polignac bot-worker`` processes anywhere.  See the module's docstring.

    ``prefix`` names the streams (servers and workers of one site share it);
    ``max_waiting`` jobs of this server wait at once at most; ``stream_len`` caps
    the job stream (every server's jobs together).
    """

    def __init__(self, url: str, prefix: str = "polignac", max_waiting: int = 1000,
                 stream_len: int = 10_000, time_limit: float = 5.0, kind: str = "jobs",
                 client_waiting: int | None = None) -> None:
        self.url = url
        self.prefix = prefix
        self.stream, self.group = _names(prefix, kind)
        self.server = f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.replies = f"{prefix}:replies:{self.server}"
        self.max_waiting = max_waiting
        self.stream_len = stream_len
        self.time_limit = time_limit
        self.size = max_waiting  # for code that sizes itself on a pool's size
        self.client_waiting = client_waiting
        """Jobs of one client waiting at once at most (None: no cap): its fair share."""
        self._by_client: dict[str, int] = {}
        self._client: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._stopping = False
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.pending = self.done = self.timeouts = self.refused = self.failed = 0
        self.unclaimed = self.late = 0
        self.by_worker: dict[str, int] = {}

    def start(self) -> None:
        """Check that Redis answers and create the stream and its group (slow: call it
        in a thread).

        Raises:
            redis.RedisError: Redis is out of reach or refuses.
        """
        import redis

        client = redis.Redis.from_url(self.url, socket_timeout=10, socket_connect_timeout=10)
        try:
            client.ping()
            _ensure_group_sync(client, self.stream, self.group)
        finally:
            client.close()
        log.info("bot queue %s: jobs in %s, replies in %s", redacted(self.url), self.stream,
                 self.replies)

    async def _connect(self) -> Any:
        """The client, and the reader task of this server's replies (started once)."""
        if self._client is None:
            import redis.asyncio

            self._client = redis.asyncio.Redis.from_url(self.url, socket_connect_timeout=10)
        if self._reader is None or self._reader.done():
            self._reader = asyncio.create_task(self._read_replies())
        return self._client

    async def run(self, fn: Callable[..., Any], *args: Any, time_limit: float | None = None,
                  client: str = "", heavy: bool = False) -> Any:
        """``fn(*args)`` computed by a worker; ``fn`` one of :data:`~.jobs.JOBS`; ``client``
        as :meth:`WorkerPool.run <polignac.server.jobs.workers.WorkerPool.run>` (``heavy``:
        the stream decides).

        Raises:
            PoolBusy: ``max_waiting`` jobs already wait (or ``client_waiting`` of this
                client's), Redis is out of reach, or no worker took the job within
                the time limit.
            JobTimeout: a worker took it and gave no answer within the time limit.
            WorkerFailed: the worker's process died while computing it.
            TypeError: ``fn`` is not a job of :data:`~.jobs.JOBS`.
            ValueError: the arguments are over :data:`MAX_ARGS` bytes as JSON.
            Exception: what the job raised (as the worker named it, see ``_ERRORS``).
        """
        import redis

        job = BY_FUNCTION.get(fn)
        if job is None:
            raise TypeError(f"{getattr(fn, '__name__', fn)!r} is not a job of the bot queue")
        if self.pending >= self.max_waiting:
            self.refused += 1
            raise PoolBusy(f"{self.pending} jobs are waiting for a bot worker, the most")
        mine = self._by_client.get(client, 0)
        if self.client_waiting is not None and mine >= self.client_waiting:
            self.refused += 1
            raise PoolBusy(f"{mine} of your jobs are waiting for a worker, the most")
        limit = self.time_limit if time_limit is None else time_limit
        payload = json.dumps(job.encode(*args), separators=(",", ":"))
        if len(payload) > MAX_ARGS:
            raise ValueError(f"the job's arguments take {len(payload)} bytes, over {MAX_ARGS}")
        request = uuid.uuid4().hex
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending += 1
        self._by_client[client] = mine + 1
        self._waiting[request] = future
        try:
            try:
                redis_client = await self._connect()
                entry = await redis_client.xadd(
                    self.stream, {"req": request, "job": job.name, "args": payload,
                                  "limit": f"{limit:.3f}", "reply": self.replies},
                    maxlen=self.stream_len, approximate=False)
            except (redis.RedisError, OSError) as exc:
                self.refused += 1
                raise PoolBusy(f"the bot queue is out of reach ({exc})") from None
            try:
                reply = await asyncio.wait_for(future, limit)
            except TimeoutError:
                if await self._taken(entry):
                    self.timeouts += 1
                    raise JobTimeout(f"the job took more than {limit:g} s") from None
                self.unclaimed += 1
                raise PoolBusy(f"no bot worker took the job in {limit:g} s") from None
        finally:
            self.pending -= 1
            if self._by_client[client] > 1:
                self._by_client[client] -= 1
            else:
                del self._by_client[client]
            self._waiting.pop(request, None)
        status = reply.get("status")
        if status == "ok":
            self.done += 1
            return job.result_in(reply.get("result"))
        if status == "timeout":
            self.timeouts += 1
            raise JobTimeout(f"the job took more than {limit:g} s (worker "
                             f"{reply.get('worker')})")
        if status == "failed":
            self.failed += 1
            raise WorkerFailed(f"the worker process died ({reply.get('worker')}: "
                               f"{reply.get('message')})")
        raise _error_of(reply)

    async def _taken(self, entry: Any) -> bool:
        """Whether a worker took the job ``entry`` (in the group's pending list); if not,
        remove it from the stream so that none takes it later."""
        import redis

        try:
            held = await self._client.xpending_range(self.stream, self.group, min=entry,
                                                     max=entry, count=1)
            if held:
                return True
            await self._client.xdel(self.stream, entry)
        except (redis.RedisError, OSError) as exc:
            log.warning("bot queue: %s", exc)
        return False

    async def _read_replies(self) -> None:
        """Hand each reply to the move waiting for it (a late one is counted, dropped)."""
        import redis

        last = "0"
        while not self._stopping:
            try:
                batches = await self._client.xread({self.replies: last}, count=100,
                                                   block=1000)
            except asyncio.CancelledError:
                raise
            except (redis.RedisError, OSError) as exc:
                log.warning("bot queue: reading replies: %s; again in 1 s", exc)
                await asyncio.sleep(1.0)
                continue
            for _stream, entries in batches or ():
                for entry, fields in entries:
                    last = entry
                    self._deliver(fields)

    def _deliver(self, fields: dict[bytes, bytes]) -> None:
        try:
            reply = json.loads(fields[b"reply"])
            request = fields[b"req"].decode()
        except (KeyError, ValueError, UnicodeDecodeError):
            log.warning("bot queue: a reply that is not one, dropped")
            return
        if not isinstance(reply, dict):
            return
        future = self._waiting.get(request)
        if future is None or future.done():
            self.late += 1
            return
        worker = str(reply.get("worker", "?"))[:100]
        if worker in self.by_worker or len(self.by_worker) < 64:
            self.by_worker[worker] = self.by_worker.get(worker, 0) + 1
        future.set_result(reply)

    def stats(self) -> dict[str, Any]:
        """Counts for ``/health``: jobs waiting now, answered, timed out, refused
        (``max_waiting``, Redis out of reach), failed, taken by no worker in time
        (``unclaimed``), answered too late (``late``), answers by worker."""
        return {"queue": redacted(self.url), "stream": self.stream,
                "size": self.max_waiting, "started": self._client is not None,
                "pending": self.pending, "done": self.done, "timeouts": self.timeouts,
                "refused": self.refused, "failed": self.failed, "unclaimed": self.unclaimed,
                "late": self.late, "by_worker": dict(self.by_worker),
                "time_limit_s": self.time_limit}

    async def stop(self) -> None:
        """Stop reading replies and close the connection (waiting jobs are abandoned)."""
        self._stopping = True  # redis-py may turn a cancelled read into an error
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._reader, 5.0)
            self._reader = None
        if self._client is not None:
            client, self._client = self._client, None
            with contextlib.suppress(Exception):
                await client.aclose()


def heavy_pool_for(config: Any, local: WorkerPool) -> WorkerPool | QueuePool:
    """Where hints and analyses run: the queue's ``heavy`` stream when the config has
    ``bot_queue`` (workers with ``--heavy-jobs``), else ``local`` (the app's pool)."""
    if not getattr(config, "bot_queue", None):
        return local
    return QueuePool(config.bot_queue, kind="heavy", max_waiting=HEAVY_WAITING,
                     time_limit=config.job_seconds, client_waiting=HEAVY_PER_CLIENT)


HEAVY_WAITING = 16
"""Hints and analyses of one server waiting in the queue at once."""
HEAVY_PER_CLIENT = 4
"""Hints and analyses of one client waiting in the queue at once (its fair share)."""
