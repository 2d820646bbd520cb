"""Start-up time of the ``polignac`` command, beside ``python -c pass`` in the same run.

    .venv/bin/python benchmarks/bench_startup.py [--runs N] [--importtime]

Runs each command ``--runs`` times (default 10), alternating with the reference
``python -c pass``, and prints the median wall time of each, the time over the
reference, and the ratio.  The commands: ``polignac --help``, ``polignac rules
polignac``, ``polignac replay FILE --json`` (the bundled example record) and
``polignac presets``.  The aim (issue 19): each at most 0.25 s.

Bytecode is compiled first into a private cache (``PYTHONPYCACHEPREFIX``), as an
installed package has it: without it every run compiles the sources again, which a
user's installation never does.  ``--importtime`` also prints the ten slowest
imports of each command (``python -X importtime``), and the packages it loads that
the command should not need (the bots' numba, the server).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

HEAVY = ("numba", "numpy", "polignac.bots", "polignac.server", "starlette", "sqlalchemy")


def _env(cache: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = cache
    return env


def _wall(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    return time.perf_counter() - start


def _imports(cmd: list[str], env: dict[str, str]) -> tuple[list[tuple[int, str]], set[str]]:
    """The slowest imports of ``cmd`` (self microseconds, module) and the heavy ones."""
    done = subprocess.run([cmd[0], "-X", "importtime", *cmd[1:]], env=env, check=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    rows: list[tuple[int, str]] = []
    for line in done.stderr.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) == 3 and parts[0].strip().isdigit():
            rows.append((int(parts[0]), parts[2].strip()))
    heavy = {name for _, name in rows if name.startswith(HEAVY)}
    return sorted(rows, reverse=True)[:10], heavy


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--importtime", action="store_true")
    args = parser.parse_args()
    py = sys.executable
    record = resources.files("polignac") / "data" / "records" / "polignac-4p-seed1.json"
    commands = {
        "polignac --help": ["--help"],
        "polignac rules polignac": ["rules", "polignac"],
        "polignac replay FILE --json": ["replay", str(record), "--json"],
        "polignac presets": ["presets"],
    }
    with tempfile.TemporaryDirectory() as cache:
        env = _env(cache)
        ref = [py, "-c", "pass"]
        for argv in commands.values():  # compile the bytecode once, as an install does
            _wall([py, "-m", "polignac", *argv], env)
        print(f"{'command':<30} {'median s':>9} {'pass s':>7} {'over s':>7} {'ratio':>6}"
              f" {'<= 0.25 s':>9}")
        for label, argv in commands.items():
            ours, base = [], []
            for _ in range(args.runs):
                ours.append(_wall([py, "-m", "polignac", *argv], env))
                base.append(_wall(ref, env))
            m, b = statistics.median(ours), statistics.median(base)
            print(f"{label:<30} {m:>9.3f} {b:>7.3f} {m - b:>7.3f} {m / b:>6.1f}"
                  f" {'yes' if m <= 0.25 else 'no':>9}")
        if args.importtime:
            for label, argv in commands.items():
                slow, heavy = _imports([py, "-m", "polignac", *argv], env)
                print(f"\n{label}: slowest imports (self ms); heavy: "
                      f"{', '.join(sorted(heavy)) or 'none'}")
                for us, name in slow:
                    print(f"  {us / 1000:7.1f}  {name}")
    print(f"\nPython {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.2f}; {Path(py).name} -m polignac")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
