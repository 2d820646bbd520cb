"""Friends in real browsers: copy an invite link, a friend chooses a name and sits
down, the creator sees the links again and approves a stranger's request; a stranger
can neither see nor take a seat at someone's Play-now table; error pages.

Screenshots at 1280x800 (the creator) and 390x844 (the friends), in
``$POLIGNAC_SCREENSHOTS`` or the test's tmp folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import wait_until

pytest.importorskip("playwright.sync_api")

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _narrow_enough(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 10, f"the page is {width}px wide on a phone"


def test_copy_invite_join_with_a_name_and_approve_a_request(chromium: Any, server: str,
                                                            shots: Path) -> None:
    errors: list[str] = []
    ann_ctx = chromium.new_context(viewport=DESKTOP)
    ann_ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    ann = ann_ctx.new_page()
    ann.on("pageerror", lambda exc: errors.append(str(exc)))
    ann.goto(server + "/")
    ann.wait_for_selector("#seats select[name=seat3]", state="attached")
    ann.fill("#create input[name=name]", "Ann")
    assert ann.locator("#private").is_checked()  # you and bots: private
    ann.select_option("#seats select[name=seat1]", "open")
    assert not ann.locator("#private").is_checked()  # a seat for a friend: public
    ann.click("#create button[type=submit]")
    ann.wait_for_selector("#created .invite-row .copy")
    link = ann.locator("#created input.invite").input_value()
    assert "/join?seat=1&token=" in link
    ann.click("#created .invite-row .copy")
    wait_until(lambda: ann.locator("#created .copy").inner_text() != "Copy")
    assert ann.evaluate("() => navigator.clipboard.readText()") == link
    ann.screenshot(path=shots / "friends-01-created.png")

    # At the waiting table the creator sees the link again.
    ann.click("#go-table")
    ann.wait_for_selector("#invites-again input.invite")
    assert ann.locator("#invites-again input.invite").input_value() == link
    ann.screenshot(path=shots / "friends-02-waiting.png")

    # A stranger watching the (public) table asks for a bot's seat.
    cy = chromium.new_context(viewport=PHONE).new_page()
    cy.on("pageerror", lambda exc: errors.append(str(exc)))
    cy.goto(ann.url)
    cy.wait_for_selector("#ask-to-play")  # one quiet button; no seat offers itself yet
    assert cy.locator(".seat .take").count() == 0
    cy.click("#ask-to-play")
    cy.click(".seat[data-seat='2'] .take")
    cy.fill("#ask-name", "Cy")
    cy.screenshot(path=shots / "friends-03-ask.png")
    cy.click("#ask-go")
    ann.wait_for_selector(".seat-request .approve")
    assert "Cy" in ann.locator(".seat-request").inner_text()
    cy.wait_for_selector(".seat-request")
    assert "Cy" in cy.locator(".seat-request").inner_text()
    assert cy.locator(".seat-request .approve").count() == 0  # only the creator answers
    ann.screenshot(path=shots / "friends-04-request.png")
    ann.click(".seat-request .approve")
    # no deal yet: the seat is Cy's at once, and Cy's page reloads as that seat
    wait_until(lambda: cy.locator("#spectating").is_hidden(), 10)
    cy.wait_for_selector("#me .seat[data-seat='2']")

    # The friend opens the link, chooses a name, and sits down.
    bea = chromium.new_context(viewport=PHONE).new_page()
    bea.on("pageerror", lambda exc: errors.append(str(exc)))
    bea.goto(link)
    bea.wait_for_selector("#join-name")
    assert "Ann" in bea.locator("#join-creator").inner_text()
    _narrow_enough(bea)
    bea.fill("#join-name", "admin")  # a reserved name: refused, and the page says why
    bea.click("#join-go")
    bea.wait_for_selector("#join-error:not([hidden])")
    assert "belongs to an account" in bea.locator("#join-error").inner_text()
    assert "/join" in bea.url and not bea.locator("#join-go").is_disabled()
    bea.fill("#join-name", "Bea")
    bea.screenshot(path=shots / "friends-05-join.png")
    bea.click("#join-go")
    bea.wait_for_url("**/tables/*")
    assert "token" not in bea.url
    bea.wait_for_selector("#hand .card", timeout=15000)  # the last seat: the deal
    bea.screenshot(path=shots / "friends-06-seated.png")
    _narrow_enough(bea)
    ann.wait_for_selector("#hand .card", timeout=15000)
    names = ann.locator(".seat-name").all_inner_texts()
    assert any("Bea" in n for n in names) and any("Cy" in n for n in names)
    assert ann.locator("#invites-again input").count() == 0
    ann.screenshot(path=shots / "friends-07-playing.png")

    # The used link: a page in the site's style, status kept.
    dan = chromium.new_context(viewport=PHONE).new_page()
    used = dan.goto(link)
    assert used is not None and used.status == 403
    dan.wait_for_selector("#notice")
    assert "already used" in dan.locator("#message").inner_text()
    dan.screenshot(path=shots / "friends-08-used-link.png")
    assert not errors, errors


def test_a_stranger_can_neither_see_nor_take_a_seat_at_a_play_now_table(chromium: Any,
        server: str, shots: Path) -> None:
    errors: list[str] = []
    ann = chromium.new_context(viewport=DESKTOP).new_page()
    ann.on("pageerror", lambda exc: errors.append(str(exc)))
    ann.goto(server + "/")
    ann.click("#play-now")
    ann.wait_for_url("**/tables/*")
    ann.wait_for_selector("#hand .card")
    table_id = ann.url.rsplit("/", 1)[1]

    eve = chromium.new_context(viewport=PHONE).new_page()
    eve.on("pageerror", lambda exc: errors.append(str(exc)))
    eve.goto(server + "/")
    eve.wait_for_selector("#tables p, #tables table")
    assert eve.locator(f"#tables tr[data-table='{table_id}']").count() == 0
    _narrow_enough(eve)
    eve.screenshot(path=shots / "friends-09-lobby-phone.png", full_page=True)
    eve.goto(ann.url)  # with the link: watching only
    eve.wait_for_selector("#opponents .seat")
    assert eve.locator("#spectating").is_visible()
    assert eve.locator(".seat .take").count() == 0
    assert eve.locator("#ask-to-play").count() == 0
    assert eve.locator(".private-note").is_visible()
    _narrow_enough(eve)
    eve.screenshot(path=shots / "friends-10-private-watch.png", full_page=True)
    r = eve.request.post(f"{ann.url}/seats/1/take", data={"name": "Eve"})
    assert r.status == 403 and r.json()["rule"] == "private-table"

    missing = eve.goto(server + "/tables/nosuchtable")
    assert missing is not None and missing.status == 404
    eve.wait_for_selector("#notice")
    eve.screenshot(path=shots / "friends-11-no-table.png")
    eve.locator("#lang").select_option("fr")
    wait_until(lambda: "table" in eve.locator("#message").inner_text()
               and "existe" in eve.locator("#message").inner_text())
    assert not errors, errors
