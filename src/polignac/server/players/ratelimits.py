"""Rate limits that every server process shares: sign-in (per account name and per
client) and Find players' requests (per address and per browser).

With one process (``memory://`` bus) each limit is a token bucket per key in this
process's memory (``seating.py:KeyedRateLimit``).  With a Redis bus the buckets live
in that Redis, so that N processes allow what one would, not N times as much.  Each
bucket there is one key holding its *theoretical arrival time* (GCRA, the generic
cell rate algorithm, as in redis-cell or throttled): a burst of ``burst``, then one
more every ``60 / per_minute`` seconds, exactly the in-memory bucket's behaviour.  One
Lua script checks every key of a call and takes from all or none, atomically, on
Redis's own clock (``TIME``), and each key expires once its bucket is full again.

With another bus (PostgreSQL's LISTEN/NOTIFY) the same buckets are rows of the
shared database (table ``rate_buckets``, migration ``0012``): one transaction per
try, on the database's clock, the rows locked (``SELECT ... FOR UPDATE`` on
PostgreSQL; SQLite has one writer), all keys or none; rows of full buckets are
deleted now and then.

Should Redis or the database not answer, a call falls back to this process's own
bucket (logged once a minute at most): a limit is never lifted by an outage.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Engine, delete, select
from sqlalchemy import update as sql_update

from ..base.clock import SYSTEM, Clock
from ..base.seating import KeyedRateLimit, take_many
from ..store.db import db_now, writing
from ..store.schema import rate_buckets_t

log = logging.getLogger("polignac.server")

PREFIX = "polignac:rate:"
"""The prefix of the buckets' Redis keys (``PREFIX NAME : SHA-256 of the key``)."""

GCRA = """
if redis.replicate_commands then pcall(redis.replicate_commands) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local refused = {}
local next = {}
for i, key in ipairs(KEYS) do
  local interval = tonumber(ARGV[2 * i - 1])
  local tat = tonumber(redis.call('GET', key)) or now
  if tat < now then tat = now end
  if tat + interval - now > interval * tonumber(ARGV[2 * i]) then
    refused[#refused + 1] = i
  end
  next[i] = tat + interval
end
if #refused > 0 then return refused end
for i, key in ipairs(KEYS) do
  redis.call('SET', key, next[i], 'PX', math.max(1, next[i] - now))
end
return refused
"""
"""GCRA over KEYS (ARGV: for each key, the interval between two tokens in ms and the
burst): an empty list when a token was taken from every key's bucket, else the
(1-based) indexes of the empty ones, and nothing was taken."""


def take_rows(conn: Connection, buckets: list[tuple[str, float, int]]) -> list[int]:
    """GCRA over the rows of ``buckets`` (each a key, the seconds between two tokens and
    the burst), in ``conn``'s transaction: an empty list when a token was taken from
    every bucket, else the indexes of the empty ones (nothing changed)."""
    now = db_now(conn)
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as upsert
    else:
        from sqlalchemy.dialects.sqlite import insert as upsert  # type: ignore[assignment]
    keys = sorted({key for key, _, _ in buckets})  # one order: no deadlock between two
    conn.execute(upsert(rate_buckets_t).values([{"key": k, "tat": now} for k in keys])
                 .on_conflict_do_nothing(index_elements=["key"]))  # processes
    query = select(rate_buckets_t.c.key, rate_buckets_t.c.tat).where(
        rate_buckets_t.c.key.in_(keys))
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    tats = {r.key: max(float(r.tat), now) for r in conn.execute(query)}
    refused = [i for i, (key, interval, burst) in enumerate(buckets)
               if tats[key] + interval - now > interval * burst]
    if refused:
        return refused
    for key, interval, _burst in buckets:
        conn.execute(sql_update(rate_buckets_t).where(rate_buckets_t.c.key == key)
                     .values(tat=tats[key] + interval))
    if random.random() < 0.01:  # now and then: forget the full buckets
        conn.execute(delete(rate_buckets_t).where(rate_buckets_t.c.tat < now))
    return []


