"""Every per-client limit keys on the client uvicorn gives: behind a trusted proxy
(``--forwarded-allow-ips``) the address in ``X-Forwarded-For``, else the socket's
peer, against a real ``polignac serve``: the sign-in limit (``account_routes.py``),
Find players' ``seek-rate`` (``seek_routes.py``), the open WebSockets
(``--max-connections``), the HTTP requests in the app at once (``httplimits.py``,
``--max-requests``) and the job pool's fair share (``workers.py:client_key``).  Two
clients forwarded by the trusted proxy get limits of their own; a peer that is not
the proxy gets one limit, whatever ``X-Forwarded-For`` it forges.  Then ``--workers
2`` behind the real nginx of ``deploy/`` (which replaces the header with the client's
address): the limits shared through Redis key on each client, and so do the requests
at once on a table's path, handed to the table's owner process.

Linux routes all of 127.0.0.0/8 to the loopback, so the proxy is 127.0.0.1 (the one
address the server trusts) and the other peers are 127.0.0.2 and 127.0.1.3 (another /24:
the sign-in limits count a client's network)."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .slow_readers import long_record, serve
from .test_verify import TABLE
from .waiting import wait_until

PROXY = "127.0.0.1"
"""The trusted proxy (the servers' ``--forwarded-allow-ips``)."""
STRANGER = "127.0.0.2"
"""A peer that is not the proxy: its ``X-Forwarded-For`` must change nothing."""
OTHER = "127.0.1.3"
TRIES = 80
"""Tries at most to reach a limit (a burst of 30 at most, plus what refills)."""


def _client(base: str, source: str) -> httpx.Client:
    """An HTTP client whose connections come from ``source`` (an address of 127/8)."""
    return httpx.Client(base_url=base, trust_env=False, timeout=60,
                        transport=httpx.HTTPTransport(local_address=source))


def _headers(forwarded: str | None) -> dict[str, str]:
    out = {"content-type": "application/json"}
    if forwarded is not None:
        out["x-forwarded-for"] = forwarded
    return out


def _signin(http: httpx.Client, forwarded: str | None) -> httpx.Response:
    """A sign-in try with a name nobody has (each name has its own limit too)."""
    return http.post("/api/account/signin", headers=_headers(forwarded),
                     json={"username": f"nobody-{secrets.token_hex(6)}",
                           "password": "not the password"})


def _seek(http: httpx.Client, forwarded: str | None) -> httpx.Response:
    """A request to play, from a new browser each time (no cookie: a new identity, so
    only the address's limit can refuse it)."""
    http.cookies.clear()
    return http.post("/api/seeks", headers=_headers(forwarded), json={"preset": "polignac"})


def _until_refused(send: Callable[[httpx.Client, str | None], httpx.Response],
                   http: httpx.Client, forwarded: Callable[[], str], ok: int,
                   rule: tuple[str, ...]) -> int:
    """Send through ``http`` until the limit refuses one (``forwarded()``: each try's
    X-Forwarded-For); how many passed.  ``rule``: the limits that may refuse it.

    Raises:
        AssertionError: an answer that is neither ``ok`` nor the limit's, or no refusal
            in :data:`TRIES` tries.
    """
    for passed in range(TRIES):
        r = send(http, forwarded())
        if r.status_code == 429:
            assert r.json()["rule"] in rule, r.text
            return passed
        assert r.status_code == ok, r.text
    raise AssertionError(f"{TRIES} tries and no {rule}")


def _forged() -> str:
    return f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250)}"


