"""Tables that do not replay in a cluster (issue 22, item 2, at its size): no retry loop.

Starts a throwaway PostgreSQL and Redis on 127.0.0.1 (as the tests do) and three
``polignac serve`` processes on that one database with the Redis bus.  Stores
``--tables`` tables (50) whose events do not replay (as
``tests/server/test_poison_tables.py`` forges them) and gives their leases to
process p0, which renews them as its own; then ``kill -9`` p0.  Its leases lapse,
the two others sweep for them, and each table must be marked once (``tables.broken``),
logged once ("does not replay", without a traceback) and never tried again.

Windows are counted in the processes' own sweeps for lapsed leases (``GET
/health``'s ``cluster.sweeps``, about one a second), not in sleeps: a baseline of
``--sweeps`` sweeps of every process before the kill (the poison tables held by
p0), then, once every table is marked and each survivor has swept twice more (a
sweep that listed the tables before they were marked ends), the same number of
sweeps of each survivor.  Over each window it reads each web process's CPU time
(``/proc/PID/stat``: user + system, the process itself, not its worker
children) and its log.

    .venv/bin/python benchmarks/bench_poison_cluster.py [--tables 50] [--sweeps 20]

Prints, per process, CPU over each window (percent of one core) and the log lines
that name a poison table; exit status 1 when a table was logged or marked other
than once, a survivor logged a poison table again in the second window, logged a
traceback, or its CPU over the second window rose by more than ``--cpu-slack``
points (5) over its baseline.  Needs PostgreSQL's server programs and
``redis-server``.  Not a test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.cluster_support import Proc  # noqa: E402
from tests.server.conftest import PgServer, RedisServer, _pg_bin, free_port  # noqa: E402
from tests.server.test_poison_tables import store_poisoned  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
MARK = "does not replay"


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (itself, not its children)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def health(proc: Proc) -> dict[str, Any]:
    """``GET /health`` of ``proc``."""
    answer: dict[str, Any] = httpx.get(proc.base + "/health", timeout=10,
                                       trust_env=False).json()
    return answer


def sweeps(proc: Proc) -> int:
    """Sweeps for lapsed leases ``proc`` has done."""
    return int(health(proc)["cluster"]["sweeps"])


def window(procs: list[Proc], n: int, bound: float) -> dict[str, dict[str, float]]:
    """Wait until each of ``procs`` has swept ``n`` more times (at most ``bound``
    seconds); per process: wall seconds, CPU seconds and CPU percent of one core.

    Raises:
        AssertionError: a process did not sweep ``n`` times within ``bound``.
    """
    start = {p.name: (sweeps(p), time.monotonic(), cpu_seconds(p.pid)) for p in procs}
    out: dict[str, dict[str, float]] = {}
    deadline = time.monotonic() + bound
    while len(out) < len(procs):
        for p in procs:
            if p.name in out:
                continue
            s0, t0, c0 = start[p.name]
            if sweeps(p) >= s0 + n:
                wall, cpu = time.monotonic() - t0, cpu_seconds(p.pid) - c0
                out[p.name] = {"wall_s": wall, "cpu_s": cpu, "cpu_pct": 100 * cpu / wall}
        if time.monotonic() > deadline:
            raise AssertionError(f"no {n} sweeps within {bound} s: {sorted(out)} did")
        time.sleep(0.2)
    return out


def poison_lines(proc: Proc, ids: set[str]) -> list[str]:
    """The lines of ``proc``'s log that name one of ``ids``."""
    text = proc.log.read_text(errors="replace") if proc.log.exists() else ""
    return [line for line in text.splitlines() if any(i in line for i in ids)]


def kinds(lines: list[str]) -> dict[str, int]:
    """Log lines by what they say: a lease taken (``owned by``), the mark (``does not
    replay``), anything else."""
    out = {"owned by": 0, MARK: 0, "other": 0}
    for line in lines:
        out[next((k for k in ("owned by", MARK) if k in line), "other")] += 1
    return out


def marked(url: str, ids: set[str]) -> int:
    """How many of ``ids`` are marked broken (and closed) in the database."""
    from sqlalchemy import select

    from polignac.server.store.db import make_engine
    from polignac.server.store.schema import tables_t
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(tables_t.c.id).where(
                tables_t.c.broken.is_not(None), tables_t.c.closed_at.is_not(None))).all()
    finally:
        engine.dispose()
    return sum(1 for r in rows if r.id in ids)


