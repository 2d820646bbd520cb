"""A ``polignac serve`` process for the benchmarks that time one server from outside.

    with served(data, port, "--job-workers", "1") as server:
        httpx.get(server.base + "/api/presets")
    server.log_lines  # the server's log, read after it stopped
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx


@dataclass
class Served:
    """The running server: its ``base`` URL; ``log_lines`` once it has stopped."""

    base: str
    log: Path
    log_lines: list[str] = field(default_factory=list)
    pid: int = 0
    """The server process's id (its workers are other processes)."""

    def rss_mib(self) -> float:
        """The server process's resident memory now, in MiB (Linux)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")

    def errors(self, *also: str) -> list[str]:
        """The log's lines that say ERROR, a Traceback or any of ``also``."""
        return [line for line in self.log_lines
                if "ERROR" in line or "Traceback" in line or any(a in line for a in also)]


@contextlib.contextmanager
def served(data: Path, port: int, *options: str, ready_s: float = 300.0) -> Iterator[Served]:
    """Run ``polignac serve`` on 127.0.0.1:``port`` with its data in ``data`` (its log to
    ``data/server.log``: an access log would drown the figures) and ``options``; yield
    once ``/ready`` answers 200; stop it after.

    Raises:
        RuntimeError: the server exited, or was not ready within ``ready_s`` seconds.
    """
    log_path = data / "server.log"
    out = Served(f"http://127.0.0.1:{port}", log_path)
    with log_path.open("w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "polignac", "serve", "--port",
                                 str(port), "--data", str(data), *options],
                                stdout=log, stderr=subprocess.STDOUT)
        out.pid = proc.pid
        try:
            deadline = time.monotonic() + ready_s
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"polignac serve exited: see {log_path}")
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(out.base + "/ready", timeout=2,
                                 trust_env=False).status_code == 200:
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"polignac serve was not ready in {ready_s:g} s")
                time.sleep(0.1)
            yield out
        finally:
            proc.terminate()
            proc.wait(30)
    out.log_lines = log_path.read_text().splitlines()
