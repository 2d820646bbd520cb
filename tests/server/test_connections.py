"""Connections strangers cannot hold: the Host check, WebSockets per client, the
bounded outbox (catch-up included), the hello timeout, and against a real
uvicorn on a free loopback port: the header timeout, the header size limit,
WebSocket ping/pong and a client that never reads."""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import socket
import struct
import threading
from collections.abc import Iterator
from dataclasses import replace

import pytest
import uvicorn
from starlette.testclient import TestClient, WebSocketDenialResponse

from polignac.cli.common import CliError
from polignac.cli.serve import build_config, register
from polignac.server import ServerConfig, create_app
from polignac.server.base.clock import ManualClock
from polignac.server.tables.connections import (
    Outbox,
    default_allowed_hosts,
    host_allowed,
    uvicorn_options,
)
from polignac.server.web.app import Hub

from .conftest import free_port
from .helpers import hello, play_now
from .waiting import TIMEOUT, wait_until


def waiting_table(client: TestClient) -> str:
    """A table that waits for its people (nothing is dealt, no bot acts); its URL."""
    r = client.post("/api/tables", json={"preset": "polignac", "seats": [
        {"kind": "you"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]})
    assert r.status_code == 200, r.text
    url: str = r.json()["url"]
    return url

# ------------------------------------------------------------------ Host check


def test_default_hosts_are_the_bound_host_and_loopback_with_the_port() -> None:
    assert default_allowed_hosts("127.0.0.1", 8000) == (
        "127.0.0.1:8000", "localhost:8000", "[::1]:8000")
    assert default_allowed_hosts("::1", 9000) == (
        "[::1]:9000", "localhost:9000", "127.0.0.1:9000")
    assert default_allowed_hosts("0.0.0.0", 80) == (
        "localhost:80", "127.0.0.1:80", "[::1]:80")
    assert default_allowed_hosts("Play.Example.org", 8443)[0] == "play.example.org:8443"


@pytest.mark.parametrize(("host", "ok"), [
    ("localhost:8000", True), ("LOCALHOST:8000", True), ("127.0.0.1:8000", True),
    ("[::1]:8000", True), ("play.example.org", True), ("play.example.org:443", True),
    ("a.b.example.net:1", True),
    ("localhost:8001", False), ("localhost", False), ("evil.example:8000", False),
    ("localhost:8000.evil.example", False), ("evil.example#localhost:8000", False),
    ("localhost:8000@evil.example", False), ("example.net", False), (".example.net", False),
    ("localhost:99999999", False), ("[::1]", False), ("[::1:8000", False), ("", False),
    (None, False), ("x" * 400, False), ("local host:8000", False),
])
def test_host_matching(host: str | None, ok: bool) -> None:
    allowed = ("localhost:8000", "127.0.0.1:8000", "[::1]:8000", "play.example.org",
               "*.example.net")
    assert host_allowed(host, allowed) is ok
    assert host_allowed(host, ("*",))


def test_a_host_without_port_has_the_schemes_port() -> None:
    assert host_allowed("localhost", ("localhost:80",))
    assert not host_allowed("localhost", ("localhost:80",), default_port="443")
    assert host_allowed("localhost", ("localhost:443",), default_port="443")


def test_a_foreign_host_is_refused_for_pages_posts_and_websockets(
        client: TestClient) -> None:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    url = play_now(client)
    tables = len(hub.tables)
    evil = {"host": "rebound.example:8000", "origin": "http://rebound.example:8000"}
    for method, path in [("POST", "/api/play-now"), ("POST", "/api/tables"),
                         ("POST", "/api/learn"), ("GET", "/"), ("GET", "/api/tables"),
                         ("GET", url), ("GET", url + "/record.json"),
                         ("POST", url + "/rematch"), ("GET", "/static/table.js")]:
        r = client.request(method, path, headers=evil, json={})
        assert r.status_code == 400, (method, path, r.status_code)
        assert r.json()["rule"] == "bad-host"
        assert "set-cookie" not in r.headers
    with pytest.raises(WebSocketDenialResponse) as refused, \
            client.websocket_connect(url + "/ws", headers=evil):
        pass
    assert refused.value.status_code == 400
    assert refused.value.json()["rule"] == "bad-host"
    with pytest.raises(WebSocketDenialResponse), \
            client.websocket_connect(url + "/ws", headers={"host": ""}):
        pass
    assert len(hub.tables) == tables
    table = next(iter(hub.tables.values()))
    assert not table.subscribers
    # the served name, with any port (the tests' config names it without one)
    assert client.get("/", headers={"host": "testserver:8123"}).status_code == 200


def test_the_default_config_refuses_the_test_clients_host(config: ServerConfig) -> None:
    default = replace(config, allowed_hosts=ServerConfig().allowed_hosts)
    with TestClient(create_app(default)) as client:
        assert client.get("/").status_code == 400
        assert client.get("/", headers={"host": "127.0.0.1:8000"}).status_code == 200
        assert client.get("/", headers={"host": "[::1]:8000"}).status_code == 200


def _serve_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(), "help line")
    return parser.parse_args(["serve", *argv])


