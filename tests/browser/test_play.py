"""Open the lobby, click Play now, and play a whole deal by clicking legal cards.

Screenshots go to ``$POLIGNAC_SCREENSHOTS`` (default: the test's tmp folder).
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Debian's chromium at /usr/bin/chromium "
                              "(python3 dev.py test installs it when run as root)"),
]
playwright_sync = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from polignac.server import ServerConfig, create_app  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A live server on 127.0.0.1 with fast bots; stopped after the test."""
    config = ServerConfig(data_dir=tmp_path / "data", bot_delay=0.05, deal_delay=0.5)
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
    """Where screenshots go."""
    folder = Path(os.environ.get("POLIGNAC_SCREENSHOTS", tmp_path / "shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _wait_until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    """Poll ``check`` (the page's CSP forbids the string eval of wait_for_function)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.03)


def test_play_a_deal_by_clicking(server: str, shots: Path) -> None:
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 860})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(server + "/")
            page.wait_for_selector("#seats select", state="attached")
            page.screenshot(path=shots / "01-lobby.png")
            page.click("#play-now")
            page.wait_for_url("**/tables/*")
            page.wait_for_selector("#hand .card")
            assert page.locator("#hand .card").count() == 8
            page.screenshot(path=shots / "02-table.png")
            clicks = 0
            mid = False
            deadline = time.monotonic() + 60
            while page.locator("#scores tr").count() < 3:  # header, deal 1, totals
                assert time.monotonic() < deadline, "the deal did not end"
                call = page.locator("#prompt .call[data-action=pass]")
                legal = page.locator("#hand .card.legal")
                if call.count():
                    call.first.click(timeout=5000)
                    _wait_until(lambda: page.locator(
                        "#prompt .call[data-action=pass]").count() == 0)
                elif legal.count():
                    if clicks == 3 and not mid:
                        page.screenshot(path=shots / "03-my-turn.png")
                        mid = True
                    before = page.locator("#hand .card").count()
                    if clicks % 2:
                        legal.first.click(timeout=5000)
                    else:  # keyboard play
                        page.keyboard.press("ArrowRight")
                        page.keyboard.press("Enter")
                    clicks += 1
                    _wait_until(lambda b=before: page.locator("#hand .card").count() < b
                                or page.locator("#scores tr").count() >= 3)
                else:
                    page.wait_for_timeout(50)
            page.screenshot(path=shots / "04-deal-over.png")
            assert clicks == 8
            assert page.locator("#lastdeal li").count() >= 1
            page.wait_for_selector("#hand .card", timeout=10000)  # the next deal comes
            page.set_viewport_size({"width": 390, "height": 844})
            page.wait_for_timeout(300)
            page.screenshot(path=shots / "05-phone.png", full_page=True)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 400, f"the page is {width}px wide on a phone"
            record = page.request.get(page.url + "/record.json").json()
            assert record["format"] == "polignac-record/1" and len(record["deals"]) >= 1
            assert not errors, errors
        finally:
            browser.close()
