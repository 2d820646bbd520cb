"""What every browser test shares: Debian's Chromium and how to launch it, polling, a live
server, and the steps of a table: open a page, open a table, play until a moment.

The fixtures built on these (``server``, ``quick_server``, ``chromium``) are in conftest.py."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from tests.server import waiting

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's chromium (Playwright cannot download its own browsers here)."""
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
"""Launch flags: root needs --no-sandbox; the rest keep Chromium off the network."""


def wait_until(check: Callable[[], Any], timeout: float = 20.0,
               what: str | Callable[[], str] = "the page to get there",
               pause: Callable[[float], object] = time.sleep, interval: float = 0.03) -> Any:
    """Poll ``check`` every ``interval`` seconds until it answers something true, and
    return that (the
    pages' CSP forbids the string eval of wait_for_function); ``timeout`` only guards
    against a hang (:func:`tests.server.waiting.wait_until`); ``pause``: as there
    (:func:`page_pause` lets a page's events run meanwhile)."""
    return waiting.wait_until(check, timeout, what=what, interval=interval, pause=pause)


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

    def started() -> bool:
        assert thread.is_alive(), "server stopped while starting"
        return bool(srv.started)

    waiting.wait_until(started, 30, what="the server to start", interval=0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(20)


def open_page(browser: Any, width: int = 1280, height: int = 800,
              locale: str | None = None) -> tuple[Any, list[str]]:
    """A new page of ``browser`` and the list its uncaught script errors go to (a test
    ends with ``assert not errors, errors``)."""
    page = browser.new_page(viewport={"width": width, "height": height}, locale=locale)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


def open_table(page: Any, server: str, preset: str, level: str = "easy",
               overrides: Mapping[str, object] | None = None, query: str = "") -> str:
    """Create a table of you and three bots at ``level`` (through the API), open it on
    ``page`` (its address followed by ``query``, ``?lang=de`` say) and wait for the
    hand; return the table's path."""
    data: dict[str, object] = {
        "preset": preset, "seats": [{"kind": "you"}] + [{"kind": "bot", "level": level}] * 3}
    if overrides is not None:
        data["overrides"] = dict(overrides)
    r = page.request.post(server + "/api/tables", data=data)
    assert r.ok, r.text()
    url: str = r.json()["url"]
    page.goto(server + url + query)
    page.wait_for_selector("#hand .card")
    return url


def play_now(page: Any, server: str, level: str) -> None:
    """Open the lobby, choose the bots' ``level``, press Play now and wait for the hand."""
    page.goto(server + "/")
    page.wait_for_selector(f"#level-{level}", state="attached")
    page.click(f"label:has(#level-{level})")
    assert page.is_checked(f"#level-{level}")
    page.click("#play-now")
    page.wait_for_url("**/tables/*")
    page.wait_for_selector("#hand .card")


def screenshots(page: Any, folder: Path, name: str) -> None:
    """Screenshots of the whole page in English, French and German, at 390x844 and
    1280x800 (``folder/NAME-LANG-WIDTH.png``); then English at 1280x800 again."""
    for lang in ("en", "fr", "de"):
        page.select_option("#lang", lang)
        for w, h in ((390, 844), (1280, 800)):
            page.set_viewport_size({"width": w, "height": h})
            page.screenshot(path=folder / f"{name}-{lang}-{w}.png", full_page=True)
    page.select_option("#lang", "en")
    page.set_viewport_size({"width": 1280, "height": 800})


def on_a_phone(page: Any, shot: Path, settle: int = 200) -> None:
    """Resize ``page`` to 390x844, take the full-page ``shot`` after ``settle`` ms, and
    check that the page does not scroll sideways (10 pixels of slack)."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(settle)
    page.screenshot(path=shot, full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, f"the page is {width}px wide on a phone"


def step(page: Any, done: Callable[[], bool], calls: bool = False,
         play: Callable[[Any], None] | None = None) -> str:
    """Act once if this page may: pass at the declaration (with ``calls``), else play a
    card (``play(legal)``, given the legal cards' locator; default: click the first)
    and wait (two seconds at most) until it leaves the hand or ``done()``. Returns
    ``pass``, ``card`` or ``""`` (nothing done: not this page's turn, or a play that did
    not count, say a click on a hand redrawn under it: look again)."""
    from playwright.sync_api import Error

    call = page.locator("#prompt .call[data-action=pass]")
    if calls and call.count():
        call.first.click(timeout=5000)
        wait_until(lambda: call.count() == 0)
        return "pass"
    legal = page.locator("#hand .card.legal")
    if not legal.count():
        return ""
    hand = page.locator("#hand .card")
    before = hand.count()
    try:
        if play is None:
            legal.first.click(timeout=2000)
        else:
            play(legal)
    except Error:
        return ""
    end = time.monotonic() + 2
    while hand.count() == before and time.monotonic() < end and not done():
        page.wait_for_timeout(10)
    return "card" if hand.count() < before or done() else ""


def play_until(page: Any, done: Callable[[], bool], seconds: float, what: str,
               calls: bool = False, each: Callable[[], None] | None = None,
               play: Callable[[Any, int], None] | None = None) -> int:
    """:func:`step` until ``done()``; ``each`` runs at every look (a screenshot at the
    right moment); ``play(legal, n)`` plays the card after ``n`` played (default: click
    the first legal card). Returns how many cards this page played.

    ``seconds`` guards against a hang (the assertion says ``what`` did not come); it is
    no speed check."""
    played = 0

    def look() -> bool:
        nonlocal played
        if done():
            return True
        if each is not None:
            each()
        card = None if play is None else lambda legal, n=played: play(legal, n)
        if step(page, done, calls, card) == "card":
            played += 1
        return False

    waiting.wait_until(look, seconds, what=what, interval=0.02, pause=page_pause(page))
    return played


def playing(page: Any, done: Callable[[], Any]) -> Callable[[], bool]:
    """For :func:`wait_until`: whether ``done()``, after one :func:`step` (passing at
    the declaration too) when not yet."""
    def look() -> bool:
        if done():
            return True
        step(page, done, calls=True)
        return False
    return look


def page_pause(page: Any) -> Callable[[float], None]:
    """``wait_until``'s pause on ``page``: Playwright's wait, which runs its events."""
    return lambda seconds: page.wait_for_timeout(seconds * 1000)
