"""The bus between server processes (bus.py): memory, Redis and PostgreSQL, on real
servers; a message over PostgreSQL's 8000-byte NOTIFY limit arrives whole."""

from __future__ import annotations

import asyncio

import pytest

from polignac.server.bus import Bus, BusError, backend_url, split_utf8

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


async def _roundtrip(url: str, messages: list[str], chunk: int | None = None) -> list[str]:
    """Publish ``messages`` on one connection, receive them on another."""
    sender, receiver = Bus(url, chunk), Bus(url, chunk)
    await sender.connect()
    await receiver.connect()
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
        await asyncio.wait_for(done.wait(), 20)
    finally:
        await sender.close()
        await receiver.close()
    return got


async def _memory(messages: list[str]) -> list[str]:
    bus = Bus("memory://")
    await bus.connect()
    got: list[str] = []
    done = asyncio.Event()

    def on(text: str) -> None:
        got.append(text)
        if len(got) == len(messages):
            done.set()

    try:
        await bus.subscribe("c", on)
        for m in messages:
            await bus.publish("c", m)
        await asyncio.wait_for(done.wait(), 5)
    finally:
        await bus.close()
    return got


MESSAGES = ["one", '{"t":"x"}', "~not a chunk", "ünïcode ♠", "x" * 30000]


def test_memory_bus_delivers_in_order() -> None:
    assert asyncio.run(_memory(MESSAGES)) == MESSAGES


@pytest.mark.redis
def test_redis_bus_delivers_in_order(redis_server: RedisServer) -> None:
    assert asyncio.run(_roundtrip(redis_server.url(3), MESSAGES)) == MESSAGES


@pytest.mark.postgres
def test_postgres_bus_chunks_what_notify_cannot_carry(pg_server: PgServer) -> None:
    big = ("♠♥♦♣ 10 of hearts " * 3000)  # about 66 KB, over NOTIFY's 8000 bytes
    messages = ["small", big, "~tilde", big[:7999], "last"]
    got = asyncio.run(_roundtrip(pg_server.url(), messages))
    assert got == messages


@pytest.mark.postgres
def test_postgres_refuses_a_payload_over_8000_bytes_unchunked(pg_server: PgServer) -> None:
    """Why the bus chunks: with chunking off, PostgreSQL refuses the message."""
    with pytest.raises(Exception, match="payload string too long"):
        asyncio.run(_roundtrip(pg_server.url(), ["y" * 9000], chunk=0))