class SharedLimits:
    """The app's rate limits' common part: the Redis client when the bus is Redis
    (``bus_url``), the shared database (``engine``) with another bus that leaves the
    process (``clustered``), else nothing (every limit is this process's)."""

    def __init__(self, bus_url: str, clustered: bool = False,
                 engine: Callable[[], Engine | None] | None = None,
                 clock: Clock = SYSTEM) -> None:
        self.url = bus_url if bus_url.startswith(("redis://", "rediss://")) else None
        self.engine = engine if clustered and self.url is None else None
        """The shared database's engine (asked for when needed), or None."""
        self._client: Any = None
        self._script: Any = None
        self._warned = 0.0
        self.clock = clock
        """The in-memory buckets' clock (the server's, ``ServerConfig.clock``: a test
        may hold the time); Redis and the database keep their own."""

    def limit(self, name: str, per_minute: float, burst: int) -> SharedLimit:
        """A limit named ``name`` (its keys' prefix in Redis): ``burst`` at once, then
        ``per_minute`` a minute, per key."""
        return SharedLimit(self, name, per_minute, burst)

    def _redis(self) -> Any:
        if self._client is None:
            import redis.asyncio

            assert self.url is not None
            self._client = redis.asyncio.Redis.from_url(
                self.url, socket_connect_timeout=2, socket_timeout=2)
            self._script = self._client.register_script(GCRA)
        return self._script

    async def take(self, checks: list[tuple[SharedLimit, str]]) -> list[SharedLimit]:
        """Take one token from each ``(limit, key)``'s bucket, the limits' rates as they
        are, all or none, atomically (one Lua script, one transaction, or this
        process's buckets): an empty list when every bucket gave one, else the limits
        whose bucket was empty (nothing was taken).  Never raises: Redis or the
        database out of reach, this process's buckets answer."""
        if not checks:
            return []
        engine = self.engine() if self.engine is not None else None
        try:
            if self.url is not None:
                script = self._redis()
                got = await script(keys=[limit.key(k) for limit, k in checks],
                                   args=[n for limit, _ in checks
                                         for n in (limit.interval_ms, limit.burst)])
                refused = [int(i) - 1 for i in got]
            elif engine is not None:
                buckets = [(limit.key(k), limit.interval_ms / 1000.0, limit.burst)
                           for limit, k in checks]

                def run() -> list[int]:
                    with writing(engine) as conn:
                        return take_rows(conn, buckets)
                refused = await asyncio.to_thread(run)
            else:
                refused = self._take_here(checks)
        except Exception as exc:  # redis.RedisError, OSError, SQLAlchemyError
            self.failed(exc)
            refused = self._take_here(checks)
        return list(dict.fromkeys(checks[i][0] for i in refused))

    def _take_here(self, checks: list[tuple[SharedLimit, str]]) -> list[int]:
        return take_many([(limit.local, k) for limit, k in checks], self.clock.monotonic())

    def failed(self, exc: BaseException) -> None:
        """Redis or the database did not answer: log it (once a minute at most)."""
        now = time.monotonic()
        if now - self._warned >= 60.0:
            self._warned = now
            log.warning("rate limits: the shared counts cannot be reached (%s); this "
                        "process counts alone meanwhile", exc)

    async def close(self) -> None:
        """Close the Redis client (when one was opened)."""
        if self._client is not None:
            client, self._client = self._client, None
            try:
                await client.aclose()
            except Exception as exc:  # closing: nothing more to do
                log.info("rate limits: closing the Redis client failed (%s)", exc)


class SharedLimit:
    """One limit: token buckets per key, in Redis when ``shared`` has a Redis bus
    (shared by every process), else in this process (see the module)."""

    def __init__(self, shared: SharedLimits, name: str, per_minute: float,
                 burst: int) -> None:
        self.shared = shared
        self.name = name
        self.local = KeyedRateLimit(per_minute, burst)
        """This process's buckets: the limit with one process, or while Redis is out."""
        self.interval_ms = max(1, round(60_000 / per_minute)) if per_minute > 0 else 10**12
        self.burst = burst

    def key(self, key: str) -> str:
        """The Redis key of ``key``'s bucket (fixed length, whatever a client sent)."""
        return f"{PREFIX}{self.name}:{hashlib.sha256(key.encode()).hexdigest()[:32]}"

    async def allow(self, *keys: str) -> bool:
        """Take one token from every key's bucket; False (nothing taken) when one is
        empty.  Never raises: Redis out of reach, this process's buckets answer."""
        return not await self.shared.take([(self, k) for k in keys])

    def retry_after(self) -> int:
        """Seconds until one more token (a whole number, at least 1)."""
        return self.local.retry_after()
