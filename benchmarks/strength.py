"""Strength proofs: duplicate tournaments with fixed seeds, JSON saved under benchmarks/results/.

Run from the repository root (one tournament at a time, ``--jobs 2``)::

    .venv/bin/python benchmarks/strength.py            # every run below
    .venv/bin/python benchmarks/strength.py polignac-hard   # the named ones only

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
]


def main(names: list[str]) -> None:
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