def _check_rate_limits(base: str, proxy: str | None, direct: str | None = None) -> None:
    """The sign-in limit and ``seek-rate``: one client forwarded by the trusted proxy
    (``proxy``: its address; None: the clients reach the proxy from their own
    addresses, as through nginx) reaches each limit, another is not limited; a peer
    that forges a new X-Forwarded-For on each try reaches them too, and (``direct``:
    the server's own address, not the proxy's) is refused there at once as well.  A
    request to play meets ``seek-rate`` or, first, the address's cap on live requests
    (``too-many-seeks``): both key on the same client address."""
    for send, ok, rule in ((_signin, 401, ("signin-rate",)),
                           (_seek, 200, ("seek-rate", "too-many-seeks"))):
        if proxy is not None:
            with _client(base, proxy) as http:
                _until_refused(send, http, lambda: "198.51.100.7", ok, rule)
                assert send(http, "203.0.113.8").status_code == ok  # another network
        with _client(base, STRANGER) as http:  # a new header each time: refused all the same
            _until_refused(send, http, _forged, ok, rule)
        if direct is not None:  # the same limit (a fresh one would let 10 or 30 pass)
            with _client(direct, STRANGER) as http:
                assert _until_refused(send, http, _forged, ok, rule) <= 2
        with _client(base, OTHER) as http:  # another peer: its own limit
            assert send(http, _forged() if proxy is None else None).status_code == ok


def _health(base: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(base + "/health", trust_env=False, timeout=10).json()
    return data


def _wait(base: str, what: Callable[[dict[str, Any]], bool], seconds: float = 60) -> None:
    """Wait until ``what(GET /health)`` holds.

    Raises:
        AssertionError: not within ``seconds``.
    """
    health: dict[str, Any] = {}

    def holds() -> bool:
        nonlocal health
        health = _health(base)
        return what(health)

    wait_until(holds, seconds, what=lambda: f"/health to get there: {health}",
               interval=0.05)


def _held(port: int, source: str, forwarded: str | None, path: str = "/api/replay"
          ) -> socket.socket:
    """A request that stays in the app: a POST to ``path`` whose body never ends."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    header = "" if forwarded is None else f"X-Forwarded-For: {forwarded}\r\n"
    s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
              f"Content-Type: application/json\r\nContent-Length: 1000\r\n{header}\r\n{{"
              .encode())
    return s


@contextlib.contextmanager
def _socket(port: int, url: str, source: str, forwarded: str) -> Iterator[Any]:
    """A WebSocket to ``url`` from ``source`` that said hello, open while in the block.

    Raises:
        websockets.exceptions.InvalidStatus: the server refused it.
    """
    from websockets.sync.client import connect

    sock = socket.create_connection(("127.0.0.1", port), timeout=30,
                                    source_address=(source, 0))
    with connect(url, sock=sock, proxy=None, open_timeout=30,
                 additional_headers={"X-Forwarded-For": forwarded}) as ws:
        ws.send('{"type": "hello", "last_seq": 0}')
        yield ws


def _refused_socket(port: int, url: str, source: str, forwarded: str) -> None:
    """Raises: AssertionError: the server took a WebSocket it should refuse (429)."""
    from websockets.exceptions import InvalidStatus

    with pytest.raises(InvalidStatus) as refused, _socket(port, url, source, forwarded):
        pass
    assert refused.value.response.status_code == 429


def _refused_soon(send: Callable[[], httpx.Response], seconds: float = 60) -> None:
    """Send until one is refused ``429 too-many-requests`` (the requests held before
    it reach the app meanwhile); the others must pass.

    Raises:
        AssertionError: another answer, or none refused within ``seconds``.
    """
    def refused() -> httpx.Response | None:
        r = send()
        if r.status_code == 429:
            return r
        assert r.status_code == 200, r.text[:200]
        return None

    r = wait_until(refused, seconds, what="a request refused 429", interval=0.05)
    assert r.json()["rule"] == "too-many-requests"


def _workers_of(pid: int) -> list[int]:
    """The worker processes below server ``pid``: the children of its children (the
    forkserver's; the pools' only processes)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry.name))
    return [w for c in children.get(pid, []) for w in children.get(c, [])]


