"""A publish/subscribe bus between server processes, chosen by URL.

``memory://`` (one process), ``redis://HOST[:PORT][/DB]`` (Redis pub/sub) or
``postgresql://...`` (PostgreSQL LISTEN/NOTIFY; a SQLAlchemy URL such as
``postgresql+psycopg://`` is accepted and mapped to what asyncpg takes).  The
transport is encode/broadcaster's (``Broadcast(url)``).  A NOTIFY payload is
limited to 8000 bytes, so on PostgreSQL a longer message is sent in chunks and
put together again on the receiving side.

Messages are text.  Delivery is at most once, in the order a publisher's awaited
publishes were made; a process that is not subscribed when a message is sent
never sees it.

Every message is signed with the site's shared secret (HMAC-SHA256 over the
channel, the time and the text: ``MAC:MILLISECONDS:TEXT``), and a message whose
signature does not match, or that is older than :data:`MAX_AGE` seconds (a
replay), is refused before any handler sees it: whoever reaches Redis (or
PostgreSQL's NOTIFY) without the secret cannot act for anyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import itertools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

log = logging.getLogger("polignac.server")

NOTIFY_LIMIT = 7900
"""Bytes of one PostgreSQL NOTIFY payload at most (the server's limit is 8000)."""
_CHUNK = "~"  # a chunk: ~ID:INDEX:COUNT:TEXT (a message that starts with ~ is always chunked)
MAX_AGE = 60.0
"""Seconds a signed message stays acceptable (machines' clocks must agree that well)."""
MIN_SECRET = 16
"""Characters of a bus secret at least."""


class BusError(ValueError):
    """The bus URL names no bus this server knows."""


def backend_url(url: str) -> str:
    """The URL broadcaster takes for ``url``: ``postgresql+DRIVER://`` and
    ``postgres://`` become ``postgresql://``; ``memory://`` and ``redis(s)://`` stay.

    Raises:
        BusError: another scheme.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in ("memory", "redis", "rediss"):
        return url
    if scheme == "postgres" or scheme == "postgresql" or scheme.startswith("postgresql+"):
        return urlunsplit(("postgresql",) + tuple(parts)[1:])
    raise BusError(f"bus {url!r}: give memory://, redis://HOST[:PORT] or postgresql://...")


def split_utf8(data: bytes, size: int) -> list[bytes]:
    """``data`` cut into pieces of at most ``size`` bytes, never inside a UTF-8 character."""
    out: list[bytes] = []
    start = 0
    while start < len(data):
        end = min(start + size, len(data))
        while end < len(data) and end > start and (data[end] & 0xC0) == 0x80:
            end -= 1  # a continuation byte: cut before its character
        out.append(data[start:end])
        start = end
    return out


Handler = Callable[[str], Awaitable[None] | None]


def sign(secret: bytes, channel: str, text: str, now: float | None = None) -> str:
    """``text`` as sent on ``channel``: ``MAC:MILLISECONDS:TEXT``."""
    stamp = str(int(1000 * (time.time() if now is None else now)))
    return f"{_mac(secret, channel, stamp, text)}:{stamp}:{text}"


def verify(secret: bytes, channel: str, signed: str, now: float | None = None) -> str | None:
    """The text of a message :func:`sign` made with ``secret`` for ``channel`` within
    :data:`MAX_AGE` seconds of ``now``; None for anything else."""
    mac, _, rest = signed.partition(":")
    stamp, sep, text = rest.partition(":")
    if not sep or not (stamp.isascii() and stamp.isdigit()) or len(stamp) > 16:
        return None
    if not hmac.compare_digest(mac, _mac(secret, channel, stamp, text)):
        return None
    age = (time.time() if now is None else now) - int(stamp) / 1000
    return text if -MAX_AGE <= age <= MAX_AGE else None


def _mac(secret: bytes, channel: str, stamp: str, text: str) -> str:
    data = f"{channel}\n{stamp}\n".encode() + text.encode("utf-8", "surrogatepass")
    return hmac.new(secret, data, hashlib.sha256).hexdigest()[:32]


class Bus:
    """One process's connection to the bus (see the module's docstring).

    Use it from one event loop: :meth:`connect`, then :meth:`subscribe` and
    :meth:`publish`, and :meth:`close` at the end.
    """

    def __init__(self, url: str, chunk_bytes: int | None = None,
                 secret: str | None = None) -> None:
        """``secret``: the site's shared secret (at least :data:`MIN_SECRET`
        characters), which every message is signed with and checked against; None
        only for ``memory://``.

        Raises:
            BusError: the URL names no bus this server knows, or a bus that leaves the
                process has no secret (or one too short).
        """
        self.url = url
        self.backend = backend_url(url)
        self.chunk_bytes = chunk_bytes if chunk_bytes is not None else (
            NOTIFY_LIMIT if self.backend.startswith("postgresql") else 0)
        self._broadcast: object | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._partial: dict[str, tuple[float, list[str | None]]] = {}
        self._ids = itertools.count()
        self._prefix = secrets.token_hex(4)
        # broadcaster's PostgreSQL backend has one asyncpg connection, which runs one
        # statement at a time: publishes wait for each other.
        self._serial: asyncio.Lock | None = None
        if secret is None and not self.local:
            raise BusError(f"bus {_shown(url)}: the processes need a shared secret "
                           "(--bus-secret-file or $POLIGNAC_BUS_SECRET)")
        if secret is not None and len(secret) < MIN_SECRET:
            raise BusError(f"the bus secret has {len(secret)} characters: give at least "
                           f"{MIN_SECRET}")
        self._secret = secret.encode() if secret is not None else None
        self.refused = 0
        """Messages refused: not signed with the secret, or too old."""
        self.sent = 0
        """Messages published (before any chunking)."""
        self.received = 0
        """Whole messages handed to a handler (after the signature's check)."""

    @property
    def local(self) -> bool:
        """True for ``memory://``: nothing leaves this process."""
        return self.backend.startswith("memory")

    async def connect(self) -> None:
        """Connect to the bus.

        Raises:
            OSError, redis.RedisError, asyncpg.PostgresError: it cannot be reached.
        """
        from broadcaster import Broadcast

        if self.backend.startswith("redis"):
            broadcast = Broadcast(backend=_redis_backend(self.backend))
        else:
            broadcast = Broadcast(self.backend)
        await broadcast.connect()
        self._broadcast = broadcast

    async def close(self) -> None:
        """Stop every subscription and disconnect."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        broadcast, self._broadcast = self._broadcast, None
        if broadcast is not None:
            with contextlib.suppress(Exception):
                await broadcast.disconnect()  # type: ignore[attr-defined]

    async def publish(self, channel: str, message: str) -> None:
        """Send ``message`` to every subscriber of ``channel`` (in chunks when the
        backend limits a message's size).

        Raises:
            RuntimeError: not connected.
            OSError, redis.RedisError, asyncpg.PostgresError: the bus refused it.
        """
        broadcast = self._broadcast
        if broadcast is None:
            raise RuntimeError("the bus is not connected")
        if self._secret is not None:
            message = sign(self._secret, channel, message)
        self.sent += 1
        if self.chunk_bytes:
            if self._serial is None:
                self._serial = asyncio.Lock()
            async with self._serial:
                await self._publish(broadcast, channel, message)
        else:
            await self._publish(broadcast, channel, message)

    async def _publish(self, broadcast: object, channel: str, message: str) -> None:
        publish = broadcast.publish  # type: ignore[attr-defined]
        limit = self.chunk_bytes
        if not limit or (len(message) * 4 <= limit and not message.startswith(_CHUNK)):
            await publish(channel, message)
            return
        data = message.encode("utf-8")
        if len(data) <= limit and not message.startswith(_CHUNK):
            await publish(channel, message)
            return
        pieces = split_utf8(data, limit - 64)
        ident = f"{self._prefix}{next(self._ids)}"
        for i, piece in enumerate(pieces):
            await publish(channel, f"{_CHUNK}{ident}:{i}:{len(pieces)}:"
                                   f"{piece.decode('utf-8')}")

    async def subscribe(self, channel: str, handler: Handler) -> None:
        """Call ``handler(message)`` for every message on ``channel`` (whole messages,
        one at a time, in order); return once the subscription is in place.

        Raises:
            RuntimeError: not connected.
            OSError, redis.RedisError, asyncpg.PostgresError: the bus refused it.
        """
        broadcast = self._broadcast
        if broadcast is None:
            raise RuntimeError("the bus is not connected")
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        async def listen() -> None:
            try:
                async with broadcast.subscribe(channel) as sub:  # type: ignore[attr-defined]
                    ready.set_result(None)
                    async for event in sub:
                        text = self._whole(event.message)
                        if text is None:
                            continue
                        if self._secret is not None:
                            signed = text
                            text = verify(self._secret, channel, signed)
                            if text is None:
                                self._refuse(channel, signed)
                                continue
                        self.received += 1
                        try:
                            result = handler(text)
                            if result is not None:
                                await result
                        except Exception:
                            log.exception("bus: a handler of %s failed", channel)
            except BaseException as exc:
                if not ready.done():
                    ready.set_exception(exc if isinstance(exc, Exception)
                                        else RuntimeError("subscription cancelled"))
                raise

        self._tasks.append(asyncio.get_running_loop().create_task(listen()))
        await ready

    def _refuse(self, channel: str, signed: str) -> None:
        self.refused += 1
        if self.refused <= 10 or self.refused % 1000 == 0:
            log.warning("bus: refused a message on %s that is not signed with the secret, "
                        "or too old (%d refused so far): %r", channel, self.refused,
                        signed[:80])

    def _whole(self, text: str) -> str | None:
        """``text``, or once its last chunk came the message it is part of, or None."""
        if not self.chunk_bytes or not text.startswith(_CHUNK):
            return text
        try:
            ident, index, count, piece = text[1:].split(":", 3)
            i, n = int(index), int(count)
        except ValueError:
            return None
        now = time.monotonic()
        for key in [k for k, (at, _) in self._partial.items() if now - at > 60]:
            del self._partial[key]  # a message whose chunks never all came
        _at, parts = self._partial.setdefault(ident, (now, [None] * n))
        if not 0 <= i < len(parts):
            return None
        parts[i] = piece
        if any(p is None for p in parts):
            return None
        del self._partial[ident]
        return "".join(p for p in parts if p is not None)


def _shown(url: str) -> str:
    """``url`` without its password."""
    import re

    return re.sub(r"//([^:/@]*):[^@/]*@", r"//\1:***@", url)


def _redis_backend(url: str) -> Any:
    """broadcaster's Redis backend, subscribing before its listener starts listening,
    on a pool of connections that waits when all are busy.

    broadcaster 0.3.1 wakes its listener before the SUBSCRIBE is done; with
    redis-py 8 the listener then finds no subscription, stops, and never listens
    again (no message is ever delivered).  Here the listener is woken once the
    subscription is in place.
    """
    from broadcaster._backends.redis import RedisBackend
    from redis import asyncio as aioredis

    class Backend(RedisBackend):
        def __init__(self, url: str) -> None:
            super().__init__(url)
            # Publishes wait for a free connection, at most 32 at once (redis-py's own
            # pool raises "Too many connections" under a burst instead).
            pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=32,
                                                            timeout=None)
            self._conn = aioredis.Redis(connection_pool=pool)
            self._pubsub = self._conn.pubsub()

        async def subscribe(self, channel: str) -> None:
            await self._pubsub.subscribe(channel)
            self._ready.set()

    return Backend(url)
