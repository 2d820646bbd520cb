"""Strength proofs: duplicate tournaments with fixed seeds, JSON saved under benchmarks/results/.

Run from the repository root (one tournament at a time, ``--jobs 2``)::

    .venv/bin/python benchmarks/strength.py            # every run below
    .venv/bin/python benchmarks/strength.py polignac-hard   # the named ones only
    .venv/bin/python benchmarks/strength.py --table         # the saved results, as Markdown

Each run is ``polignac tournament --preset P --bots B --deals N --seed S --jobs 2 --json``;
its JSON goes to ``benchmarks/results/<name>.json``.  docs/bots.md ("Measured
strength") records the results.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "results"
CLI = str(ROOT / ".venv" / "bin" / "polignac")

# name, preset, bots, deals, seed (in order of priority)
RUNS: list[tuple[str, str, str, int, int]] = [
    ("polignac-hard", "polignac", "hard,medium,medium,medium", 2000, 101),
    ("polignac-medium", "polignac", "medium,easy,easy,easy", 2000, 102),
    ("polignac-easy", "polignac", "easy,random,random,random", 2000, 103),
    ("polignac-expert", "polignac", "expert,medium,medium,medium", 200, 104),
    ("polignac-oracle", "polignac", "oracle,medium,medium,medium", 200, 104),
    ("slobberhannes-hard", "slobberhannes", "hard,medium,medium,medium", 200, 105),
    ("bassadewitz-hard", "bassadewitz", "hard,medium,medium,medium", 200, 106),
    ("pollack-hard", "pollack", "hard,medium,hard,medium", 200, 107),
    ("slobberhannes-medium", "slobberhannes", "medium,easy,easy,easy", 1000, 115),
    ("slobberhannes-easy", "slobberhannes", "easy,random,random,random", 1000, 125),
    ("knaves-medium", "knaves", "medium,easy,easy", 1000, 118),
    ("knaves-easy", "knaves", "easy,random,random", 1000, 128),
    ("bassadewitz-medium", "bassadewitz", "medium,easy,easy,easy", 1000, 116),
    ("bassadewitz-easy", "bassadewitz", "easy,random,random,random", 1000, 126),
    ("pollack-medium", "pollack", "medium,easy,medium,easy", 1000, 117),
    ("pollack-easy", "pollack", "easy,random,easy,random", 1000, 127),
    ("knaves-hard", "knaves", "hard,medium,medium", 100, 108),
    # second round: the expert/oracle gap at full size, Pollack medium v easy again
    ("polignac-oracle-2000", "polignac", "oracle,medium,medium,medium", 2000, 204),
    ("pollack-medium-5000", "pollack", "medium,easy,medium,easy", 5000, 217),
    ("polignac-expert-2000", "polignac", "expert,medium,medium,medium", 2000, 204),
    # third round: the other games' lower rungs at 2,000 hand sets, the search rung as
    # large as a session allows (Knaves' 17-card playouts are the slowest)
    ("slobberhannes-medium-2000", "slobberhannes", "medium,easy,easy,easy", 2000, 315),
    ("slobberhannes-easy-2000", "slobberhannes", "easy,random,random,random", 2000, 325),
    ("knaves-medium-2000", "knaves", "medium,easy,easy", 2000, 318),
    ("knaves-easy-2000", "knaves", "easy,random,random", 2000, 328),
    ("bassadewitz-medium-2000", "bassadewitz", "medium,easy,easy,easy", 2000, 316),
    ("bassadewitz-easy-2000", "bassadewitz", "easy,random,random,random", 2000, 326),
    ("pollack-easy-2000", "pollack", "easy,random,easy,random", 2000, 327),
    ("slobberhannes-hard-1000", "slobberhannes", "hard,medium,medium,medium", 1000, 305),
    ("bassadewitz-hard-1000", "bassadewitz", "hard,medium,medium,medium", 1000, 306),
    ("knaves-hard-300", "knaves", "hard,medium,medium", 300, 308),
    # expert with medium as its play model; a second oracle that uses its sight only
    # through the exact solver (medium play until the solver reaches the endgame)
    # fourth round: hard and expert with 16 playouts (the new default; the runs above
    # used 6 for hard and 8 for expert: add `:rollouts=6` / `:rollouts=8` to repeat them)
    ("pollack-hard-16", "pollack", "hard,medium,hard,medium", 500, 407),
    ("polignac-expert-16", "polignac", "expert,medium,medium,medium", 500, 204),
    ("polignac-hard-16", "polignac", "hard,medium,medium,medium", 2000, 101),
    ("polignac-expert-1000", "polignac", "expert:rollouts=8,medium,medium,medium", 1000, 204),
    ("polignac-oracle-solver-2000", "polignac",
     "oracle:late=5,roll=5,nodes=2000000,medium,medium,medium", 2000, 204),
]


def table() -> str:
    """A Markdown table of every run whose JSON is in ``benchmarks/results``."""
    import json

    rows = ["| run | preset | bots | hand sets | seed | first bot per deal | others: diff vs "
            "first | first bot ms/move |", "| --- | --- | --- | ---: | ---: | --- | --- | ---: |"]
    for name, preset, bots, _deals, seed in RUNS:
        path = OUT / f"{name}.json"
        if not path.exists():
            continue
        d = json.loads(path.read_text())
        first, *others = d["bots"]
        diffs = "; ".join(
            f"{b['bot']} {b['diff_vs_first']['mean']:+.3f} ± {b['diff_vs_first']['half_width']:.3f}"
            for b in others if b["diff_vs_first"])
        score = first["score"]
        rows.append(f"| {name} | {preset} | `{bots}` | {d['deals']} | {seed} | "
                    f"{score['mean']:.3f} ± {score['half_width']:.3f} | {diffs} | "
                    f"{first['ms_per_move']:.1f} |")
    return "\n".join(rows)


def main(names: list[str]) -> None:
    if names == ["--table"]:
        print(table())
        return
    OUT.mkdir(parents=True, exist_ok=True)
    for name, preset, bots, deals, seed in RUNS:
        if names and name not in names:
            continue
        cmd = [CLI, "tournament", "--preset", preset, "--bots", bots, "--deals", str(deals),
               "--seed", str(seed), "--jobs", "2", "--json"]
        start = time.time()
        res = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if res.returncode != 0:
            print(f"{name}: FAILED rc={res.returncode}\n{res.stderr[-2000:]}", flush=True)
            continue
        (OUT / f"{name}.json").write_text(res.stdout)
        print(f"{name}: {' '.join(cmd[1:])} ({time.time() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
