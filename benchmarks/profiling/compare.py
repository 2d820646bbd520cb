"""Compare the profiles ``bench_server.py --profile DIR`` wrote: CPU per action of each
function, one process against several.

    .venv/bin/python benchmarks/profiling/compare.py DIR            # DIR/w1 against DIR/w2
    .venv/bin/python benchmarks/profiling/compare.py DIR --by file  # by module
    .venv/bin/python benchmarks/profiling/compare.py DIR --cumulative --grep leases

Each run's profiles (every process and thread of ``DIR/wN``) are added together and
divided by the actions played (``DIR/wN/figures.json``): microseconds of a thread's CPU
per action, as cProfile measured it (its own cost included, so the totals are larger
than the benchmark's).  Rows are sorted by what the last run spends more than the
first.  Not a test.
"""

from __future__ import annotations

import argparse
import json
import marshal
import re
from pathlib import Path
from typing import Any

Key = tuple[str, int, str]


def load(folder: Path, pattern: str = "*.prof") -> tuple[dict[Key, list[float]], int]:
    """Every profile in ``folder`` added: function -> [calls, own s, cumulative s]; and
    the actions played.  Cumulative times of a function that appears in several threads
    are added too (a recursion's are counted once a thread)."""
    out: dict[Key, list[float]] = {}
    for path in sorted(folder.glob(pattern)):
        with path.open("rb") as f:
            stats: dict[Key, Any] = marshal.load(f)
        for func, (_cc, nc, tt, ct, _callers) in stats.items():
            row = out.setdefault(func, [0, 0.0, 0.0])
            row[0] += nc
            row[1] += tt
            row[2] += ct
    figures = json.loads((folder / "figures.json").read_text())
    return out, int(figures["actions"])


def name(func: Key, by: str) -> str:
    """A readable name of a function (or its file, ``by="file"``)."""
    file, line, fn = func
    short = re.sub(r"^.*?/(site-packages|src|lib/python3\.\d+)/", "", file)
    if by == "file":
        return short if file != "~" else fn
    return f"{short}:{line}:{fn}" if file != "~" else fn


def main(argv: list[str] | None = None) -> int:
    """Print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--runs", default="w1,w2", help="sub-folders to compare (w1,w2)")
    parser.add_argument("--by", choices=("function", "file"), default="function")
    parser.add_argument("--cumulative", action="store_true",
                        help="cumulative time (callees included) instead of own time")
    parser.add_argument("--grep", default=None, help="only the rows matching this regex")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--threads", default="*.prof",
                        help="which profiles: *-main.prof (event loops), *-t*.prof (others)")
    args = parser.parse_args(argv)
    runs = []
    for run in args.runs.split(","):
        stats, actions = load(args.folder / run, args.threads)
        rows: dict[str, list[float]] = {}
        for func, (nc, tt, ct) in stats.items():
            row = rows.setdefault(name(func, args.by), [0.0, 0.0])
            row[0] += nc / actions
            row[1] += 1e6 * (ct if args.cumulative else tt) / actions
        total = 1e6 * sum(tt for _nc, tt, _ct in stats.values()) / actions
        runs.append((run, rows, total, actions))
    print("total own CPU per action (µs): " + ", ".join(
        f"{run} {total:.0f} ({actions} actions)" for run, _r, total, actions in runs))
    keys = set().union(*(rows for _run, rows, _t, _a in runs))
    if args.grep:
        keys = {k for k in keys if re.search(args.grep, k)}
    first, last = runs[0][1], runs[-1][1]
    order = sorted(keys, key=lambda k: -(last.get(k, [0, 0])[1] - first.get(k, [0, 0])[1]))
    head = "".join(f"{run + ' calls':>10} {run + ' µs':>9}" for run, *_ in runs)
    print(f"{head}  {'diff µs':>8}  function")
    for key in order[:args.top]:
        cells = "".join(f"{r.get(key, [0, 0])[0]:10.2f} {r.get(key, [0, 0])[1]:9.1f}"
                        for _run, r, _t, _a in runs)
        diff = last.get(key, [0, 0])[1] - first.get(key, [0, 0])[1]
        print(f"{cells}  {diff:8.1f}  {key}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
