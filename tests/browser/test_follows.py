"""Follows and presence in the browser (docs/people.md): Ann follows Bob from his page;
Bob opens the lobby and Ann's People panel shows him online "in the lobby"; Bob sits
at a public table and Ann sees "at a table" with a link to watch it, on the panel and
on his page; Cleo, who chose not to show when she is online, is in the lobby too but
in nobody's list; a guest sees no follow button but a hint to sign in; Ann stops
following.  Screenshots (``docs/screenshots/people-*`` with ``POLIGNAC_SCREENSHOTS``):
Bob's page as Ann sees it (1280x800 and 390x844), the lobby's panel, the account
page's choice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from polignac.server import ServerConfig

from .support import live_server, on_a_phone, open_page, wait_until

PASSWORD = "a long enough secret"


def _account(browser: Any, server: str, name: str) -> tuple[Any, Any, list[str]]:
    """A browser context of its own signed up as ``name``, its page and its errors."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    r = context.request.post(server + "/api/account/signup",
                             data={"username": name, "password": PASSWORD})
    assert r.ok, r.text()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def _followed(page: Any) -> str:
    return str(page.inner_text("#follows"))


def test_follow_see_where_a_friend_is_and_stop(tmp_path: Path, chromium: Any,
                                               shots: Path) -> None:
    config = ServerConfig(data_dir=tmp_path / "data", bot_delay=0.05, deal_delay=0.5,
                          trick_pause=0)
    with live_server(config) as server:
        _ann, ann, ann_errors = _account(chromium, server, "Ann_follow")
        bob_ctx, bob, bob_errors = _account(chromium, server, "Bob_follow")
        cleo_ctx, cleo, _ = _account(chromium, server, "Cleo_hidden")
        # Cleo chooses, on her account page, not to show when she is online
        cleo.goto(server + "/account")
        cleo.wait_for_selector("#presence-visible:checked")
        cleo.uncheck("#presence-visible")
        cleo.locator("#presence-panel").screenshot(path=shots / "people-account-1280.png")
        wait_until(lambda: cleo_ctx.request.get(server + "/api/account/presence").json()
                   == {"visible": False}, what="Cleo hidden")
        # Ann follows Bob from his page
        ann.goto(server + "/players/Bob_follow")
        ann.wait_for_selector("#follow[data-following='no']")
        assert ann.inner_text("#follow-counts").startswith("0 followers")
        ann.click("#follow")
        ann.wait_for_selector("#follow[data-following='yes']")
        assert ann.inner_text("#follow") == "Unfollow"
        assert ann.inner_text("#follow-counts").startswith("1 follower ")
        # Bob and Cleo open the lobby; Ann's panel shows Bob there, never Cleo
        bob.goto(server + "/")
        cleo.goto(server + "/")
        ann.goto(server + "/")
        wait_until(lambda: "in the lobby" in _followed(ann), 40, what="Bob in the lobby")
        wait_until(lambda: "Bob_follow" in ann.inner_text("#online-people"), 40,
                   what="Bob in the list of who is online")
        wait_until(lambda: "Ann_follow" in ann.inner_text("#online-people"), 40,
                   what="Ann in the list too")
        assert "Cleo_hidden" not in ann.inner_text("#online-people")
        assert ann.query_selector("#follows .dot.on")
        # Bob sits at a public table (an open seat for a friend): Ann may watch it
        r = bob_ctx.request.post(server + "/api/tables", data={
            "preset": "polignac", "seats": [{"kind": "you"}, {"kind": "open"},
                                            {"kind": "bot", "level": "easy"},
                                            {"kind": "bot", "level": "easy"}]})
        assert r.ok, r.text()
        table = r.json()["url"]
        bob.goto(server + table)
        bob.wait_for_selector("#ring", state="attached")
        link = f"#follows a[href='{table}']"
        wait_until(lambda: ann.query_selector(link), 40, what="Bob at a table, with a link")
        assert "at a table of Polignac" in _followed(ann)
        assert "Cleo_hidden" not in ann.inner_text("#online-people")
        ann.wait_for_timeout(200)
        ann.locator("#people-panel").screenshot(path=shots / "people-lobby-panel-1280.png")
        on_a_phone(ann, shots / "people-lobby-390.png")
        ann.set_viewport_size({"width": 1280, "height": 800})
        # his page says where he is, with the same link
        ann.goto(server + "/players/Bob_follow")
        ann.wait_for_selector(f"#presence a[href='{table}']")
        assert "Online now, at a table of Polignac" in ann.inner_text("#presence")
        ann.screenshot(path=shots / "people-profile-1280.png", full_page=True)
        on_a_phone(ann, shots / "people-profile-390.png")
        ann.set_viewport_size({"width": 1280, "height": 800})
        ann.click(f"#presence a[href='{table}']")
        ann.wait_for_url("**" + table)
        # a guest sees no button, a hint to sign in
        guest, guest_errors = open_page(chromium)
        guest.goto(server + "/players/Bob_follow")
        guest.wait_for_selector("#follow-box a[href='/account']")
        assert guest.query_selector("#follow") is None
        # Ann stops following
        ann.goto(server + "/players/Bob_follow")
        ann.click("#follow[data-following='yes']")
        ann.wait_for_selector("#follow[data-following='no']")
        ann.goto(server + "/")
        ann.wait_for_selector("#follows li.small-muted")
        assert "You follow nobody yet" in _followed(ann)
        assert not ann_errors and not bob_errors and not guest_errors, (
            ann_errors, bob_errors, guest_errors)
