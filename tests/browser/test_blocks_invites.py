"""Blocks and invitations in real browsers: Cleo blocks Anna from Anna's page (with the
confirm); Anna, at a table with open seats, invites Bert from his page; Bert's lobby
shows the invitation and he takes the seat; Anna's invitation to Cleo answers as any
other and Cleo's lobby shows nothing; at the table, Cleo's quick message reaches Bert,
never Anna.

Screenshots (``$POLIGNAC_SCREENSHOTS``, else the test's tmp folder): the invitation in
the lobby and the profile's Invite and Block buttons, at 390x844 and 1280x800.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import wait_until

pytest.importorskip("playwright.sync_api")

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PASSWORD = "correct horse battery"


def _person(chromium: Any, server: str, name: str, viewport: dict[str, int],
            errors: list[str]) -> Any:
    page = chromium.new_context(viewport=viewport).new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/")
    r = page.request.post(server + "/api/account/signup", headers={"origin": server},
                          data={"username": name, "password": PASSWORD})
    assert r.ok, r.text()
    return page


def _say(page: Any, message: str) -> None:
    if page.locator("#chat-box").get_attribute("open") is None:  # closed: open it
        page.click("#chat-box summary")
    page.click(f"#chat-buttons button[data-message='{message}']")


def test_block_invite_join_and_quiet_messages(chromium: Any, server: str,
                                              shots: Path) -> None:
    errors: list[str] = []
    anna = _person(chromium, server, "Anna", DESKTOP, errors)
    bert = _person(chromium, server, "Bert", PHONE, errors)
    cleo = _person(chromium, server, "Cleo", DESKTOP, errors)

    # Cleo blocks Anna from Anna's page: a confirm first
    cleo.goto(server + "/players/Anna")
    cleo.click("#block")
    cleo.wait_for_selector("#confirm-yes")
    assert "Anna" in cleo.locator("#confirm-title").inner_text()
    cleo.click("#confirm-yes")
    wait_until(lambda: cleo.locator("#block").inner_text() == "Unblock")
    assert cleo.locator("#invite").count() == 0  # she sits at no table
    assert cleo.request.get(server + "/api/blocks").json() == {"blocks": ["Anna"]}

    # Anna at a public table with two open seats
    made = anna.request.post(server + "/api/tables", headers={"origin": server}, data={
        "preset": "polignac", "seats": [{"kind": "you"}, {"kind": "open"}, {"kind": "open"},
                                        {"kind": "bot", "level": "easy"}]})
    assert made.ok, made.text()
    table = made.json()["url"]
    anna.goto(server + table)
    anna.wait_for_selector("#me .seat")

    # she invites Bert from his page
    anna.goto(server + "/players/Bert")
    anna.wait_for_selector("#invite")
    assert anna.locator("#block").inner_text() == "Block"
    anna.screenshot(path=shots / "profile-block-invite-desktop.png")
    anna.set_viewport_size(PHONE)
    anna.screenshot(path=shots / "profile-block-invite-phone.png")
    anna.set_viewport_size(DESKTOP)
    anna.click("#invite")
    wait_until(lambda: "Bert" in anna.locator("#people-status").inner_text())

    # ...and Cleo, who blocked her: the same answer, and nothing reaches Cleo
    anna.goto(server + "/players/Cleo")
    anna.wait_for_selector("#invite")
    anna.click("#invite")
    wait_until(lambda: "Cleo" in anna.locator("#people-status").inner_text())
    assert anna.locator("#people-status").get_attribute("class") == "small-muted"
    cleo.goto(server + "/")
    cleo.wait_for_selector("#seek-form")
    assert cleo.request.get(server + "/api/invites").json()["invites"] == []
    assert cleo.locator("#your-invites").is_hidden()

    # Bert's lobby shows the invitation; he joins
    bert.goto(server + "/")
    bert.wait_for_selector("#your-invites .invitation")
    row = bert.locator("#your-invites .invitation")
    assert "Anna invites you" in row.inner_text() and "Polignac" in row.inner_text()
    bert.screenshot(path=shots / "invite-lobby-phone.png")
    bert.set_viewport_size(DESKTOP)
    bert.screenshot(path=shots / "invite-lobby-desktop.png")
    bert.set_viewport_size(PHONE)
    row.locator("a.button").click()
    bert.wait_for_selector("#join-go")
    assert bert.locator("#join-name").input_value() == "Bert"
    assert "Anna" in bert.locator("#join-creator").inner_text()
    bert.click("#join-go")
    bert.wait_for_url("**" + table)
    bert.wait_for_selector("#me .seat[data-seat='1']")
    assert bert.request.get(server + "/api/invites").json()["invites"] == []

    # Cleo (the blocker) may sit at Anna's table; the last seat taken: the deal
    sat = cleo.request.post(server + table + "/seats/2/sit", headers={"origin": server},
                            data={})
    assert sat.ok, sat.text()
    anna.goto(server + table)
    cleo.goto(server + table)
    for page in (anna, bert, cleo):
        page.wait_for_selector("#hand .card", timeout=15000)

    # Cleo's quick message: Bert sees it, Anna never does
    _say(cleo, "thanks")
    bert.locator(".ring .seat[data-seat='2'] .chat-bubble").wait_for()
    _say(bert, "hello")
    anna.locator(".ring .seat[data-seat='1'] .chat-bubble").wait_for()  # Bert's, after
    assert anna.locator(".ring .seat[data-seat='2'] .chat-bubble").count() == 0
    assert all("Cleo" not in p for p in anna.locator("#chat-log p").all_inner_texts())
    assert len(anna.locator("#chat-log p").all_inner_texts()) == 1
    assert not errors, errors


def test_the_account_page_lists_the_blocked_and_unblocks(chromium: Any, server: str,
                                                        shots: Path) -> None:
    """Dee blocked Eve and Fay from their pages; her account page lists them, newest
    first, each with Unblock; one press and Eve is off the list (and off the server's)."""
    errors: list[str] = []
    dee = _person(chromium, server, "Dee_blocks", PHONE, errors)
    for name in ("Eve_blocks", "Fay_blocks"):
        _person(chromium, server, name, PHONE, [])
        assert dee.request.post(server + "/api/blocks", headers={"origin": server},
                                data={"name": name, "block": True}).ok
    dee.goto(server + "/account")
    dee.wait_for_selector("#blocked-list .unblock")
    assert dee.locator("#blocked-list a.person").all_inner_texts() == ["Fay_blocks",
                                                                       "Eve_blocks"]
    dee.locator("#blocked-panel").screenshot(path=shots / "account-blocked-390.png")
    dee.click("#blocked-list li:has-text('Eve_blocks') .unblock")
    wait_until(lambda: dee.locator("#blocked-list a.person").all_inner_texts()
               == ["Fay_blocks"], what="Eve unblocked")
    assert dee.request.get(server + "/api/blocks").json() == {"blocks": ["Fay_blocks"]}
    assert not errors, errors
