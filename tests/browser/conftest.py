"""Browser tests: a live server on loopback, screenshots, Chromium or a clear skip."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.browser.support import CHROMIUM

pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from polignac.server import ServerConfig, create_app  # noqa: E402


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test here `browser`; skip them, saying why, without Chromium."""
    skip = pytest.mark.skipif(not CHROMIUM.exists(),
                              reason="needs Debian's chromium at /usr/bin/chromium "
                                     "(python3 dev.py test installs it when run as root)")
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).parent == here:
            item.add_marker(pytest.mark.browser)
            item.add_marker(skip)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A live server on 127.0.0.1 with fast bots; stopped after the test."""
    config = ServerConfig(data_dir=tmp_path / "data", bot_delay=0.05, trick_pause=0.0,
                          deal_delay=0.5)
    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(create_app(config), host="127.0.0.1", port=port,
                                        log_level="warning", ws_max_size=64 * 1024))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not srv.started:
        assert time.monotonic() < deadline, "server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: ``$POLIGNAC_SCREENSHOTS``, else the test's tmp folder."""
    folder = Path(os.environ.get("POLIGNAC_SCREENSHOTS", tmp_path / "shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
