"""A page whose scripts do not all load (static/boot.js): the table page reloads itself
once and plays; when a script keeps failing, the page says so in the player's language,
with a button to try again, instead of showing "connecting…" for ever.  And the server
side of the same story: a burst of requests from one address waits for a place instead
of being refused (httplimits.RequestCounts' line)."""

from __future__ import annotations

from typing import Any

from polignac.server import ServerConfig

from .support import live_server, open_page

SEATS = [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * 3


def _new_table(page: Any, server: str) -> str:
    r = page.request.post(server + "/api/tables", data={"preset": "polignac", "seats": SEATS})
    assert r.ok, r.text()
    url: str = r.json()["url"]
    return server + url


def test_a_script_refused_once_is_fetched_again_by_a_reload(server: str,
                                                           chromium: Any) -> None:
    page, errors = open_page(chromium)
    asked: list[str] = []

    def busy_once(route: Any) -> None:
        asked.append(route.request.url)
        if len(asked) == 1:
            route.fulfill(status=429, body="busy")
        else:
            route.continue_()

    page.route("**/static/table-hints.js", busy_once)
    page.goto(_new_table(page, server))
    page.wait_for_selector("#hand .card", timeout=30_000)
    assert len(asked) == 2, asked  # refused, then fetched again by the reload
    assert page.locator("#load-failed").count() == 0
    assert not errors, errors
    page.close()


def test_a_script_that_keeps_failing_is_said_with_a_button_to_retry(server: str,
                                                                   chromium: Any) -> None:
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    page = context.new_page()
    asked: list[str] = []

    def busy(route: Any) -> None:
        asked.append(route.request.url)
        route.fulfill(status=502, body="bad gateway")

    page.route("**/static/table-render.js", busy)
    url = _new_table(page, server)
    page.goto(url)
    box = page.wait_for_selector("#load-failed", timeout=30_000)
    assert len(asked) == 2, asked  # one reload, then no loop
    assert "ne s’est pas chargée" in box.inner_text()
    assert page.inner_text("#load-failed button") == "Recharger"
    page.unroute("**/static/table-render.js")
    page.click("#load-failed button")
    page.wait_for_selector("#hand .card", timeout=30_000)
    assert page.locator("#load-failed").count() == 0
    context.close()


def test_a_burst_from_one_address_waits_instead_of_failing(tmp_path: Any,
                                                           chromium: Any) -> None:
    """Two requests at once per address, a line of 64: three browsers on one address
    open the table page at once (each some thirty scripts); all three get their hand,
    none of the answers was a 429, and some requests waited for a place."""
    config = ServerConfig(data_dir=tmp_path / "data", bot_delay=0, deal_delay=0,
                          max_requests_per_client=2)
    with live_server(config) as server:
        contexts = [chromium.new_context() for _ in range(3)]
        pages = [context.new_page() for context in contexts]
        refused: list[str] = []
        for page in pages:
            page.on("response",
                    lambda r: refused.append(r.url) if r.status == 429 else None)
        urls = [_new_table(page, server) for page in pages]
        for page, url in zip(pages, urls, strict=True):
            page.evaluate("url => { location.href = url; }", url)  # all three at once
        for page in pages:
            page.wait_for_selector("#hand .card", timeout=60_000)
        assert not refused, refused
        health = pages[0].request.get(server + "/health").json()
        assert health["http"]["waited"] > 0, health["http"]
        for context in contexts:
            context.close()