@pytest.mark.slow
def test_each_limit_keys_on_the_forwarded_client_only_from_the_proxy() -> None:
    body = long_record(2)
    with serve("--forwarded-allow-ips", PROXY, "--max-requests", "3", "--request-queue", "0",
               "--max-connections", "2",
               "--job-workers", "1", "--bot-workers", "1", "--job-timeout", "300",
               "--seek-countdown", "120") as (port, proc):
        base = f"http://127.0.0.1:{port}"
        _check_rate_limits(base, PROXY)

        # open WebSockets: 2 a client
        with _client(base, PROXY) as http:
            created = http.post("/api/tables", json=TABLE, headers=_headers("198.51.100.30"))
        assert created.status_code == 200, created.text
        url = f"ws://127.0.0.1:{port}/tables/{created.json()['id']}/ws"
        with contextlib.ExitStack() as stack:
            for source, forwarded in [(PROXY, "198.51.100.31")] * 2 + [(STRANGER, "")] * 2:
                stack.enter_context(_socket(port, url, source, forwarded or _forged()))
            _refused_socket(port, url, PROXY, "198.51.100.31")
            stack.enter_context(_socket(port, url, PROXY, "198.51.100.32"))  # another client
            _refused_socket(port, url, STRANGER, _forged())
        _wait(base, lambda h: h["connections"] == 0)

        # HTTP requests in the app at once: 3 a client
        held = [_held(port, PROXY, "198.51.100.7") for _ in range(3)]
        held += [_held(port, STRANGER, _forged()) for _ in range(3)]
        try:
            _wait(base, lambda h: h["http"]["requests"] == 6)
            with _client(base, PROXY) as http:
                r = http.get("/api/presets", headers=_headers("198.51.100.7"))
                assert r.status_code == 429 and r.json()["rule"] == "too-many-requests"
                assert http.get("/api/presets", headers=_headers("198.51.100.8")
                                ).status_code == 200
            with _client(base, STRANGER) as http:
                r = http.get("/api/presets", headers=_headers(_forged()))
                assert r.status_code == 429 and r.json()["rule"] == "too-many-requests"
        finally:
            for s in held:
                s.close()
        _wait(base, lambda h: h["http"]["requests"] == 0)

        # the job pool's fair share: one worker, so 2 jobs of a client wait or run at
        # most; the worker is stopped, so that every job stays in the pool meanwhile
        _wait(base, lambda h: h["workers"]["started"])
        workers = _workers_of(proc.pid)
        assert workers
        answers: list[int] = []

        def replay(source: str, forwarded: str | None) -> None:
            with _client(base, source) as http:
                answers.append(http.post("/api/replay", content=body,
                                         headers=_headers(forwarded)).status_code)

        def queued(source: str, forwarded: str, pending: int, clients: int) -> None:
            threading.Thread(target=replay, args=(source, forwarded), daemon=True).start()
            _wait(base, lambda h: (h["workers"]["pending"], h["workers"]["clients"])
                  == (pending, clients))

        def busy(source: str, forwarded: str) -> None:
            with _client(base, source) as http:
                r = http.post("/api/replay", content=body, headers=_headers(forwarded))
            assert r.status_code == 503 and r.json()["rule"] == "busy", r.text

        for w in workers:
            os.kill(w, signal.SIGSTOP)
        try:
            queued(PROXY, "198.51.100.7", 1, 1)
            queued(PROXY, "198.51.100.7", 2, 1)
            busy(PROXY, "198.51.100.7")
            queued(PROXY, "198.51.100.8", 3, 2)  # another client: its own share
            queued(STRANGER, _forged(), 4, 3)
            queued(STRANGER, _forged(), 5, 3)  # the same client, whatever it forges
            busy(STRANGER, _forged())
        finally:
            for w in workers:
                os.kill(w, signal.SIGCONT)
        _wait(base, lambda h: h["workers"]["pending"] == 0, 120)
        wait_until(lambda: len(answers) >= 5, 60, what=lambda: f"five answers: {answers}",
                   interval=0.05)
        assert answers == [200] * 5