def run(url: str, bus: str, data: Path, tables: int, n: int, bound: float,
        slack: float) -> tuple[dict[str, Any], list[str]]:
    """The run (see the module): its figures, and what failed (empty: nothing)."""
    from polignac.server.cluster.leases import acquire
    from polignac.server.store.db import make_engine, migrate

    procs = [Proc(f"p{i}", free_port(), url, bus, data, 2.0) for i in range(3)]
    failed: list[str] = []
    try:
        for p in procs:
            p.wait_ready()
        owner = str(health(procs[0])["process"])
        engine = make_engine(url)
        try:
            migrate(engine)
            ids = {f"poison{i:03d}" for i in range(tables)}
            for table_id in sorted(ids):  # p0's, as if it had created them: it renews
                with engine.begin() as conn:  # them (leased first: nobody else sweeps them)
                    acquire(conn, table_id, owner, 60.0)
            for table_id in sorted(ids):
                store_poisoned(engine, table_id)
        finally:
            engine.dispose()
        before = window(procs, n, bound)  # p0 holds them: nobody may touch them
        if marked(url, ids):
            failed.append("a table was marked while its owner lived")
        procs[0].kill()
        killed = time.monotonic()
        survivors = procs[1:]
        while (done := marked(url, ids)) < len(ids):
            if time.monotonic() - killed > bound:
                failed.append(f"{done} of {len(ids)} tables marked {bound:g} s after the kill")
                break
            time.sleep(0.2)
        all_marked = time.monotonic() - killed
        window(survivors, 2, bound)  # a sweep that listed the tables before the marks ends
        lines_then = {p.name: len(poison_lines(p, ids)) for p in survivors}
        after = window(survivors, n, bound)
        lines_now = {p.name: poison_lines(p, ids) for p in survivors}
        logged = [line for p in survivors for line in lines_now[p.name] if MARK in line]
        per_table = {i: sum(1 for line in logged if i in line) for i in ids}
        if sorted(set(per_table.values())) != [1]:
            failed.append("tables logged other than once: " + ", ".join(
                f"{i} {k}" for i, k in sorted(per_table.items()) if k != 1))
        for p in survivors:
            if len(lines_now[p.name]) != lines_then[p.name]:
                failed.append(f"{p.name} named a poison table again in the second window: "
                              + "; ".join(lines_now[p.name][lines_then[p.name]:][:3]))
            text = p.log.read_text(errors="replace")
            if "Traceback" in text:
                failed.append(f"{p.name} logged a traceback")
            if after[p.name]["cpu_pct"] > before[p.name]["cpu_pct"] + slack:
                failed.append(f"{p.name}: CPU {after[p.name]['cpu_pct']:.1f} % after, "
                              f"{before[p.name]['cpu_pct']:.1f} % before")
        figures = {"tables": len(ids), "sweeps_a_window": n,
                   "all_marked_s_after_kill": round(all_marked, 2),
                   "before": before, "after": after,
                   "lines_naming_poison": {p: len(v) for p, v in lines_now.items()},
                   "marked_by": {p.name: sum(1 for line in lines_now[p.name] if MARK in line)
                                 for p in survivors},
                   "line_kinds": {p.name: kinds(lines_now[p.name]) for p in survivors}}
        return figures, failed
    finally:
        for p in procs:
            p.kill()


def main(argv: list[str] | None = None) -> int:
    """Run it; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--sweeps", type=int, default=20,
                        help="sweeps of each process a window (default 20, about 20 s)")
    parser.add_argument("--bound", type=float, default=300.0,
                        help="seconds any wait may take at most (default 300)")
    parser.add_argument("--cpu-slack", type=float, default=5.0,
                        help="percentage points a survivor's CPU may rise (default 5)")
    args = parser.parse_args(argv)
    bin_dir = _pg_bin()
    binary = shutil.which("redis-server")
    if bin_dir is None or binary is None:
        print("needs PostgreSQL's server programs and redis-server", file=sys.stderr)
        return 2
    pg, redis = PgServer(bin_dir), RedisServer(binary)
    data = Path(tempfile.mkdtemp(prefix="polignac-poison-"))
    try:
        pg.start()
        redis.start()
        figures, failed = run(pg.new_database(), redis.url(0), data, args.tables,
                              args.sweeps, args.bound, args.cpu_slack)
    finally:
        redis.stop()
        pg.stop()
        shutil.rmtree(data, ignore_errors=True)
    print(f"{figures['tables']} tables that do not replay, held by p0, killed; all marked "
          f"{figures['all_marked_s_after_kill']} s after the kill; marked (logged) by: "
          + ", ".join(f"{p} {k}" for p, k in figures["marked_by"].items()))
    for name, w in figures["before"].items():
        a = figures["after"].get(name)
        print(f"  {name}: before the kill {w['cpu_pct']:.2f} % CPU ({w['cpu_s']:.2f} s "
              f"over {w['wall_s']:.1f} s, {figures['sweeps_a_window']} sweeps)"
              + ("" if a is None else f"; after every table was marked {a['cpu_pct']:.2f} % "
                 f"({a['cpu_s']:.2f} s over {a['wall_s']:.1f} s, "
                 f"{figures['sweeps_a_window']} sweeps); log lines naming a poison table: "
                 f"{figures['lines_naming_poison'][name]} "
                 f"{figures['line_kinds'][name]}"))
    for line in failed:
        print(f"  ! {line}")
    print("no retry loop" if not failed else "FAILED")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
