#!/usr/bin/env python3
"""Set up and run the project: ``python3 dev.py serve``, ``play`` or ``test``.

Needs only Python 3.11+.  It makes a virtual environment in ``.venv``,
installs the project into it (with the extras the command needs) and runs:

- ``serve``: the web app on http://localhost:8000/ (play against bots or friends);
- ``play``: a match in the terminal (you against bots);
- ``test``: ruff, mypy --strict, the pages' type check (``tsc`` on the ``// @ts-check``
  scripts of ``src/polignac/server/static``, when Node.js and npm are installed) and the
  whole test suite (what CI runs);
- ``bench``: the benchmarks under ``benchmarks/``.

Extra arguments after the command go to the program it runs, for example
``python3 dev.py test -k cards``, ``python3 dev.py serve --port 8080`` or
``python3 dev.py play --preset knaves``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"


def run(*cmd: str | Path, check: bool = True) -> int:
    """Run a command from the project root, echoing it."""
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], cwd=ROOT, check=check).returncode


def ensure_venv(extras: str) -> None:
    """Create .venv if needed and install the project with ``extras``."""
    if sys.version_info < (3, 11):  # noqa: UP036 - the one check a too-old Python must see
        sys.exit(f"polignac needs Python 3.11 or newer, not {sys.version.split()[0]}")
    if not PY.exists():
        run(sys.executable, "-m", "venv", VENV)
    stamp = VENV / f".installed-{extras or 'core'}"
    marker = (ROOT / "pyproject.toml").stat().st_mtime
    if stamp.exists() and stamp.stat().st_mtime >= marker:
        return
    run(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    target = f".[{extras}]" if extras else "."
    run(PY, "-m", "pip", "install", "--quiet", "-e", target)
    stamp.touch()


def ensure_system_packages(packages: dict[str, str]) -> None:
    """Install Debian packages (command -> package) that are missing, when we may."""
    missing = [pkg for cmd, pkg in packages.items() if not shutil.which(cmd)
               and not Path(cmd).exists()]
    if not missing:
        return
    if shutil.which("apt-get") and os.geteuid() == 0:
        run("apt-get", "update", "-qq", check=False)
        run("apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing)
    else:
        print(f"note: missing system packages {missing}; tests that need them are skipped")


def typecheck_js() -> int:
    """Type-check the pages' scripts: ``npm ci`` (TypeScript, pinned in package-lock.json)
    when node_modules is missing or older than the lock, then ``tsc`` with tsconfig.json.
    Without Node.js and npm, print a note and return 0 (the check is skipped)."""
    npm, npx = shutil.which("npm"), shutil.which("npx")
    if not npm or not npx:
        print("note: Node.js/npm not found; the pages' type check (tsc) is skipped")
        return 0
    lock, installed = ROOT / "package-lock.json", ROOT / "node_modules" / ".package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
        status = run(npm, "ci", "--no-audit", "--no-fund", check=False)
        if status:
            return status
    return run(npx, "--no-install", "tsc", "-p", "tsconfig.json", "--noEmit", check=False)


def main(argv: list[str]) -> int:
    """Dispatch ``serve``, ``play``, ``test`` or ``bench``."""
    if not argv or argv[0] not in ("serve", "play", "test", "bench"):
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    if command == "serve":
        ensure_venv("server")
        return run(BIN / "polignac", "serve", *rest, check=False)
    if command == "play":
        ensure_venv("bots")
        return run(BIN / "polignac", "play", *rest, check=False)
    ensure_venv("dev")
    if command == "bench":
        status = 0
        for bench in sorted((ROOT / "benchmarks").glob("bench_*.py")):
            status |= run(PY, bench, *rest, check=False)
        return status
    ensure_system_packages({"/usr/bin/chromium": "chromium",  # tests/browser
                            "/usr/lib/postgresql": "postgresql",  # tests/server (postgres)
                            "/usr/bin/redis-server": "redis-server",  # tests/server (redis)
                            "/usr/sbin/nginx": "nginx"})  # tests/server/test_deploy.py
    status = run(PY, "-m", "ruff", "check", "src", "tests", "benchmarks", "dev.py", check=False)
    status |= run(PY, "-m", "mypy", check=False)
    status |= typecheck_js()
    status |= run(PY, "-m", "pytest", *rest, check=False)
    return 1 if status else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
