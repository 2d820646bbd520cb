"""Clients that send a request and never read the answer, against a real
``polignac serve`` (its own process, uvicorn and all): shared by
``test_abuse_http.py`` (small and bounded) and ``benchmarks/bench_slow_readers.py``
(32 readers of a 1,000-deal record).

Each reader is a plain socket with a small receive buffer (4 KiB) that POSTs a
record to ``/api/replay`` and reads nothing; :func:`outcome` reads, at the end,
what the server did with it: an answer's status line, or the connection cut.
"""

from __future__ import annotations

import contextlib
import json
import random
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from polignac.core import Match, get_rules, to_record

from .waiting import wait_until


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def long_record(deals: int, cards: int = 52, seed: int = 1) -> bytes:
    """A valid record of ``deals`` deals (of 52 or 32 cards) of a match that never ends
    (no card scores), as compact JSON."""
    overrides: dict[str, Any] = {"players": [4], "card_points": {"J": 0, "JS": 0},
                                 "declaration": "none"}
    if cards == 52:
        overrides |= {"pack": 52, "rank_order": "AKQJT98765432", "removals": "none"}
    rng = random.Random(seed)
    m = Match.new(get_rules("polignac", overrides), 4, first_dealer=0)
    while len(m.results) < deals:
        m = m.deal_random(rng) if m.needs_deal else m.apply(rng.choice(m.legal_actions()))
    return json.dumps(to_record(m), separators=(",", ":")).encode()


def rss_mib(pid: int) -> float:
    """Resident memory of process ``pid`` in MiB (nan when unreadable)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return float("nan")


def tree_rss_mib(pid: int) -> float:
    """Resident memory of ``pid`` and every process below it (its worker processes),
    in MiB."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = (entry / "stat").read_text()
                ppid = int(stat.rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry.name))
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        value = rss_mib(p)
        total += 0 if value != value else value  # nan: it just ended
        todo += children.get(p, [])
    return total


@contextlib.contextmanager
def serve(*options: str) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """``polignac serve`` on a free port of 127.0.0.1 with ``options``, started and
    answering; its port and process.

    Raises:
        AssertionError: it exited, or did not start within 180 s (a loaded machine is
            slow).
    """
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        proc = subprocess.Popen(
            [sys.executable, "-m", "polignac", "serve", "--port", str(port), "--data", data,
             *options], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            def answers() -> bool:
                if proc.poll() is not None:
                    raise AssertionError(f"polignac serve exited ({proc.returncode})")
                return httpx.get(f"http://127.0.0.1:{port}/health", timeout=2,
                                 trust_env=False).status_code == 200

            wait_until(answers, 180, what="polignac serve to start", interval=0.2,
                       ignoring=(httpx.HTTPError,))
            yield port, proc
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


def slow_post(port: int, path: str, body: bytes, rcvbuf: int = 4096) -> socket.socket:
    """A socket that sent ``POST path`` with ``body`` and will read nothing (its
    receive buffer is ``rcvbuf`` bytes)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(30)
    s.connect(("127.0.0.1", port))
    s.sendall((f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
               f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
               ).encode() + body)
    return s


def outcome(s: socket.socket) -> str:
    """What became of a slow reader's request, read now: ``"cut"`` (the server reset
    the connection, or closed it before a whole answer), else the answer's status
    (``"200"``, ``"429"``, ``"503"``...) when the whole answer arrived."""
    s.setblocking(False)
    data = b""
    try:
        while True:
            chunk = s.recv(1 << 16)
            if not chunk:
                break
            data += chunk
    except BlockingIOError:
        pass
    except OSError:  # ECONNRESET: cut by the server
        return "cut"
    head, _, rest = data.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 "):
        return "cut" if not data else "no answer yet"
    status = head.split()[1].decode()
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), None)
    if length is not None and len(rest) < length:
        return f"{status} cut short"
    return status


__all__ = ["free_port", "long_record", "outcome", "rss_mib", "serve", "slow_post",
           "tree_rss_mib"]
