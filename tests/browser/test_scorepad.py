"""Keep the score of a real-card `polignac` match (threshold 10) on the score pad page.

Screenshots go to ``$POLIGNAC_SCREENSHOTS`` (default: the test's tmp folder).
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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
NAMES = ["Ann", "Bob", "Cy", "Di"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A live server on 127.0.0.1; stopped after the test."""
    config = ServerConfig(data_dir=tmp_path / "data")
    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(create_app(config), host="127.0.0.1", port=port,
                                        log_level="warning"))
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


def _totals(page: Any) -> list[str]:
    return [page.locator(f"#sp-total-{s}").inner_text() for s in range(4)]


def _enter(page: Any, takers: dict[str, str]) -> None:
    """Choose who took each Jack and score the deal."""
    deals = page.locator("#sp-table tbody tr").count()
    for code, name in takers.items():
        page.select_option(f'[data-field="taken.{code}"]', label=name)
    page.click("#sp-score")
    _wait_until(lambda: page.locator("#sp-table tbody tr").count() == deals + 1)


def test_score_a_polignac_match_to_its_end(server: str, shots: Path) -> None:
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 800})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            missing: list[str] = []
            page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
            page.goto(server + "/")
            page.click("#scorepad-link")
            page.wait_for_url("**/scorepad")
            page.wait_for_selector("body[data-ready='1']", state="attached")
            page.select_option("#sp-preset", "polignac")
            page.select_option("#sp-players", "4")
            for i, name in enumerate(NAMES):
                page.fill(f"[name=name{i}]", name)
            page.fill("#sp-limit", "10")
            page.screenshot(path=shots / "sp-01-setup.png")
            page.click("#sp-start")
            page.wait_for_selector("#entry-panel:not([hidden])")
            assert "Ann deals" in page.inner_text("#sp-entry-title")

            # deal 1, typed with the keyboard: focus is on the first card's select
            page.focus('[data-field="taken.JC"]')
            page.keyboard.press("ArrowDown")
            page.keyboard.press("ArrowDown")  # Bob
            _enter(page, {"JD": "Bob", "JH": "Cy", "JS": "Ann"})
            assert _totals(page) == ["2", "2", "1", "0"]
            assert "Bob deals" in page.inner_text("#sp-entry-title")

            # an incomplete deal: the error names the card, nothing is scored
            page.select_option('[data-field="taken.JC"]', label="Di")
            page.click("#sp-score")
            page.wait_for_selector("#sp-error:has-text('J♦')")
            assert "missing" in page.inner_text("#sp-error")
            assert page.locator('[data-field="taken.JD"].invalid').count() == 1
            page.screenshot(path=shots / "sp-02-error.png", full_page=True)
            page.set_viewport_size({"width": 390, "height": 844})
            page.screenshot(path=shots / "sp-02-phone-form.png", full_page=True)
            page.set_viewport_size({"width": 1000, "height": 800})
            assert page.locator("#sp-table tbody tr").count() == 1

            # a misdeal: the same dealer deals again; the pad survives a reload
            page.click("#sp-misdeal")
            _wait_until(lambda: page.locator("#sp-table tbody tr").count() == 2)
            page.reload()
            page.wait_for_selector("#entry-panel:not([hidden])")
            assert _totals(page) == ["2", "2", "1", "0"]
            assert "Bob deals" in page.inner_text("#sp-entry-title")

            _enter(page, dict.fromkeys(("JC", "JD", "JH", "JS"), "Di"))
            assert _totals(page) == ["2", "2", "1", "5"]
            # undo and enter it again
            page.click("#sp-undo")
            _wait_until(lambda: page.locator("#sp-table tbody tr").count() == 2)
            assert _totals(page) == ["2", "2", "1", "0"]
            _enter(page, dict.fromkeys(("JC", "JD", "JH", "JS"), "Di"))
            page.screenshot(path=shots / "sp-03-running.png", full_page=True)
            _enter(page, {"JC": "Di", "JD": "Di", "JH": "Di", "JS": "Di"})
            assert _totals(page) == ["2", "2", "1", "10"]
            result = page.inner_text("#sp-result")
            assert "Match over" in result
            assert "Winners: Ann, Bob, Cy" in result and "Loser: Di" in result
            assert page.locator("#entry-panel").is_hidden()
            assert page.locator("#sp-total-3.loser").count() == 1
            page.screenshot(path=shots / "sp-04-over.png", full_page=True)
            page.set_viewport_size({"width": 390, "height": 844})
            page.wait_for_timeout(200)
            page.screenshot(path=shots / "sp-05-phone.png", full_page=True)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 400, f"the page is {width}px wide on a phone"
            assert not errors, errors
            assert not [u for u in missing if "scorepad" in u], missing
        finally:
            browser.close()
