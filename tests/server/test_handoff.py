"""The hand-over of a connection to its table's owner on the same machine
(handoff.py), on real sockets and both event loops (asyncio's and uvloop's)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from polignac.server.cluster import handoff
from polignac.server.cluster.tunnel import table_of

from .waiting import until

pytestmark = pytest.mark.skipif(not handoff.SUPPORTED, reason="Linux only")


def test_request_path() -> None:
    assert handoff.request_path(b"GET /tables/x/ws?a=1 HTTP/1.1\r\nHost: h\r\n") == \
        "/tables/x/ws"
    assert handoff.request_path(b"POST /api/tables HTTP/1.1\r\n") == "/api/tables"
    for head in (b"GET /tables/x/ws HTTP/1.1", b"", b"junk\r\n", b"GET /\xff HTTP/1.1\r\n",
                 b"GET /a HTTP/1.1 extra\r\n"):
        assert handoff.request_path(head) is None, head


class Echo(asyncio.Protocol):
    """Answers each connection with who served it and the first line it read."""

    served: list[tuple[str, bytes]]

    def __init__(self, who: str, served: list[tuple[str, bytes]]) -> None:
        self.who = who
        self.served = served
        self.data = b""

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.data += data
        if b"\r\n\r\n" in self.data:
            line = self.data.split(b"\r\n", 1)[0]
            self.served.append((self.who, line))
            self.transport.write(self.who.encode() + b" " + line)
            self.transport.close()


async def _read_by_server(received: Callable[[], int], count: int) -> None:
    await until(lambda: received() >= count, what=f"the server to read {count} bytes")


async def _request(port: int, path: str, pieces: int = 1,
                   received: Callable[[], int] | None = None) -> bytes:
    """Send a request for ``path`` in ``pieces`` writes, each read by the server
    before the next is sent (``received()``: the bytes it has read); the answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    size = len(request) // pieces + 1
    for i in range(0, len(request), size):
        writer.write(request[i:i + size])
        await writer.drain()
        sent = min(i + size, len(request))
        if received is not None and sent < len(request):
            await _read_by_server(received, sent)
    answer = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    with contextlib.suppress(Exception):
        await writer.wait_closed()
    return answer


async def _scenario() -> None:
    owners = {"t-b": "b", "t-gone": "gone"}
    served: list[tuple[str, bytes]] = []

    async def lookup(table: str) -> str | None:
        return owners.get(table)

    routed = handoff.routed(Echo)
    a = handoff.Handoff("site", "a", lookup, table_of)
    b = handoff.Handoff("site", "b", lookup, table_of)
    loop = asyncio.get_running_loop()

    def factory(who: str) -> Callable[[], asyncio.Protocol]:
        return lambda: routed(who, served)

    a.listen(factory("a"))
    b.listen(factory("b"))
    handoff.install(a)  # this process's: connections arriving here are routed
    accepted: list[Any] = []

    def accept() -> asyncio.Protocol:
        protocol = factory("a")()
        accepted.append(protocol)
        return protocol

    server = await loop.create_server(accept, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        # b's table, its request line in three writes: b serves it, whole
        assert await _request(port, "/tables/t-b/ws", pieces=3, received=lambda: len(
            accepted[-1]._polignac_head) if accepted else 0) == \
            b"b GET /tables/t-b/ws HTTP/1.1"
        assert (a.sent, b.received) == (1, 1)
        # not a table, a table nobody owns, a table whose owner is gone: served here
        assert await _request(port, "/lobby") == b"a GET /lobby HTTP/1.1"
        assert await _request(port, "/tables/t-free") == b"a GET /tables/t-free HTTP/1.1"
        assert await _request(port, "/tables/t-gone") == b"a GET /tables/t-gone HTTP/1.1"
        assert (a.sent, a.kept) == (1, 1)
        assert a.local("b") and not a.local("gone")
        b.close()  # b stops: its tables' connections stay where they arrive
        assert await _request(port, "/tables/t-b") == b"a GET /tables/t-b HTTP/1.1"
        assert a.kept == 2
    finally:
        handoff.install(None)
        server.close()
        a.close()
        b.close()


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
def test_a_connection_is_served_by_its_tables_owner(loop: str) -> None:
    """Over a real TCP connection: a request for another process's table is served by
    that process, with the bytes read before the hand-over; anything else (and a
    table whose owner is gone) where it arrived."""
    _run_on(loop, _scenario)


def _run_on(loop: str, main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run ``main()`` on the named event loop (uvloop skipped where it is missing)."""
    if loop == "uvloop":
        uvloop = pytest.importorskip("uvloop")
        uvloop.run(main())
    else:
        asyncio.run(main())


async def _burst(count: int) -> None:
    served: list[tuple[str, bytes]] = []

    async def lookup(table: str) -> str | None:
        return "b"

    routed = handoff.routed(Echo)
    a = handoff.Handoff("site-burst", "a", lookup, table_of)
    b = handoff.Handoff("site-burst", "b", lookup, table_of)
    loop = asyncio.get_running_loop()
    a.listen(lambda: routed("a", served))
    b.listen(lambda: routed("b", served))
    handoff.install(a)
    server = await loop.create_server(lambda: routed("a", served), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    assert b.sock is not None
    try:
        # b's loop does not read its queue (busy): more connections arrive for its
        # tables than its queue holds (net.unix.max_dgram_qlen, 10 by default)
        loop.remove_reader(b.sock.fileno())
        requests = [asyncio.create_task(_request(port, f"/tables/t{i}/ws"))
                    for i in range(count)]
        await until(lambda: a.waited or a.kept,  # the queue is full: a waits for room
                    what="a to wait for room in b's queue")
        loop.add_reader(b.sock.fileno(), b._take)  # b reads again
        answers = await asyncio.gather(*requests)
        assert answers == [f"b GET /tables/t{i}/ws HTTP/1.1".encode()
                           for i in range(count)]
        assert (a.sent, a.kept, b.received) == (count, 0, count)
        assert a.waited > 0
        assert a.local("b")
    finally:
        handoff.install(None)
        server.close()
        a.close()
        b.close()


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
def test_a_burst_waits_for_room_in_the_owners_queue(loop: str) -> None:
    """More connections for another process's tables than its queue of hand-overs
    holds, while that process does not read it: they wait for room and are all
    served by the owner, none kept where it arrived (each of its frames would then
    cross the bus)."""
    qlen = Path("/proc/sys/net/unix/max_dgram_qlen")
    count = int(qlen.read_text()) + 20 if qlen.exists() else 30
    if count > 600:
        pytest.skip(f"{qlen} is {count - 20}: too many connections to fill it")
    _run_on(loop, lambda: _burst(count))
