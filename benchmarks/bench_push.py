"""Web Push latency (issue 31; docs/server.md, "Notifications"): the time from "your
turn" at a correspondence table to the push reaching a receiver, through the server.

Runs the app with uvicorn in this process (SQLite in a temporary folder, bots and dealer
at once, push endpoints on loopback allowed) and the local receiver of the tests
(``tests/server/push_receiver.py``: it checks VAPID and decrypts each push as a browser
would).  One account subscribes; then ``--tables`` correspondence tables of it and three
bots are created, ``--rate`` a second, while nobody has them open: each deal makes a
"your turn" when the person's clock starts, stamped with the server's time in the
message.  The figure is receipt minus that stamp (same machine, same clock), p50 / p99 /
max, beside the reference measured in the same run: ``pywebpush.webpush`` of the same
message to the same receiver, one at a time, from this process (the send alone, no
server).  Aim: p99 under 1 s.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_push.py [--tables 200] [--rate 20]
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server import push_receiver  # noqa: E402

from polignac.server import ServerConfig, create_app  # noqa: E402


def summary(ms: list[float]) -> str:
    q = statistics.quantiles(ms, n=100)
    return f"p50 {q[49]:7.1f} ms  p99 {q[98]:7.1f} ms  max {max(ms):7.1f} ms  (n={len(ms)})"


def reference(receiver: push_receiver.Receiver, n: int) -> list[float]:
    """``webpush`` of a turn's message straight to the receiver, one at a time."""
    import requests
    from cryptography.hazmat.primitives.asymmetric import ec
    from py_vapid import Vapid02
    from pywebpush import webpush
    vapid = Vapid02(ec.generate_private_key(ec.SECP256R1()))
    session = requests.Session()
    message = json.dumps({"kind": "turn", "table": "x" * 12, "url": "/tables/" + "x" * 12,
                          "title": "Your move", "body": "Polignac: it is your turn to play.",
                          "tag": "turn-x", "at": 0.0})
    out = []
    for _ in range(n):
        t = time.perf_counter()
        webpush(receiver.subscription("reference"), data=message, vapid_private_key=vapid,
                vapid_claims={"sub": "mailto:bench@localhost"}, ttl=60,
                requests_session=session)
        receiver.next()
        out.append((time.perf_counter() - t) * 1000)
    return out


def main() -> None:
    """Run it and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--rate", type=float, default=20.0, help="tables created a second")
    args = ap.parse_args()
    import uvicorn

    with tempfile.TemporaryDirectory() as folder, push_receiver.running() as receiver:
        config = ServerConfig(data_dir=Path(folder), bot_delay=0, deal_delay=0, cut_window=0,
                              trick_pause=0, push_local_endpoints=True, create_burst=10_000,
                              create_per_minute=100_000, max_tables=100_000)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(create_app(config), host="127.0.0.1",
                                               port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        ref = reference(receiver, min(args.tables, 200))
        print("reference  webpush() straight to the receiver:", summary(ref))
        origin = {"origin": base}
        with httpx.Client(base_url=base, timeout=30, trust_env=False) as http:
            r = http.post("/api/account/signup", headers=origin,
                          json={"username": "bench_push", "password": "correct horse battery"})
            assert r.status_code == 200, r.text
            r = http.post("/api/push/subscribe", headers=origin,
                          json={"subscription": receiver.subscription("bench")})
            assert r.status_code == 200, r.text
            body = {"time_control": {"kind": "days", "days": 1},
                    "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3}
            start = time.monotonic()
            for i in range(args.tables):
                time.sleep(max(0.0, start + i / args.rate - time.monotonic()))
                made = http.post("/api/tables", headers=origin, json=body)
                assert made.status_code == 200, made.text
        latencies = []
        for _ in range(args.tables):
            got = receiver.next(60)
            assert got.message["kind"] == "turn", got.message
            latencies.append((got.at - got.message["at"]) * 1000)
        print(f"push       'your turn' to the receiver, {args.tables} tables at "
              f"{args.rate:g}/s:", summary(latencies))
        p99 = statistics.quantiles(latencies, n=100)[98]
        print(f"ratio      p99 {p99 / statistics.quantiles(ref, n=100)[98]:.1f}x the "
              f"reference's; aim p99 < 1000 ms: {'met' if p99 < 1000 else 'NOT met'}; "
              f"refused by the receiver: {len(receiver.refused)}")
        server.should_exit = True
        thread.join(20)


if __name__ == "__main__":
    main()
