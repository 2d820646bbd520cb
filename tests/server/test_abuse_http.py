"""HTTP clients that hold the server's memory (issue 22): requests per client
address at once, a write timeout for answers nobody reads, paged replays, and the
forwarded-address trust (none unless configured)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from typing import Any

import httpx
import pytest

from polignac.cli.serve import build_config, register
from polignac.server import ServerConfig
from polignac.server.base.httplimits import ClientRequests, RequestCounts
from polignac.server.tables.connections import uvicorn_options

from .slow_readers import free_port, long_record, outcome, rss_mib, serve, slow_post
from .waiting import until, wait_until


def test_requests_per_client_are_bounded() -> None:
    """Past the limit a client's request is answered 429 at once; another client is
    served; the counts empty when the requests end."""
    release = asyncio.Event()
    entered = 0

    async def slow_app(scope: Any, receive: Any, send: Any) -> None:
        nonlocal entered
        entered += 1
        await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    counts = RequestCounts(4)
    app = ClientRequests(slow_app, counts)

    def call(client: str) -> Any:
        return _call(app, client)

    async def go() -> None:
        held = [asyncio.create_task(call("10.0.0.1")) for _ in range(4)]
        await until(lambda: entered >= 4, what="four requests in the app")
        assert counts.counts == {"10.0.0.1": 4} and counts.in_flight == 4
        assert await call("10.0.0.1") == 429 and counts.refused == 1
        other = asyncio.create_task(call("10.0.0.2"))
        await until(lambda: entered >= 5, what="the other address's request in the app")
        release.set()
        assert await asyncio.gather(*held, other) == [200] * 5
        assert counts.counts == {} and counts.in_flight == 0

    asyncio.run(go())


def _call(app: Any, client: str, path: str = "/") -> Any:
    """A GET of ``path`` by ``client`` through ``app``: a coroutine for its status."""
    async def go() -> int:
        scope = {"type": "http", "method": "GET", "path": path, "headers": [],
                 "client": (client, 1234), "query_string": b""}
        out: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            out.append(message)

        await app(scope, receive, send)
        return int(out[0]["status"])
    return go()


def test_a_burst_waits_in_a_short_line() -> None:
    """Past the limit a client's requests wait in a line of ``queue`` places and enter,
    in order, as the ones in the app end; one more than the line holds is refused at
    once; a request whose wait is over is refused and leaves the line; a request
    cancelled while it waits leaves it too, and the counts empty at the end."""
    gates: list[asyncio.Event] = []
    order: list[str] = []

    async def app_(scope: Any, receive: Any, send: Any) -> None:
        gate = asyncio.Event()
        gates.append(gate)
        order.append(scope["path"])
        await gate.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    async def go() -> None:
        counts = RequestCounts(2, queue=2, wait=60)
        app = ClientRequests(app_, counts)
        held = [asyncio.create_task(_call(app, "10.0.0.1")) for _ in range(2)]
        await until(lambda: len(gates) >= 2, what="two requests in the app")
        line = [asyncio.create_task(_call(app, "10.0.0.1", f"/line{i}")) for i in range(2)]
        await until(lambda: counts.waiting >= 2, what="two requests in the line")
        assert await _call(app, "10.0.0.1") == 429  # the line is full: at once
        assert counts.refused == 1 and counts.waited == 2
        other = asyncio.create_task(_call(ClientRequests(app_, counts), "10.0.0.2"))
        await until(lambda: len(gates) >= 3,  # another address does not wait behind this one
                    what="the other address's request in the app")
        gates[0].set()  # the first ends: the first of the line takes its place
        assert await held[0] == 200
        await until(lambda: len(gates) >= 4, what="the first of the line in the app")
        assert counts.counts["10.0.0.1"] == 2 and counts.waiting == 1
        assert order[3] == "/line0", order  # first come, first in
        line[1].cancel()  # its browser went away while it waited
        with contextlib.suppress(asyncio.CancelledError):
            await line[1]
        assert counts.waiting == 0 and counts.lines == {}
        for gate in gates:
            gate.set()
        assert await asyncio.gather(held[1], line[0], other) == [200] * 3
        assert counts.counts == {} and counts.in_flight == 0

        # a wait that is over: refused, and the line is left
        counts = RequestCounts(1, queue=4, wait=0.05)
        app = ClientRequests(app_, counts)
        gates.clear()
        first = asyncio.create_task(_call(app, "10.0.0.1"))
        await until(lambda: gates, what="the first request in the app")
        assert await _call(app, "10.0.0.1") == 429
        assert counts.refused == 1 and counts.waiting == 0 and counts.lines == {}
        gates[0].set()
        assert await first == 200 and counts.counts == {}

    asyncio.run(go())


def _serve_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(), "serve")
    return parser.parse_args(["serve", *argv])


def test_forwarded_addresses_are_trusted_only_when_configured(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    config = build_config(_serve_args())
    assert isinstance(config, ServerConfig) and config.forwarded_allow_ips == ()
    options = uvicorn_options(config)  # uvicorn's own default trusts 127.0.0.1
    assert options["proxy_headers"] is False and options["forwarded_allow_ips"] is None
    config = build_config(_serve_args("--forwarded-allow-ips", "10.0.0.2, 10.0.1.0/24"))
    assert isinstance(config, ServerConfig)
    assert config.forwarded_allow_ips == ("10.0.0.2", "10.0.1.0/24")
    options = uvicorn_options(config)
    assert options["proxy_headers"] is True
    assert options["forwarded_allow_ips"] == "10.0.0.2,10.0.1.0/24"
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "10.0.0.9")
    config = build_config(_serve_args())
    assert isinstance(config, ServerConfig) and config.forwarded_allow_ips == ("10.0.0.9",)
    assert ServerConfig.from_json(config.to_json()) == config


def _health(port: int) -> dict[str, Any]:
    r = httpx.get(f"http://127.0.0.1:{port}/health", timeout=10, trust_env=False)
    data: dict[str, Any] = r.json()
    return data


def test_readers_that_never_read_hold_no_memory() -> None:
    """16 clients POST a 100-deal record for a page of 32 deals (about 0.7 MB) and never
    read (4 KiB receive buffers): each answer is one page, which the socket's buffers
    take whole, so the server holds nothing for them once answered; memory stays
    bounded while they hold their sockets and comes back once they are gone; the
    17th request of the address is refused at once (no line: ``--request-queue 0``;
    the line's own bound is :func:`test_a_burst_waits_in_a_short_line`), a forged X-Forwarded-For
    changes nothing. Eight job workers: the pool's fair share lets one address run 4
    jobs and queue 16, so all 16 slow requests are in the app at once."""
    body = long_record(100)
    path = "/api/replay?count=32"
    with serve("--write-timeout", "1", "--max-requests", "16", "--request-queue", "0",
               "--job-workers", "8",
               "--job-timeout", "60") as (port, proc):
        warm = httpx.post(f"http://127.0.0.1:{port}{path}", content=body, timeout=60,
                          headers={"content-type": "application/json"}, trust_env=False)
        assert warm.status_code == 200 and len(warm.content) < 1_000_000, warm.text[:200]
        before = rss_mib(proc.pid)
        sockets = [slow_post(port, path, body) for _ in range(16)]
        wait_until(lambda: _health(port)["http"]["requests"] >= 16, 60,  # every slow
                   what=lambda: f"the 16 slow requests in the app: {_health(port)}",  # request
                   interval=0.05)
        extra = httpx.post(f"http://127.0.0.1:{port}/api/replay", content=body, timeout=60,
                           headers={"content-type": "application/json",
                                    "x-forwarded-for": "10.9.9.9"}, trust_env=False)
        assert extra.status_code == 429 and extra.json()["rule"] == "too-many-requests"
        peak = before

        def ended() -> bool:  # every slow request ended (the memory's peak meanwhile)
            nonlocal peak
            peak = max(peak, rss_mib(proc.pid))
            return not _health(port)["http"]["requests"]

        wait_until(ended, 120, what=lambda: f"the slow requests to end: {_health(port)}",
                   interval=0.05)
        health = _health(port)
        outcomes = [outcome(s) for s in sockets]
        for s in sockets:
            s.close()
        assert health["http"]["refused"] == 1
        assert all(o in ("200", "503", "cut") or o.endswith("cut short") for o in outcomes), \
            outcomes
        assert peak - before <= 100, (before, peak)
        after = rss_mib(proc.pid)
        assert after - before <= 50, (before, peak, after)


def test_an_answer_that_cannot_leave_is_cut_after_the_write_timeout() -> None:
    """uvicorn with the server's HTTP protocol: a client that never reads an answer
    larger than every socket buffer (64 MiB, streamed) is cut once writing has been
    paused for the write timeout; the handler's writes return at once and it ends."""
    import socket
    import threading

    import uvicorn

    from polignac.server.base.httplimits import WRITE_CUTS

    sent = [0]
    ended = threading.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", str(64 << 20).encode())]})
        chunk = b"x" * (1 << 16)
        try:
            for _ in range(1024):
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
                sent[0] += len(chunk)
        finally:
            ended.set()

    config = ServerConfig(write_timeout=0.5)
    options = {k: v for k, v in uvicorn_options(config).items() if k != "ws"}
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off", **options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_until(lambda: server.started, what="uvicorn to start", interval=0.02)
        cuts = WRITE_CUTS[0]
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", port))
        s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        assert ended.wait(30), "the handler still writes"
        assert WRITE_CUTS[0] == cuts + 1  # (its later writes were no-ops: uvicorn drops
        assert sent[0] == 64 << 20          # them once the connection is lost)
        s.settimeout(10)
        got = 0
        with contextlib.suppress(ConnectionResetError):  # the rest never comes
            while chunk := s.recv(1 << 20):
                got += len(chunk)
        s.close()
        assert got < 16 << 20, got
    finally:
        server.should_exit = True
        thread.join(10)
