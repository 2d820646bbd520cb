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
from ..base.seating import KeyedRateLimit
from ..store.db import db_now, writing
from ..store.schema import rate_buckets_t

log = logging.getLogger("polignac.server")

PREFIX = "polignac:rate:"
"""The prefix of the buckets' Redis keys (``PREFIX NAME : SHA-256 of the key``)."""

GCRA = """
if redis.replicate_commands then pcall(redis.replicate_commands) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local limit = interval * tonumber(ARGV[2])
local next = {}
for i, key in ipairs(KEYS) do
  local tat = tonumber(redis.call('GET', key)) or now
  if tat < now then tat = now end
  if tat + interval - now > limit then return 0 end
  next[i] = tat + interval
end
for i, key in ipairs(KEYS) do
  redis.call('SET', key, next[i], 'PX', math.max(1, next[i] - now))
end
return 1
"""
"""GCRA over KEYS (ARGV: the interval between two tokens in ms, the burst): 1 when a
token was taken from every key's bucket, 0 (nothing taken) when one is empty."""




def take_rows(conn: Connection, keys: list[str], interval: float, burst: int) -> bool:
    """GCRA over the rows of ``keys`` (in ``conn``'s transaction): True when a token
    was taken from every bucket, False (nothing changed) when one is empty."""
    now = db_now(conn)
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as upsert
    else:
        from sqlalchemy.dialects.sqlite import insert as upsert  # type: ignore[assignment]
    keys = sorted(set(keys))  # one order: no deadlock between two processes
    conn.execute(upsert(rate_buckets_t).values([{"key": k, "tat": now} for k in keys])
                 .on_conflict_do_nothing(index_elements=["key"]))
    query = select(rate_buckets_t.c.key, rate_buckets_t.c.tat).where(
        rate_buckets_t.c.key.in_(keys))
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    tats = {r.key: max(float(r.tat), now) + interval for r in conn.execute(query)}
    if any(tat - now > interval * burst for tat in tats.values()):
        return False
    for key, tat in tats.items():
        conn.execute(sql_update(rate_buckets_t).where(rate_buckets_t.c.key == key)
                     .values(tat=tat))
    if random.random() < 0.01:  # now and then: forget the full buckets
        conn.execute(delete(rate_buckets_t).where(rate_buckets_t.c.tat < now))
    return True


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
        if not keys or (self.shared.url is None and self.shared.engine is None):
            return self.local.allow(*keys, now=self.shared.clock.monotonic())
        if self.shared.url is None:
            return await self._allow_in_database(keys)
        try:
            script = self.shared._redis()
            got = await script(keys=[self.key(k) for k in keys],
                               args=[self.interval_ms, self.burst])
        except Exception as exc:  # redis.RedisError, OSError: count here meanwhile
            self.shared.failed(exc)
            return self.local.allow(*keys, now=self.shared.clock.monotonic())
        return int(got) == 1

    async def _allow_in_database(self, keys: tuple[str, ...]) -> bool:
        engine = self.shared.engine() if self.shared.engine is not None else None
        if engine is None:  # the database is not open yet (or no longer)
            return self.local.allow(*keys, now=self.shared.clock.monotonic())
        names = [self.key(k) for k in keys]
        interval = self.interval_ms / 1000.0

        def run() -> bool:
            with writing(engine) as conn:
                return take_rows(conn, names, interval, self.burst)
        try:
            return await asyncio.to_thread(run)
        except Exception as exc:  # SQLAlchemyError: count here meanwhile
            self.shared.failed(exc)
            return self.local.allow(*keys, now=self.shared.clock.monotonic())

    def retry_after(self) -> int:
        """Seconds until one more token (a whole number, at least 1)."""
        return self.local.retry_after()
