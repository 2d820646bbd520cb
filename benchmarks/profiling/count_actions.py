"""Instructions per action of one ``bench_core.py`` row, counted by valgrind (not a test).

Runs the row's own runner (``bench_core.py:deal_runner``, ``match_runner`` or
``hearts_runner``) on ``--warm`` deals (seed 99: the tables and caches a long run
fills), then on N deals (seed 1), and prints the player actions of the second run.
Under ``valgrind --tool=callgrind`` with N deals and with none, the difference of the
two instruction totals over those actions is the row's cost per action, which the
machine's load does not move::

    for n in 0 60; do
      PYTHONHASHSEED=0 PYTHONPATH=src valgrind --tool=callgrind \\
        --callgrind-out-file=/tmp/cg.$n .venv/bin/python \\
        benchmarks/profiling/count_actions.py knaves3 $n --warm 300
    done
    # (Ir of /tmp/cg.60 - Ir of /tmp/cg.0) / ACTIONS of the 60-deal run

Rows: polignac4, polignac6, slobber4, knaves3, bassa4, pollack4, match4, blacklady4,
hearts (OpenSpiel's, as bench_core plays it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench_core  # the benchmark's own runners (after the path above)

ROWS = {
    "polignac4": lambda: bench_core.deal_runner("polignac", 4),
    "polignac6": lambda: bench_core.deal_runner("polignac-fr", 6),
    "slobber4": lambda: bench_core.deal_runner("slobberhannes", 4),
    "knaves3": lambda: bench_core.deal_runner("knaves", 3),
    "bassa4": lambda: bench_core.deal_runner("bassadewitz", 4),
    "pollack4": lambda: bench_core.deal_runner("pollack", 4),
    "match4": lambda: bench_core.match_runner("polignac", 4),
    "blacklady4": lambda: bench_core.deal_runner("black-lady", 4),
    "hearts": bench_core.hearts_runner,
}


def main(argv: list[str] | None = None) -> int:
    """Run the row; print ``ACTIONS n``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("row", choices=sorted(ROWS))
    parser.add_argument("deals", type=int)
    parser.add_argument("--warm", type=int, default=300, help="warm-up deals (seed 99)")
    args = parser.parse_args(argv)
    run = ROWS[args.row]()
    if run is None:
        print("open_spiel is not installed", file=sys.stderr)
        return 1
    if args.warm:
        run(args.warm, 99)
    actions, _chance = run(args.deals, 1)
    print("ACTIONS", actions)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
