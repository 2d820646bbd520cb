"""The lobby's level picker, and a Play-now table at level hard played by clicking to the
end of a deal (its bots' moves computed in the worker pool).

Screenshots go to ``$POLIGNAC_SCREENSHOTS`` (default: the test's tmp folder).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.browser.support import ARGS, CHROMIUM, wait_until

from polignac.i18n import t
from polignac.server import ServerConfig, create_app

playwright_sync = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")


@pytest.fixture
def quick_server(tmp_path: Path) -> Iterator[str]:
    """A live server on 127.0.0.1 whose bots act without delay."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = ServerConfig(data_dir=tmp_path / "data", bot_delay=0.0, deal_delay=0.5)
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
    thread.join(20)


def test_lobby_offers_each_level_with_its_strength(quick_server: str, shots: Path) -> None:
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(quick_server + "/")
            page.wait_for_selector("#play-level input[name=level]", state="attached")
            values = page.eval_on_selector_all("#play-level input[name=level]",
                                               "xs => xs.map(x => x.value)")
            assert values == ["easy", "medium", "hard"]
            assert page.is_checked("#level-medium")  # the default
            for lang in ("en", "fr", "de"):
                page.select_option("#lang", lang)
                wait_until(lambda lang=lang: page.inner_text("#play-level legend")
                           == t(lang, "lobby.level"))
                about = page.inner_text("#level-hard + .level-name + .level-about")
                assert about == t(lang, "level.about.hard")
                for size in ((1280, 800), (390, 844)):
                    page.set_viewport_size({"width": size[0], "height": size[1]})
                    page.wait_for_timeout(150)
                    page.locator("#play-level").screenshot(
                        path=shots / f"levels-{lang}-{size[0]}.png")
                    width = page.evaluate("document.documentElement.scrollWidth")
                    assert width <= size[0] + 10, f"{lang}: the lobby is {width}px wide"
            assert not errors, errors
        finally:
            browser.close()


def test_play_now_at_hard_by_clicking_to_the_end_of_a_deal(quick_server: str,
                                                           shots: Path) -> None:
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 860})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(quick_server + "/")
            page.wait_for_selector("#level-hard", state="attached")
            page.click("label:has(#level-hard)")
            assert page.is_checked("#level-hard")
            page.click("#play-now")
            page.wait_for_url("**/tables/*")
            page.wait_for_selector("#hand .card")
            assert page.locator("#hand .card").count() == 8
            clicks = 0
            deadline = time.monotonic() + 120
            while page.locator("#scores tr").count() < 3:  # header, deal 1, totals
                assert time.monotonic() < deadline, "the deal did not end"
                call = page.locator("#prompt .call[data-action=pass]")
                legal = page.locator("#hand .card.legal")
                if call.count():
                    call.first.click(timeout=5000)
                    wait_until(lambda: page.locator(
                        "#prompt .call[data-action=pass]").count() == 0)
                elif legal.count():
                    before = page.locator("#hand .card").count()
                    legal.first.click(timeout=5000)
                    clicks += 1
                    wait_until(lambda b=before: page.locator("#hand .card").count() < b
                               or page.locator("#scores tr").count() >= 3, timeout=30)
                else:
                    page.wait_for_timeout(50)
            page.screenshot(path=shots / "hard-deal-over.png")
            assert clicks == 8
            record = page.request.get(page.url + "/record.json").json()
            assert len(record["deals"]) >= 1
            assert record["players"][1:] == [f"Hard bot {n}" for n in (2, 3, 4)], \
                record["players"]
            assert not errors, errors
        finally:
            browser.close()