def test_serve_options_for_hosts_and_connections() -> None:
    config = build_config(_serve_args("--port", "8123"))
    assert isinstance(config, ServerConfig)
    assert config.allowed_hosts == ("127.0.0.1:8123", "localhost:8123", "[::1]:8123")
    config = build_config(_serve_args("--host", "0.0.0.0", "--allowed-host", "Cards.Example",
                                      "--allowed-host", "*.example.net:443",
                                      "--max-connections", "3", "--header-timeout", "2.5",
                                      "--ping", "7"))
    assert isinstance(config, ServerConfig)
    assert config.allowed_hosts == ("localhost:8000", "127.0.0.1:8000", "[::1]:8000",
                                    "cards.example", "*.example.net:443")
    assert (config.max_connections_per_client, config.header_timeout,
            config.ws_ping_interval, config.ws_ping_timeout) == (3, 2.5, 7.0, 7.0)
    for bad in (["--allowed-host", "a/b"], ["--allowed-host", "ex*.com"],
                ["--allowed-host", "*example.com"], ["--max-connections", "0"],
                ["--header-timeout", "0"], ["--ping", "-1"]):
        with pytest.raises(CliError):
            build_config(_serve_args(*bad))


# ------------------------------------------------------------------ per client


def test_websockets_per_client_address_are_limited(config: ServerConfig) -> None:
    with TestClient(create_app(replace(config, max_connections_per_client=2))) as client:
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        url = waiting_table(client)
        table = next(iter(hub.tables.values()))
        with client.websocket_connect(url + "/ws") as a, \
                client.websocket_connect(url + "/ws") as b:
            hello(a)
            hello(b)
            seq = table.seq
            for _ in range(3):
                with pytest.raises(WebSocketDenialResponse) as refused, \
                        client.websocket_connect(url + "/ws"):
                    pass
                assert refused.value.status_code == 429
                assert refused.value.json()["rule"] == "too-many-connections"
            assert len(table.subscribers) == 2 and table.seq == seq == 0
            # another address is another client
            other = TestClient(client.app, base_url=str(client.base_url),
                               client=("192.0.2.7", 1))
            other.portal = client.portal
            with other.websocket_connect(url + "/ws") as c:
                assert hello(c)["you"] is None
        assert hub.sockets.open == {}
        with client.websocket_connect(url + "/ws") as again:  # the slots were given back
            hello(again)


# ------------------------------------------------------------------ outbox


def test_the_outbox_counts_every_frame_and_byte() -> None:
    box = Outbox(max_frames=3, max_bytes=100)
    box.put_nowait({"type": "state", "pad": "x" * 20})
    box.put_nowait('{"type":"event"}')
    assert box.qsize() == 2 and 0 < box.queued_bytes < 100
    assert box.get_nowait().startswith('{"type": "state"')
    box.put_nowait({"type": "pong"})
    box.put_nowait({"type": "pong"})
    assert box.qsize() == 3 and not box.overflowed
    box.put_nowait({"type": "pong"})  # a fourth waiting frame: the client is dropped
    assert box.overflowed and box.closing
    assert box.qsize() == 1 and box.get_nowait() is None
    box.put_nowait({"type": "pong"})
    assert box.empty() and box.queued_bytes == 0
    calls: list[int] = []
    big = Outbox(max_frames=100, max_bytes=100, on_overflow=lambda: calls.append(1))
    big.put_nowait("y" * 60)
    big.put_nowait("y" * 60)
    big.put_nowait("y" * 60)
    assert big.overflowed and big.get_nowait() is None and calls == [1]


# ------------------------------------------------------------------ hello timeout


def test_a_websocket_that_never_says_hello_is_closed(config: ServerConfig) -> None:
    clock = ManualClock()
    with TestClient(create_app(replace(config, hello_timeout=30, clock=clock))) as client:
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        url = play_now(client)
        with client.websocket_connect(url + "/ws") as ws:
            ws.send_json({"type": "ping"})  # pings do not count as hello
            assert ws.receive_json() == {"type": "pong"}
            ws.send_json({"type": "act", "action": "pass"})
            assert ws.receive_json()["rule"] == "hello-first"
            client.portal.call(clock.advance, 29.5)
            assert hub.sockets.open  # still within the time to say hello
            client.portal.call(clock.advance, 0.5)
            frame = ws.receive_json()
            assert frame["type"] == "error" and frame["rule"] == "hello-timeout"
            assert ws.receive()["type"] == "websocket.close"
        assert hub.sockets.open == {}
        assert not next(iter(hub.tables.values())).subscribers
        with client.websocket_connect(url + "/ws") as ws:  # in time: it stays
            hello(ws)
            client.portal.call(clock.advance, 60)  # well past the time to say hello
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["type"] in ("pong", "presence", "event")


