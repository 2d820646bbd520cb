"""What every browser test shares: Debian's Chromium and how to launch it, and polling."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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


@contextlib.contextmanager
def live_server(config: Any) -> Iterator[str]:
    """Serve ``create_app(config)`` with uvicorn on a free port of 127.0.0.1 in a thread;
    yields its URL and stops it afterwards (a failure to start fails the test)."""
    import uvicorn

    from polignac.server import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(config), host="127.0.0.1", port=port,
                                        log_level="warning", ws_max_size=64 * 1024))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not srv.started:
        assert time.monotonic() < deadline, "server did not start"
        assert thread.is_alive(), "server stopped while starting"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(20)
