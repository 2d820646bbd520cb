"""Browser tests: a live server on loopback, screenshots, Chromium or a clear skip."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import ARGS, CHROMIUM, live_server

pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from polignac.server import ServerConfig  # noqa: E402


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


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A live server on 127.0.0.1 with fast bots; stopped after the test."""
    config = ServerConfig(data_dir=tmp_path / "data", bot_delay=0.05, trick_pause=0.0,
                          deal_delay=0.5)
    with live_server(config) as url:
        yield url


@pytest.fixture
def quick_server(tmp_path: Path) -> Iterator[str]:
    """A live server whose bots act and deal at once (no delays, no cut window)."""
    config = ServerConfig(data_dir=tmp_path / "data", bot_delay=0, deal_delay=0, cut_window=0,
                          trick_pause=0)
    with live_server(config) as url:
        yield url


@pytest.fixture
def chromium() -> Iterator[Any]:
    """Debian's Chromium, launched through Playwright; closed after the test."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: ``$POLIGNAC_SCREENSHOTS``, else the test's tmp folder."""
    folder = Path(os.environ.get("POLIGNAC_SCREENSHOTS", tmp_path / "shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
