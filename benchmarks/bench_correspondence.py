"""Memory of waiting correspondence tables (issue 31, "Games across days"; docs/server.md):
10,000 correspondence tables, each waiting for a person's move, must cost no memory per
table in a server, since they are kept in the database only (aim: under 50 MB above an
empty server's).

1. ``polignac serve`` (SQLite in a temporary folder) makes ``--played`` correspondence
   tables through the API (one browser; you and three bots, one day a move): the bots
   play at once until it is the person's move.  The server stops.
2. Their rows (table, seats, events) are copied in the database to ``--tables`` in all,
   each with an id of its own: the same stored state, many times.
3. A server starts on that database, and another on an empty one (the reference, in the
   same run); each one's resident memory is read once it is ready and has settled
   (``--settle`` seconds), with the tables it holds (``GET /health``).

    PYTHONPATH=src .venv/bin/python benchmarks/bench_correspondence.py [--tables 10000]
"""

from __future__ import annotations

import argparse
import secrets
import tempfile
import time
from pathlib import Path

import httpx
from serving import served
from sqlalchemy import insert, select

from polignac.server.store.db import make_engine
from polignac.server.store.schema import events_t, seats_t, tables_t

BODY = {"time_control": {"kind": "days", "days": 1},
        "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3}


def make_tables(data: Path, port: int, played: int) -> None:
    """``played`` correspondence tables through the API, each at its person's move."""
    with served(data, port, "--bot-delay", "0", "--deal-delay", "0", "--create-burst",
                str(played + 10), "--job-workers", "1") as server, \
            httpx.Client(base_url=server.base, timeout=30, trust_env=False) as http:
        for _ in range(played):
            r = http.post("/api/tables", json=BODY, headers={"origin": server.base})
            assert r.status_code == 200, r.text
        deadline = time.monotonic() + 120
        while len(http.get("/api/my-turn").json()["turns"]) < played:
            assert time.monotonic() < deadline, "the bots did not reach the person's move"
            time.sleep(0.2)


def copy_tables(data: Path, total: int) -> int:
    """Copy the stored tables' rows until there are ``total``; the rows in all."""
    engine = make_engine(f"sqlite:///{data / 'polignac.db'}")
    with engine.begin() as conn:
        tables = [dict(r._mapping) for r in conn.execute(select(tables_t))]
        seats = [dict(r._mapping) for r in conn.execute(select(seats_t))]
        events = [dict(r._mapping) for r in conn.execute(select(events_t))]
        rows, n = 0, len(tables)
        while n < total:
            batch_t, batch_s, batch_e = [], [], []
            for t in tables[:total - n]:
                new = secrets.token_urlsafe(9)
                batch_t.append({**t, "id": new})
                batch_s += [{**s, "table_id": new} for s in seats if s["table_id"] == t["id"]]
                batch_e += [{**e, "table_id": new} for e in events if e["table_id"] == t["id"]]
            conn.execute(insert(tables_t), batch_t)
            conn.execute(insert(seats_t), batch_s)
            conn.execute(insert(events_t), batch_e)
            rows += len(batch_t) + len(batch_s) + len(batch_e)
            n += len(batch_t)
    engine.dispose()
    return rows


def measure(data: Path, port: int, settle: float) -> tuple[float, int, float]:
    """A server on ``data``: its RSS (MiB) once settled, the tables it holds, and how long
    it took to be ready (s)."""
    start = time.monotonic()
    with served(data, port, "--job-workers", "1") as server:
        ready = time.monotonic() - start
        time.sleep(settle)
        health = httpx.get(server.base + "/health", timeout=10, trust_env=False).json()
        return server.rss_mib(), int(health["tables"]), ready


def main() -> None:
    """Run it and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tables", type=int, default=10_000)
    ap.add_argument("--played", type=int, default=100)
    ap.add_argument("--settle", type=float, default=5.0)
    ap.add_argument("--port", type=int, default=18170)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as full, tempfile.TemporaryDirectory() as empty:
        make_tables(Path(full), args.port, args.played)
        rows = copy_tables(Path(full), args.tables)
        size = (Path(full) / "polignac.db").stat().st_size / 2**20
        print(f"stored     {args.tables} waiting correspondence tables ({args.played} played "
              f"through the server, {rows} rows copied); database {size:.1f} MiB")
        ref_rss, ref_tables, ref_ready = measure(Path(empty), args.port + 1, args.settle)
        print(f"reference  empty server:  RSS {ref_rss:6.1f} MiB, {ref_tables} tables in "
              f"memory, ready in {ref_ready:.1f} s")
        rss, held, ready = measure(Path(full), args.port + 2, args.settle)
        print(f"stored     {args.tables} tables: RSS {rss:6.1f} MiB, {held} tables in memory, "
              f"ready in {ready:.1f} s")
        extra = rss - ref_rss
        print(f"difference {extra:+.1f} MiB ({extra * 2**20 / args.tables:+.0f} bytes a table); "
              f"aim under 50 MB: {'met' if extra * 2**20 < 50e6 else 'NOT met'}")


if __name__ == "__main__":
    main()