@pytest.mark.slow
@pytest.mark.redis
def test_two_processes_behind_the_nginx_of_deploy(redis_server: Any, tmp_path: Path) -> None:
    """``polignac serve --workers 2`` (a Redis bus: the sign-in and seek limits shared by
    both processes) behind deploy/nginx.conf: each client reaching nginx from its own
    address has its own limits, whatever X-Forwarded-For it sends (nginx replaces it),
    and a peer reaching the processes directly cannot forge one either; the requests
    at once of a table's path, handed to its owner process, count the forwarded client
    too."""
    from .cluster_support import SECRET, SRC, stop_group, stop_nginx
    from .conftest import free_port
    from .test_deploy import NGINX, nginx_conf

    if NGINX is None:
        pytest.skip("nginx is not installed (dev.py installs it)")
    port, front = free_port(), free_port()
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "polignac", "serve", "--port", str(port), "--data",
             str(tmp_path / "data"), "--workers", "2", "--bus", redis_server.url(11),
             "--forwarded-allow-ips", PROXY, "--job-workers", "1", "--bot-workers", "1",
             "--max-requests", "3", "--request-queue", "0", "--seek-countdown", "120",
             "--allowed-host", "127.0.0.1"],
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            env=dict(os.environ, PYTHONPATH=SRC, POLIGNAC_BUS_SECRET=SECRET))
    nginx = None
    try:
        processes = set()

        def both_ready() -> bool:
            assert proc.poll() is None, log.read_text()[-3000:]
            with contextlib.suppress(httpx.HTTPError), _client(
                    f"http://127.0.0.1:{port}", PROXY) as http:
                r = http.get("/ready")
                if r.status_code == 200:
                    processes.add(r.json()["process"])
            return len(processes) == 2

        wait_until(both_ready, 180,  # a shared machine starts them slowly
                   what=lambda: f"both processes: {processes}\n{log.read_text()[-3000:]}",
                   interval=0.05)
        folder = tmp_path / "nginx"
        folder.mkdir()
        conf = folder / "nginx.conf"
        conf.write_text(nginx_conf([port, port], front, folder))  # both upstreams: the pair
        nginx = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(conf), "-g",
                                  "daemon off;"], stderr=subprocess.PIPE)
        def proxied() -> bool:
            assert nginx is not None and nginx.poll() is None, \
                nginx.stderr.read().decode() if nginx and nginx.stderr else ""
            return httpx.get(f"http://127.0.0.1:{front}/ready",
                             trust_env=False).status_code == 200

        wait_until(proxied, 30, what="nginx to answer", interval=0.05,
                   ignoring=(httpx.HTTPError,))
        direct = f"http://127.0.0.1:{port}"
        _check_rate_limits(f"http://127.0.0.1:{front}", None, direct)

        # requests at once, on a table's path (nginx would keep a body that never ends,
        # so straight to the pair): whichever process a connection reaches, it is
        # handed to the table's owner, whose limit counts the forwarded client
        with _client(direct, PROXY) as http:
            created = http.post("/api/tables", json=TABLE, headers=_headers("198.51.100.20"))
        assert created.status_code == 200, created.text
        record = f"/tables/{created.json()['id']}/record.json"
        take = f"/tables/{created.json()['id']}/seats/1/take"
        held = [_held(port, PROXY, "198.51.100.21", take) for _ in range(3)]
        held += [_held(port, STRANGER, _forged(), take) for _ in range(3)]
        try:
            with _client(direct, PROXY) as http:
                _refused_soon(lambda: http.get(record, headers=_headers("198.51.100.21")))
                assert http.get(record, headers=_headers("198.51.100.22")).status_code == 200
            with _client(direct, STRANGER) as http:
                _refused_soon(lambda: http.get(record, headers=_headers(_forged())))
        finally:
            for s in held:
                s.close()
    finally:
        stop_nginx(nginx)
        stop_group(proc)
