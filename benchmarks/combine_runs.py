"""Combine tournament JSON files run in chunks into one result.

Each chunk is ``polignac tournament ... --seed S --start K --deals N --json``
with the same preset, rules and seats; chunks of one seed with consecutive
starts (0, N, 2N...) are slices of one long run, and different seeds give
independent hand sets, so the per-hand-set scores and paired differences
pool exactly (:func:`polignac.bots.stats.pool`: from each chunk's count,
mean and sd).  A hand set found in two chunks is refused.

Run::

    PYTHONPATH=src python3 benchmarks/combine_runs.py chunk-*.json [--out all.json]

Prints one line per bot (mean, paired diff vs the first bot, ms per move) and
writes the combined JSON (same shape, ``seed`` and ``start`` lists, ``deals``
the total).
Needs nothing beyond the standard library and polignac.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from polignac.bots.stats import MeanCI, pool


def _ci(d: dict[str, Any]) -> MeanCI:
    return MeanCI(d["mean"], d["half_width"], d["n"], d["sd"])


def combine(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The pooled result of ``runs`` (tournament JSON dicts).

    Raises:
        ValueError: no runs, runs of different presets, rules or seats, or
            a hand set (seed and index) in two runs.
    """
    if not runs:
        raise ValueError("no runs to combine")
    first = runs[0]
    for r in runs[1:]:
        for key in ("preset", "rules", "seats"):
            if r[key] != first[key]:
                raise ValueError(f"runs differ in {key}: {first[key]!r} and {r[key]!r}")
    seen: set[tuple[int, int]] = set()
    for r in runs:
        sets = {(r["seed"], i) for i in range(r.get("start", 0), r.get("start", 0) + r["deals"])}
        if sets & seen:
            raise ValueError(f"seed {r['seed']}: hand sets from {r.get('start', 0)} "
                             "are in two runs; they would count twice")
        seen |= sets
    bots = []
    for i, b in enumerate(first["bots"]):
        parts = [r["bots"][i] for r in runs]
        moves = sum(p["moves"] for p in parts)
        ms = sum(p["ms_per_move"] * p["moves"] for p in parts) / moves if moves else 0.0
        diffs = [p["diff_vs_first"] for p in parts]
        bots.append({
            "bot": b["bot"],
            "entrants": b["entrants"],
            "score": pool([_ci(p["score"]) for p in parts]).to_dict(),
            "diff_vs_first": (None if any(d is None for d in diffs)
                              else pool([_ci(d) for d in diffs]).to_dict()),
            "match_win_rate": None,
            "moves": moves,
            "ms_per_move": ms,
        })
    return {**first, "deals": sum(r["deals"] for r in runs), "matches": 0,
            "seed": [r["seed"] for r in runs], "start": [r.get("start", 0) for r in runs],
            "elapsed_s": sum(r["elapsed_s"] for r in runs), "bots": bots}


def main(argv: list[str] | None = None) -> int:
    """Combine the files named on the command line; return the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    runs = []
    for name in args.files:
        with open(name, encoding="utf-8") as f:
            runs.append(json.load(f))
    result = combine(runs)
    print(f"{result['preset']} {','.join(result['seats'])}: {result['deals']} hand sets, "
          f"seeds {result['seed']} ({result['unit']}, "
          f"{'lower' if result['lower_is_better'] else 'higher'} is better)")
    for b in result["bots"]:
        s, d = b["score"], b["diff_vs_first"]
        diff = "" if d is None else f"  diff vs first {d['mean']:+.3f} ± {d['half_width']:.3f}"
        print(f"  {b['bot']:<24} {s['mean']:.3f} ± {s['half_width']:.3f}{diff}"
              f"  {b['ms_per_move']:.0f} ms/move")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
