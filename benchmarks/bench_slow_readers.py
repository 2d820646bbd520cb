"""Clients that never read: the server's memory while ten WebSockets ask for whole
states and read nothing, next to ten that read (the reference, same run); with
``--replay``, 32 HTTP clients that POST a 1,000-deal record and never read.

Starts ``polignac serve`` with its default limits (the outbox of 400 frames /
2 MiB, 16 connections per address) but ``--rate 100`` (so that 40 s of
hellos are more than the kernel's socket buffers hold: about 4 MiB a
connection here) on a free port of 127.0.0.1, creates a Play-now table, then
for ``--seconds`` each phase:

1. reference: ``--sockets`` spectators that send ``hello`` (``last_seq`` 0: a
   whole state each time) ``--rate`` times a second and read everything;
2. never read: as many that send the same and never read (a 4 KiB receive
   buffer), reconnecting when the server drops them.

Prints the server's resident memory (``VmRSS``) every 5 s, the drops seen
and each phase's growth.

    .venv/bin/python benchmarks/bench_slow_readers.py             # 10 sockets, 40 s a phase
    PYTHONPATH=../other/src .venv/bin/python benchmarks/bench_slow_readers.py  # another version
    .venv/bin/python benchmarks/bench_slow_readers.py --replay      # 32 replay readers

``--replay``: starts ``polignac serve`` twice (``--max-requests 16``, the
default, then 64 so that every reader gets in), and each time has ``--readers``
(32) sockets with a 4 KiB receive buffer POST a record of 1,000 deals of 52
cards (0.6 MB) to ``/api/replay`` and read nothing for ``--hold`` seconds; then
they close.  Prints the server's resident memory (its own, and with its worker
processes) before, at the peak while they hold, and after they closed, and
what became of each request (answered whole: the kernel's buffers took it;
429; 503 busy; cut).  Issue 22's aim: growth at most 100 MB, given back.

Not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))
from bench_server import free_port
from tests.server import slow_readers


def rss_mib(pid: int) -> float:
    """Resident memory of process ``pid`` in MiB (nan when unreadable)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def frame(text: str) -> bytes:
    """A masked WebSocket text frame (a client's)."""
    payload = text.encode()
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x81, 0x80 | n]) if n < 126 else bytes([0x81, 0xFE]) + struct.pack("!H", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def connect(port: int, path: str, rcvbuf: int | None) -> socket.socket | None:
    """A WebSocket to ``path`` after its handshake (non-blocking), or None if refused."""
    s = socket.socket()
    if rcvbuf is not None:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(5)
    try:
        s.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(1)
            if not chunk:
                break
            head += chunk
    except OSError:
        s.close()
        return None
    if not head.startswith(b"HTTP/1.1 101"):
        s.close()
        return None
    s.setblocking(False)
    return s


def phase(port: int, pid: int, path: str, sockets: int, seconds: float, read: bool,
          rate: int) -> tuple[list[float], int, int]:
    """One phase; the RSS samples (every 5 s), the drops and the hellos sent."""
    one = len(frame(json.dumps({"type": "hello", "last_seq": 0})))
    rcvbuf = None if read else 4096
    conns: list[socket.socket | None] = [connect(port, path, rcvbuf) for _ in range(sockets)]
    pending = [b""] * sockets  # what the socket has not taken yet (whole frames only)
    samples = [rss_mib(pid)]
    drops = sent = 0
    start = time.monotonic()
    next_sample = start + 5
    while time.monotonic() - start < seconds:
        for i, s in enumerate(conns):
            if s is None:
                conns[i] = connect(port, path, rcvbuf)
                pending[i] = b""
                continue
            if len(pending[i]) < one * rate:  # at most a second's worth waits here
                pending[i] += b"".join(frame(json.dumps({"type": "hello", "last_seq": 0}))
                                       for _ in range(max(1, rate // 10)))
            try:
                n = s.send(pending[i])
                pending[i] = pending[i][n:]
                sent += n
                if read:
                    while s.recv(1 << 20):
                        pass
            except BlockingIOError:
                pass
            except OSError:  # dropped by the server
                drops += 1
                s.close()
                conns[i] = None
        if time.monotonic() >= next_sample:
            samples.append(rss_mib(pid))
            next_sample += 5
        time.sleep(0.1)  # ten ticks a second
    samples.append(rss_mib(pid))
    for s in conns:
        if s is not None:
            s.close()
    return samples, drops, sent // one


def replay_readers(body: bytes, readers: int, hold: float, max_requests: int) -> None:
    """``readers`` sockets POST ``body`` to /api/replay and never read, for ``hold``
    seconds; print memory and outcomes."""
    with slow_readers.serve("--max-requests", str(max_requests), "--job-timeout", "60") \
            as (port, proc):
        url = f"http://127.0.0.1:{port}"
        warm = httpx.post(url + "/api/replay", content=body, timeout=120, trust_env=False,
                          headers={"content-type": "application/json"})
        before = (slow_readers.rss_mib(proc.pid), slow_readers.tree_rss_mib(proc.pid))
        start = time.monotonic()
        socks = [slow_readers.slow_post(port, "/api/replay", body) for _ in range(readers)]
        peak = before
        while time.monotonic() - start < hold:
            now = (slow_readers.rss_mib(proc.pid), slow_readers.tree_rss_mib(proc.pid))
            peak = (max(peak[0], now[0]), max(peak[1], now[1]))
            time.sleep(0.5)
        health = httpx.get(url + "/health", timeout=30, trust_env=False).json()["http"]
        outcomes: dict[str, int] = {}
        for s in socks:
            o = slow_readers.outcome(s)
            outcomes[o] = outcomes.get(o, 0) + 1
            s.close()
        deadline = time.monotonic() + 120
        while httpx.get(url + "/health", timeout=30, trust_env=False).json()["http"][
                "requests"] and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(5)
        after = (slow_readers.rss_mib(proc.pid), slow_readers.tree_rss_mib(proc.pid))
        print(f"--max-requests {max_requests}: {readers} readers of a {len(body)/1e6:.2f} MB "
              f"record (first answer {len(warm.content)/1e3:.0f} KB, status "
              f"{warm.status_code}), held {hold:g} s; in the app at the end of the hold "
              f"{health['requests']}, refused {health['refused']}, write cuts "
              f"{health['write_cuts']}; outcomes {dict(sorted(outcomes.items()))}", flush=True)
        print(f"  server RSS MiB: before {before[0]:.0f}, peak {peak[0]:.0f} "
              f"({peak[0] - before[0]:+.1f}), after closing {after[0]:.0f} "
              f"({after[0] - before[0]:+.1f}); with its workers: before {before[1]:.0f}, "
              f"peak {peak[1]:.0f} ({peak[1] - before[1]:+.1f}), after {after[1]:.0f} "
              f"({after[1] - before[1]:+.1f})", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run both phases and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--rate", type=int, default=100,
                        help="hellos a second per socket, and the server's --rate")
    parser.add_argument("--replay", action="store_true",
                        help="HTTP readers of a replay instead of WebSockets")
    parser.add_argument("--readers", type=int, default=32)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--hold", type=float, default=60)
    args = parser.parse_args(argv)
    if args.replay:
        body = slow_readers.long_record(args.deals)
        for limit in (16, 64):
            replay_readers(body, args.readers, args.hold, limit)
        return 0
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        script = Path(sys.executable).parent / "polignac"
        cmd = [str(script)] if script.exists() else [sys.executable, "-m", "polignac"]
        proc = subprocess.Popen(cmd + ["serve", "--port", str(port), "--data", data,
                                       "--rate", str(args.rate)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 30
            while True:
                try:
                    url = httpx.post(base + "/api/play-now", timeout=2,
                                     trust_env=False).json()["url"]
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise RuntimeError("polignac serve did not start") from None
                    time.sleep(0.2)
            for name, read in (("reference: clients that read", True),
                               ("clients that never read", False)):
                samples, drops, sent = phase(port, proc.pid, url + "/ws", args.sockets,
                                             args.seconds, read, args.rate)
                print(f"{name}: {args.sockets} sockets, {sent} hellos, {drops} drops by "
                      f"the server; RSS MiB every 5 s: "
                      f"{' '.join(f'{x:.0f}' for x in samples)}; growth "
                      f"{samples[-1] - samples[0]:+.1f} MiB", flush=True)
        finally:
            proc.terminate()
            proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
