"""What every browser test shares: Debian's Chromium and how to launch it, and polling."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's chromium (Playwright cannot download its own browsers here)."""
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
"""Launch flags: root needs --no-sandbox; the rest keep Chromium off the network."""


def wait_until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    """Poll ``check`` (the pages' CSP forbids the string eval of wait_for_function)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.03)
