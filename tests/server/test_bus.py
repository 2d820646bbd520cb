"""The bus between server processes (bus.py): memory, Redis and PostgreSQL, on real
servers; a message over PostgreSQL's 8000-byte NOTIFY limit arrives whole; a message
not signed with the site's secret (or an old one replayed) is refused."""

from __future__ import annotations

import asyncio
import time

import pytest

from polignac.server.cluster.bus import (
    MAX_AGE,
    Bus,
    BusError,
    backend_url,
    sign,
    split_utf8,
    verify,
)

from .conftest import PgServer, RedisServer


def test_urls_map_to_what_broadcaster_takes() -> None:
    assert backend_url("memory://") == "memory://"
    assert backend_url("redis://127.0.0.1:6379/2") == "redis://127.0.0.1:6379/2"
    assert backend_url("postgresql+psycopg://u@h:5/db") == "postgresql://u@h:5/db"
    assert backend_url("postgres://u@h/db") == "postgresql://u@h/db"
    with pytest.raises(BusError, match="memory://, redis://"):
        backend_url("kafka://h")


def test_split_utf8_never_cuts_a_character() -> None:
    text = "é€𝄞a" * 500
    pieces = split_utf8(text.encode(), 7)
    assert all(len(p) <= 7 for p in pieces)
    assert "".join(p.decode() for p in pieces) == text  # each piece decodes alone


async def _deliver(sender: Bus, receiver: Bus, messages: list[str], seconds: float) -> list[str]:
    """Publish ``messages`` on ``sender``, return what ``receiver`` got (closes both)."""
    got: list[str] = []
    done = asyncio.Event()

    def on(text: str) -> None:
        got.append(text)
        if len(got) == len(messages):
            done.set()

    try:
        await receiver.subscribe("polignac_test", on)
        for m in messages:
            await sender.publish("polignac_test", m)
        await asyncio.wait_for(done.wait(), seconds)
    finally:
        await sender.close()
        if receiver is not sender:
            await receiver.close()
    return got


SECRET = "sixteen-or-more-characters"


async def _roundtrip(url: str, messages: list[str], chunk: int | None = None) -> list[str]:
    """Publish ``messages`` on one connection, receive them on another."""
    sender, receiver = Bus(url, chunk, secret=SECRET), Bus(url, chunk, secret=SECRET)
    await sender.connect()
    await receiver.connect()
    return await _deliver(sender, receiver, messages, 20)


async def _memory(messages: list[str]) -> list[str]:
    """Publish and receive ``messages`` on one in-process bus."""
    bus = Bus("memory://")
    await bus.connect()
    return await _deliver(bus, bus, messages, 5)


BIG = "♠♥♦♣ 10 of hearts " * 3000
"""About 66 KB: over PostgreSQL NOTIFY's 8000 bytes, so the bus chunks it there."""
MESSAGES = ["one", '{"t":"x"}', "~not a chunk", "ünïcode ♠", "x" * 30000, BIG, BIG[:7999],
            "last"]


def test_memory_bus_delivers_in_order() -> None:
    assert asyncio.run(_memory(MESSAGES)) == MESSAGES


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.redis),
                        pytest.param("postgres", marks=pytest.mark.postgres)])
def bus_url(request: pytest.FixtureRequest) -> str:
    """A real server's bus URL: Redis (database 3), then PostgreSQL (LISTEN/NOTIFY)."""
    if request.param == "redis":
        redis: RedisServer = request.getfixturevalue("redis_server")
        return redis.url(3)
    pg: PgServer = request.getfixturevalue("pg_server")
    return pg.url()


def test_a_server_bus_delivers_in_order_and_whole(bus_url: str) -> None:
    """From one connection to another, in order; a message over NOTIFY's limit whole."""
    assert asyncio.run(_roundtrip(bus_url, MESSAGES)) == MESSAGES


@pytest.mark.postgres
def test_postgres_refuses_a_payload_over_8000_bytes_unchunked(pg_server: PgServer) -> None:
    """Why the bus chunks: with chunking off, PostgreSQL refuses the message."""
    with pytest.raises(Exception, match="payload string too long"):
        asyncio.run(_roundtrip(pg_server.url(), ["y" * 9000], chunk=0))


def test_sign_and_verify() -> None:
    """A signed text comes back only with the same secret, on the same channel, in
    time, unchanged."""
    key = SECRET.encode()
    signed = sign(key, "polignac_a", "ünïcode ♠ {\"t\":\"open\"}", now=1000.0)
    assert verify(key, "polignac_a", signed, now=1001.0) == "ünïcode ♠ {\"t\":\"open\"}"
    assert verify(b"another-secret-entirely", "polignac_a", signed, now=1001.0) is None
    assert verify(key, "polignac_b", signed, now=1001.0) is None  # another channel
    assert verify(key, "polignac_a", signed, now=1000.0 + MAX_AGE + 1) is None  # replayed
    mac, stamp, text = signed.split(":", 2)
    assert verify(key, "polignac_a", f"{mac}:{stamp}:{text}x", now=1001.0) is None
    assert verify(key, "polignac_a", f"{mac}:{int(stamp) + 1}:{text}", now=1001.0) is None
    for junk in ("", "no colon", "a:b", f"{mac}:²:{text}", '{"t":"open"}'):
        assert verify(key, "polignac_a", junk, now=1001.0) is None


def test_a_bus_that_leaves_the_process_needs_a_secret() -> None:
    with pytest.raises(BusError, match="shared secret"):
        Bus("redis://127.0.0.1:1/0")
    with pytest.raises(BusError, match="at least 16"):
        Bus("redis://127.0.0.1:1/0", secret="short")
    Bus("memory://")  # one process: nothing to sign


async def _forged(url: str) -> tuple[list[str], int]:
    """A publisher without the secret, one with another secret and a replay of an old
    signed message, then one signed message: what the subscriber got, and how many it
    refused."""
    receiver = Bus(url, secret=SECRET)
    await receiver.connect()
    got: list[str] = []
    done = asyncio.Event()

    def on(text: str) -> None:
        got.append(text)
        done.set()

    try:
        await receiver.subscribe("polignac_test", on)
        from broadcaster import Broadcast

        raw = Broadcast(backend_url(url))  # whoever reaches the bus, without the secret
        await raw.connect()
        try:
            await raw.publish("polignac_test", '{"t":"open","r":"x","o":"y","p":"z","s":{}}')
            old = sign(SECRET.encode(), "polignac_test", '{"t":"end","r":"x"}',
                       now=time.time() - 2 * MAX_AGE)
            await raw.publish("polignac_test", old)
        finally:
            await raw.disconnect()
        stranger = Bus(url, secret="another-secret-entirely")
        await stranger.connect()
        await stranger.publish("polignac_test", '{"t":"list","r":"x"}')
        await stranger.close()
        sender = Bus(url, secret=SECRET)
        await sender.connect()
        await sender.publish("polignac_test", "signed")
        await sender.close()
        await asyncio.wait_for(done.wait(), 20)
    finally:
        await receiver.close()
    return got, receiver.refused


def test_a_message_without_the_secret_is_refused(bus_url: str) -> None:
    """On a real Redis and PostgreSQL: three forged messages (no signature, another
    secret, an old signed one replayed) are refused before any handler sees them;
    the signed one after them arrives alone."""
    got, refused = asyncio.run(_forged(bus_url))
    assert got == ["signed"]
    assert refused == 3
