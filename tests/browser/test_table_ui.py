"""The table page in a real browser: languages, German cards, the last trick, the chart,
four people at one table, a spectator, and a dropped connection.

Screenshots go to ``$POLIGNAC_SCREENSHOTS`` (default: the test's tmp folder).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import open_page, open_table, page_pause, playing, step, wait_until

pytest.importorskip("playwright.sync_api")


def _deal_over(page: Any) -> bool:
    return page.locator("#scores tr").count() >= 3  # header, deal 1, totals


def test_french_labels_german_cards_last_trick_and_chart(chromium: Any,
                                                         server: str, shots: Path) -> None:
    context = chromium.new_context(viewport={"width": 1200, "height": 860},
                                  locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/")
    page.wait_for_selector("#seats select", state="attached")
    assert page.locator("#play-now").inner_text() == "Play now"
    page.select_option("#lang", "fr")
    assert page.locator("#play-now").inner_text() == "Jouer maintenant"
    assert "Place 2" in page.locator("#seats").inner_text()
    page.screenshot(path=shots / "ui-01-lobby-fr.png", full_page=True)
    # An Eichelobern table against three bots, created through the API.
    open_table(page, server, "eichelobern", overrides={"threshold": 10})
    # The language is remembered: French text, German cards with French names.
    assert page.locator("#scores tr").first.inner_text().startswith("Donne")
    assert page.locator("#hand .card-svg.german").count() == 8
    assert page.locator("#hand .gpip").count() > 8
    labels = " ".join(page.locator("#hand .card").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"))
    assert re.search(r"glands|grelots|feuilles|cœurs", labels), labels
    page.screenshot(path=shots / "ui-02-german-fr.png")
    page.select_option("#lang", "de")
    assert page.locator("#scores tr").first.inner_text().startswith("Spiel")
    labels = page.locator("#hand .card").first.get_attribute("aria-label")
    assert re.match(r"(Eichel|Schellen|Grün|Herz)-", labels or ""), labels
    # Play until a trick is done, then look at the last trick (key L).
    wait_until(playing(page, lambda: page.locator("#last-trick-btn:not([disabled])").count()),
               30, what="a finished trick", pause=page_pause(page))
    page.keyboard.press("l")
    page.wait_for_selector("#last-trick .played.winner")
    assert "Letzter Stich" in page.locator("#last-trick").inner_text()
    assert page.locator("#last-trick .played").count() == 4
    page.screenshot(path=shots / "ui-03-last-trick-de.png")
    page.keyboard.press("Escape")
    assert page.locator("#last-trick").is_hidden()
    page.select_option("#lang", "en")
    wait_until(playing(page, lambda: _deal_over(page)), 60, what="the end of the deal",
               pause=page_pause(page))
    page.wait_for_selector("#chart svg.chart path.chart-line", state="attached")
    assert page.locator("#chart .chart-line").count() == 4
    assert page.locator("#lastdeal details[open] li").count() >= 1
    assert "Record (finished deals only)" in page.locator("#record").inner_text()
    page.screenshot(path=shots / "ui-04-chart.png")
    page.locator(".side").screenshot(path=shots / "ui-05-score-sheet.png")
    assert not errors, errors


def test_four_people_spectator_and_dropped_connection(chromium: Any,
                                                      server: str, shots: Path) -> None:
    browser = chromium
    errors: list[str] = []
    pages = []
    for _ in range(4):
        ctx = browser.new_context(viewport={"width": 900, "height": 760}, locale="en-US")
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        pages.append(page)
    ann = pages[0]
    # The first person creates a table with three open seats in the lobby.
    ann.goto(server + "/")
    ann.wait_for_selector("#seats select[name=seat3]", state="attached")
    for i in (1, 2, 3):
        ann.select_option(f"#seats select[name=seat{i}]", "open")
    ann.fill("input[name='rule:threshold']", "3")
    ann.click("#create button[type=submit]")
    ann.wait_for_selector("#created input.invite")
    invites = ann.locator("#created input.invite").evaluate_all(
        "els => els.map(e => e.value)")
    assert len(invites) == 3
    ann.screenshot(path=shots / "ui-06-invites.png")
    # The dropped connection: Ann's socket goes through a route we can close.
    sockets: list[Any] = []

    def through(ws: Any) -> None:
        ws.connect_to_server()
        sockets.append(ws)

    ann.route_web_socket(re.compile(r".*/ws$"), through)
    ann.click("#go-table")
    for k, (page, url) in enumerate(zip(pages[1:], invites, strict=True)):
        page.goto(url)  # the invitation: choose a name, then the seat
        page.fill("#join-name", f"Friend {k + 1}")
        page.click("#join-go")
        page.wait_for_url("**/tables/*")
    for page in pages:
        page.wait_for_selector("#hand .card")
        assert page.locator("#hand .card").count() == 8
    # A spectator: no seat cookie, no hand, a badge.
    watcher = browser.new_context(viewport={"width": 900, "height": 760}).new_page()
    watcher.on("pageerror", lambda exc: errors.append(str(exc)))
    watcher.goto(ann.url)
    watcher.wait_for_selector("#opponents .seat")
    assert watcher.locator("#spectating").is_visible()
    assert watcher.locator("#hand .card").count() == 0
    # Everyone is connected: no "disconnected" badge.
    wait_until(lambda: ann.locator(".badge.away").count() == 0)
    # Play a deal by clicking, whoever is to act.
    dropped = False
    actions = 0

    def deal_played() -> bool:  # one action by whoever is to act
        nonlocal dropped, actions
        if _deal_over(ann):
            return True
        for page in pages:
            if step(page, lambda page=page: _deal_over(page), calls=True):
                actions += 1
                break
        if actions == 6 and not dropped:
            watcher.screenshot(path=shots / "ui-07-spectator.png")
            sockets[0].close(code=1011, reason="test drop")
            wait_until(lambda: ann.wait_for_timeout(30) or len(sockets) >= 2,
                       timeout=60)  # wait_for_timeout lets Playwright run the route
            wait_until(lambda: ann.locator("#conn").inner_text() == "connected",
                       timeout=60)
            ann.wait_for_selector("#hand .card")
            dropped = True
        return False

    wait_until(deal_played, 240,  # a bound, not a pace: 40 s ran out beside a CPU hog
               what="the end of the deal", pause=page_pause(pages[0]))
    assert dropped and actions >= 32
    for page in pages:
        wait_until(lambda page=page: _deal_over(page), timeout=10)
        page.wait_for_selector("#chart svg.chart")
    wait_until(lambda: _deal_over(watcher), timeout=10)
    ann.screenshot(path=shots / "ui-08-four-people.png")
    watcher.screenshot(path=shots / "ui-09-spectator-after.png")
    # The phone layout still fits.
    ann.set_viewport_size({"width": 390, "height": 844})
    ann.wait_for_timeout(200)
    ann.screenshot(path=shots / "ui-10-phone.png", full_page=True)
    assert ann.evaluate("document.documentElement.scrollWidth") <= 400
    assert not errors, errors


def test_match_result_rematch_and_replay_link(chromium: Any, server: str, shots: Path) -> None:
    page, errors = open_page(chromium, 1200, 860, locale="en-US")
    first = open_table(page, server, "polignac", overrides={"threshold": 1})
    wait_until(playing(page, lambda: page.locator("#result:not([hidden])").count()), 40,
               what="the end of the match", pause=page_pause(page))
    assert "Match over" in page.locator("#result-text").inner_text()
    assert page.locator("#record").inner_text() == "Record"
    assert page.locator("#result-replay").get_attribute("href") == first + "/replay"
    assert page.locator("#rematch-watch").is_hidden()
    page.screenshot(path=shots / "ui-11-match-over.png")
    page.click("#rematch")  # asked first: cancel stays, confirm goes
    page.click("#confirm-no")
    page.wait_for_selector("#confirm", state="detached")  # closed, then removed (a task)
    assert page.url.endswith(first)
    page.click("#rematch")
    page.click("#confirm-yes")
    page.wait_for_url(lambda url: not url.endswith(first))
    page.wait_for_selector("#hand .card")
    assert page.locator("#spectating").is_hidden()
    assert page.locator("#rematch-watch").is_hidden()
    assert not errors, errors