# ------------------------------------------------------------------ a real uvicorn


@contextlib.contextmanager
def live(config: ServerConfig, http: str = "auto") -> Iterator[tuple[int, Hub]]:
    """``config``'s app on uvicorn, with ``polignac serve``'s connection options, on a
    free port of 127.0.0.1 in a thread; yields the port and the hub (``hub.server``:
    the uvicorn server)."""
    port = free_port()
    config = replace(config, allowed_hosts=default_allowed_hosts("127.0.0.1", port))
    app = create_app(config)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning",
                                           **uvicorn_options(config, http)))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()

    def started() -> bool:
        assert thread.is_alive(), "uvicorn exited"
        return bool(server.started)

    wait_until(started, 20, what="uvicorn to start", interval=0.02)
    hub = app.state.hub
    hub.server = server
    try:
        yield port, hub
    finally:
        server.should_exit = True
        thread.join(15)


def _connect(port: int, rcvbuf: int | None = None) -> socket.socket:
    s = socket.socket()
    if rcvbuf is not None:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(15)
    s.connect(("127.0.0.1", port))
    return s


def _read_all(s: socket.socket) -> bytes:
    """Everything until the server closes (the 15 s socket timeout fails the test)."""
    chunks = []
    while chunk := s.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


PROTOCOLS = ["httptools", "h11"]


def _advance(hub: Hub, clock: ManualClock, seconds: float) -> None:
    """Move the live server's ``clock`` ``seconds`` forward, on the server's loop."""
    loop = hub.server.servers[0].get_loop()
    asyncio.run_coroutine_threadsafe(clock.advance(seconds), loop).result(TIMEOUT)


def _awaits_headers(hub: Hub, *sockets: socket.socket) -> bool:
    """Whether the server's connection of each of ``sockets`` has its header deadline
    set (it counts from now at the latest)."""
    armed = {p.transport.get_extra_info("peername")
             for p in list(hub.server.server_state.connections)
             if getattr(p, "_header_timer", None) is not None}
    return all(s.getsockname() in armed for s in sockets)


