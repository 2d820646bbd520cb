"""Failover time of several ``polignac serve`` processes: from ``kill -9`` of a
table's owner to the next acknowledged action.

Starts a throwaway PostgreSQL (and, with ``--bus redis``, a Redis) on 127.0.0.1
as the tests do, three ``polignac serve`` processes on them, one table of four
people spread over the processes and a spectator; kills the table's owner at a
random moment (a few milliseconds after an action was sent) ``--kills`` times,
starting a new process in its place each time; every viewer reconnects to a live
process with its last seq.  Prints p50 and max of the failover time and checks,
as tests/server/test_cluster.py does, that nothing acknowledged was lost.

    .venv/bin/python benchmarks/bench_failover.py [--kills 6] [--bus redis|postgres]
        [--lease-seconds 2] [--seed S] [--machines]

``--machines``: each process plays a machine of its own (nothing handed between
them, no proxy in front), so that the sockets that land off the owner are
forwarded over the bus (relay.py) through each takeover.

Not a test (it asserts only what the test asserts).  Needs PostgreSQL's server
programs and, for ``--bus redis``, ``redis-server``.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    """Run the kills; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=6, help="kills (default 6)")
    parser.add_argument("--bus", choices=["redis", "postgres"], default="redis")
    parser.add_argument("--lease-seconds", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--machines", action="store_true",
                        help="each process on a machine of its own: sockets forwarded")
    args = parser.parse_args(argv)
    from tests.server.conftest import PgServer, RedisServer, _pg_bin
    from tests.server.test_cluster import _check, run_kills

    bin_dir = _pg_bin()
    if bin_dir is None:
        print("PostgreSQL is not installed", file=sys.stderr)
        return 2
    pg = PgServer(bin_dir)
    redis = None
    data = Path(tempfile.mkdtemp(prefix="polignac-failover-"))
    try:
        pg.start()
        url = pg.new_database()
        bus = url
        if args.bus == "redis":
            binary = shutil.which("redis-server")
            if binary is None:
                print("redis-server is not installed", file=sys.stderr)
                return 2
            redis = RedisServer(binary)
            redis.start()
            bus = redis.url(0)
        times: list[float] = []
        result = run_kills(url, bus, data, args.kills, args.seed, times,
                           args.lease_seconds, machines=args.machines)
        _check(result, result["kills"])
        print(f"bus {args.bus}, lease {args.lease_seconds:g} s, 3 processes"
              f"{' on 3 machines' if args.machines else ''}, "
              f"{len(result['acked'])} acknowledged actions, {result['kills']} kills, "
              f"{len(result['refused'])} actions refused around a kill (then resent)")
        print(f"failover (kill -9 to the next acknowledged action): p50 "
              f"{statistics.median(times):.2f} s, max {max(times):.2f} s, each: "
              + ", ".join(f"{t:.2f}" for t in times))
        print("nothing acknowledged lost; every viewer saw the stored order; every "
              "final state equals the record replayed in one process")
    finally:
        if redis is not None:
            redis.stop()
        pg.stop()
        shutil.rmtree(data, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
