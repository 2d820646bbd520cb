"""Accounts in the browser: a guest plays, creates an account and finds the game in their
history; a rated match changes their rating; sign-out and sign-in with the password;
export and deletion.  Screenshots of a profile and the leaderboard
(``docs/screenshots/profile-*.png``, ``leaderboard-*.png`` with ``POLIGNAC_SCREENSHOTS``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .support import on_a_phone, open_page, play_until, wait_until

PASSWORD = "a long enough secret"


def finish(page: Any, server: str, rated: bool) -> str:
    """Create a one-deal table (threshold 1) of you and three easy bots on ``page``, play
    it to its end by clicking cards; return its id."""
    r = page.request.post(server + "/api/tables", data={
        "preset": "polignac", "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * 3,
        "overrides": {"threshold": 1}, "rated": rated})
    assert r.ok, r.text()
    table_id: str = r.json()["id"]
    page.goto(server + r.json()["url"])
    page.wait_for_selector("#hand .card")

    def over() -> bool:
        answer = page.request.get(f"{server}/tables/{table_id}/record.json").json()
        return len(answer.get("deals", [])) >= 1

    play_until(page, over, 120, "the end of the match", calls=True)
    return table_id


def test_guest_account_history_signin_export_delete(quick_server: str, chromium: Any,
                                                     shots: Path) -> None:
    server = quick_server
    page, errors = open_page(chromium)
    page.goto(server + "/")
    guest_game = finish(page, server, rated=False)

    # create the account: the recovery codes are shown once
    page.goto(server + "/account")
    page.fill("#signup-form input[name=username]", "Zoe_plays")
    page.fill("#signup-form input[name=password]", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#codes li")
    assert page.locator("#codes li").count() == 8
    assert "Zoe_plays" in page.inner_text("#who")

    # the guest's game is in the history, with its replay
    page.click("#profile-link")
    page.wait_for_url("**/players/Zoe_plays")
    page.wait_for_selector("#games li a")
    assert page.locator(f'#games a[href="/tables/{guest_game}/replay"]').count() == 1

    # a rated match: the rating appears with its chart
    finish(page, server, rated=True)
    page.goto(server + "/players/Zoe_plays")
    page.wait_for_selector(".rating-card svg")
    assert page.locator("#games li").count() == 2
    assert page.locator(".provisional").count() >= 1
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=shots / "profile-desktop.png", full_page=True)
    on_a_phone(page, shots / "profile-phone.png")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(server + "/leaderboard")
    page.wait_for_selector("#board a")
    assert page.inner_text("#board a") == "Zoe_plays"
    page.screenshot(path=shots / "leaderboard-desktop.png", full_page=True)
    on_a_phone(page, shots / "leaderboard-phone.png")
    page.set_viewport_size({"width": 1280, "height": 800})

    # the same pages in French and German
    page.goto(server + "/players/Zoe_plays")
    page.wait_for_selector(".rating-card")
    page.select_option("#lang", "fr")
    wait_until(lambda: "Classements" in page.inner_text("main"))
    page.select_option("#lang", "de")
    wait_until(lambda: "Wertungen" in page.inner_text("main"))
    page.select_option("#lang", "en")

    # sign out, then in again with the password
    page.goto(server + "/account")
    page.wait_for_selector("#signout")
    page.click("#signout")
    page.wait_for_selector("#signin-form", state="visible")
    page.fill("#signin-form input[name=username]", "zoe_plays")
    page.fill("#signin-form input[name=password]", "not the password")
    page.click("#signin-form button[type=submit]")
    wait_until(lambda: "Wrong username or password" in page.inner_text("#error"))
    page.fill("#signin-form input[name=password]", PASSWORD)
    page.click("#signin-form button[type=submit]")
    page.wait_for_selector("#sessions li")
    assert "this browser" in page.inner_text("#sessions")
    # the session in words (Chromium's own header: "HeadlessChrome 156 on Linux"), the
    # raw header in its title
    assert " on Linux" in page.inner_text("#sessions"), page.inner_text("#sessions")
    assert "Mozilla/5.0" in (page.get_attribute("#sessions li span", "title") or "")

    # export: the two games and the rating
    with page.expect_download() as info:
        page.click("#export")
    exported = Path(info.value.path()).read_text()
    assert guest_game in exported and "trick-avoidance" in exported

    # delete: the profile is gone, the lobby is a guest's again
    page.click("#signed-in details summary")
    page.fill("#delete-form input[name=password]", PASSWORD)
    page.click("#delete-form button[type=submit]")
    page.wait_for_selector("#signup-form", state="visible")
    assert page.request.get(server + "/api/players/Zoe_plays").status == 404
    assert page.request.get(server + "/api/account").json() == {"signed_in": False}
    assert not errors, errors


def test_passkey_registered_and_used(quick_server: str, chromium: Any) -> None:
    """A passkey registered on the account page and used to sign in, through Chromium's
    virtual authenticator (DevTools protocol, WebAuthn domain)."""
    server = quick_server.replace("127.0.0.1", "localhost")  # an IP is no WebAuthn RP id
    page, errors = open_page(chromium)
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True}})
    page.goto(server + "/account")
    page.fill("#signup-form input[name=username]", "Pat_key")
    page.fill("#signup-form input[name=password]", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#codes li")
    page.click("#passkey-add")
    page.wait_for_selector("#passkeys .passkey-name")
    assert page.locator("#passkeys .passkey-name").count() == 1
    page.click("#signout")
    page.wait_for_selector("#passkey-signin", state="visible")
    assert page.request.get(server + "/api/account").json() == {"signed_in": False}
    page.click("#passkey-signin")
    page.wait_for_selector("#who")
    wait_until(lambda: "Pat_key" in page.inner_text("#who"))
    assert page.request.get(server + "/api/account").json()["username"] == "Pat_key"
    assert not page.inner_text("#error")
    assert not errors, errors