def _read_response(s: socket.socket) -> bytes:
    """One whole response of a kept-alive connection (its head and Content-Length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        assert chunk, data[:200]
        data += chunk
    head = data.split(b"\r\n\r\n", 1)[0].lower()
    length = int(head.split(b"content-length:", 1)[1].split(b"\r\n", 1)[0])
    while len(data) < len(head) + 4 + length:
        chunk = s.recv(65536)
        assert chunk, data[:200]
        data += chunk
    return data


def _nothing_yet(s: socket.socket) -> bool:
    """Whether nothing (no byte, no end) has come on ``s`` so far."""
    s.setblocking(False)
    try:
        s.recv(1, socket.MSG_PEEK)
    except BlockingIOError:
        return True
    finally:
        s.settimeout(15)
    return False


@pytest.mark.parametrize("http", PROTOCOLS)
def test_requests_whose_headers_never_finish_are_closed(
        config: ServerConfig, http: str) -> None:
    clock = ManualClock()
    with live(replace(config, header_timeout=10, clock=clock), http) as (port, hub):
        host = f"Host: 127.0.0.1:{port}\r\n".encode()
        silent = _connect(port)  # says nothing at all
        partial = _connect(port)
        partial.sendall(b"GET / HTTP/1.1\r\n" + host)  # no blank line: never finishes
        dribble = _connect(port)
        dribble.sendall(b"GET / HTTP/1.1\r\n" + host)
        with silent, partial, dribble:
            wait_until(lambda: _awaits_headers(hub, silent, partial, dribble),
                       what="the server's three connections", ignoring=(RuntimeError,))
            for _ in range(9):  # a header byte each second of the server's clock
                dribble.sendall(b"X")
                _advance(hub, clock, 1)
            _advance(hub, clock, 0.9)
            assert all(_nothing_yet(s) for s in (silent, partial, dribble))  # 9.9 s: open
            _advance(hub, clock, 0.1)
            for s in (silent, partial):
                answer = _read_all(s)
                assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
            try:
                answer = _read_all(dribble)
            except ConnectionResetError:  # closed with our last bytes unread
                answer = b"HTTP/1.1 408"
            assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
        # a complete request is answered, and a kept-alive connection's next
        # request has the same deadline
        with _connect(port) as s:
            s.sendall(b"GET /api/presets HTTP/1.1\r\n" + host + b"\r\n")
            first = _read_response(s)  # whole: nothing of it comes after
            assert first.startswith(b"HTTP/1.1 200"), first[:80]
            s.sendall(b"GET /api/presets HTTP/1.1\r\n" + host)
            wait_until(lambda: _awaits_headers(hub, s), what="the next request's deadline",
                       ignoring=(RuntimeError,))
            _advance(hub, clock, 9.9)
            assert _nothing_yet(s)
            _advance(hub, clock, 0.1)
            rest = _read_all(s)
            assert b"HTTP/1.1 408" in rest, rest[-200:]


@pytest.mark.parametrize("http", PROTOCOLS)
def test_headers_over_the_size_limit_are_refused(config: ServerConfig, http: str) -> None:
    with live(replace(config, max_header_bytes=4096, header_timeout=30), http) as (port, _):
        with _connect(port) as s:
            s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
            with contextlib.suppress(OSError):  # it may close while we still send
                for i in range(200):
                    s.sendall(f"X-Filler-{i}: {'a' * 100}\r\n".encode())
            answer = _read_all(s)
            assert answer.startswith((b"HTTP/1.1 431", b"HTTP/1.1 400")), answer[:80]
        with _connect(port) as s:  # a POST whose body is larger than the limit is fine
            body = json.dumps({"name": "a" * 6000}).encode()
            s.sendall(f"POST /api/play-now HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                      f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                      f"Connection: close\r\n\r\n".encode() + body)
            assert _read_all(s).startswith(b"HTTP/1.1 200")


def _ws_handshake(port: int, path: str, cookie: str = "", rcvbuf: int | None = None
                  ) -> socket.socket:
    s = _connect(port, rcvbuf)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
               f"Sec-WebSocket-Version: 13\r\n{cookie}\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def _ws_frame(text: str) -> bytes:
    """A masked text frame, as a client sends it."""
    payload = text.encode()
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else
                            bytes([0x80 | 126]) + struct.pack("!H", n))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_a_websocket_that_answers_no_ping_is_closed(config: ServerConfig) -> None:
    config = replace(config, ws_ping_interval=0.2, ws_ping_timeout=0.3)
    with live(config) as (port, hub):
        with _connect(port) as s:
            s.sendall(f"POST /api/play-now HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                      "Content-Length: 0\r\nConnection: close\r\n\r\n".encode())
            answer = _read_all(s).decode()
        url = json.loads(answer.split("\r\n\r\n", 1)[1])["url"]
        table = hub.tables[url.rsplit("/", 1)[1]]
        with _ws_handshake(port, url + "/ws") as ws:
            ws.sendall(_ws_frame(json.dumps({"type": "hello", "last_seq": 0})))
            wait_until(lambda: table.subscribers, what="the hello to be taken")
            data = _read_all(ws)  # read everything, answer no ping: the server closes
        assert b"\x89" in data  # it did ping (opcode 9)
        wait_until(lambda: not table.subscribers and not hub.sockets.open,
                   what="the connection to be dropped")


def test_a_client_that_never_reads_is_dropped_catch_up_included(
        config: ServerConfig) -> None:
    config = replace(config, max_queued_frames=200, max_queued_bytes=256 * 1024,
                     ws_ping_interval=600, ws_ping_timeout=600, close_linger=0.2)
    with live(config) as (port, hub):
        with _connect(port) as s:
            s.sendall(f"POST /api/play-now HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                      "Content-Length: 0\r\nConnection: close\r\n\r\n".encode())
            answer = _read_all(s).decode()
        url = json.loads(answer.split("\r\n\r\n", 1)[1])["url"]
        table = hub.tables[url.rsplit("/", 1)[1]]
        ws = _ws_handshake(port, url + "/ws", rcvbuf=4096)
        with ws:
            hellos = _ws_frame(json.dumps({"type": "hello", "last_seq": 0}))
            sent = 0

            def dropped() -> bool:  # five more hellos, unless the server dropped us
                nonlocal sent
                if sent >= 50000 or (sent and not hub.sockets.open):
                    return True
                try:
                    ws.sendall(hellos * 5)  # each asks for a whole state again
                except OSError:  # a reset once the server drops us
                    return True
                sent += 5
                return False

            wait_until(dropped, 120, what="the server to drop a client that does not read",
                       interval=0.005)
            wait_until(lambda: not hub.sockets.open and not table.subscribers,
                       what="a client that does not read to be dropped")
            # and its socket is cut, although what was sent to it never left
            wait_until(lambda: not hub.server.server_state.connections,
                       what="the dropped connection to be cut")
        assert sent < 50000
