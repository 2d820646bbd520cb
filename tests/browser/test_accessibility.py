"""An automated accessibility check (axe-core, run in Chromium by axe-playwright-python)
of every page, in English and in French (the player pages also in German): no serious or
critical violation.

The pages: the lobby, the table (playing, with the capot prompt, the match over), the
rules index and a game's rules, the invitation page, an error page, the replay viewer
(empty and with a record), the score pad (setup and a pad in play), the account page,
a profile and the leaderboard.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.browser.support import open_table, play_until

pytest.importorskip("playwright.sync_api")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")

BAD = ("serious", "critical")


def violations(page: Any, where: str) -> list[str]:
    """axe's serious and critical violations on the page as it is now, one line each."""
    results = axe_sync.Axe().run(page)
    out = []
    for v in results.response["violations"]:
        if v["impact"] in BAD:
            targets = ", ".join(" ".join(n["target"]) for n in v["nodes"][:4])
            out.append(f"{where}: {v['id']} ({v['impact']}) {v['help']} at {targets}")
    return out


def _page(browser: Any, lang: str) -> tuple[Any, list[str]]:
    context = browser.new_context(viewport={"width": 1200, "height": 860},
                                  locale="fr-FR" if lang == "fr" else "en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


def test_axe_finds_what_it_should(chromium: Any, server: str) -> None:
    """The check can fail: a page with an unlabelled field and an image without text."""
    page, _ = _page(chromium, "en")
    page.goto(server + "/")
    page.wait_for_selector("#seats select", state="attached")
    page.evaluate("""() => {
      const i = document.createElement("input"); document.querySelector("main").append(i);
      const b = document.createElement("button"); document.querySelector("main").append(b);
    }""")
    found = " ".join(violations(page, "lobby"))
    assert "label" in found and "button-name" in found, found


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_pages_have_no_serious_violations(chromium: Any, server: str, lang: str) -> None:
    found: list[str] = []
    page, errors = _page(chromium, lang)
    page.goto(server + "/")
    page.wait_for_selector("#seats select", state="attached")
    page.wait_for_selector("#tables p, #tables table", state="attached")
    found += violations(page, "lobby")
    page.goto(server + "/rules")
    found += violations(page, "rules index")
    page.goto(server + "/rules/polignac")
    page.wait_for_selector("body[data-ready]", state="attached")
    found += violations(page, "rules page")
    page.goto(server + "/tables/nosuchtable")
    page.wait_for_selector("#message", state="attached")
    found += violations(page, "error page")
    # A table with an open seat: its invitation page.
    r = page.request.post(server + "/api/tables", data={
        "preset": "polignac", "seats": [{"kind": "you"}, {"kind": "open"}] + [
            {"kind": "bot", "level": "easy"}] * 2})
    assert r.ok, r.text()
    invite = r.json()["invites"][0]["url"]
    friend, friend_errors = _page(chromium, lang)  # another chromium opens the link
    friend.goto(server + invite)
    friend.wait_for_selector("#join-name")
    found += violations(friend, "invitation page")
    errors += friend_errors
    page.goto(server + "/replay")
    page.wait_for_selector("#notice:not([hidden])")
    found += violations(page, "replay viewer (empty)")
    page.goto(server + "/scorepad")
    page.wait_for_selector("#sp-preset option", state="attached")
    found += violations(page, "score pad (setup)")
    page.click("#sp-start")
    page.wait_for_selector("#pad:not([hidden])")
    found += violations(page, "score pad (a deal to enter)")
    assert not errors, errors
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_table_and_replay_have_no_serious_violations(chromium: Any, server: str, lang: str) -> None:
    found: list[str] = []
    page, errors = _page(chromium, lang)
    url = open_table(page, server, "polignac", overrides={"threshold": 1})
    found += violations(page, "table (playing)")
    seen: set[str] = set()

    def look() -> None:  # the prompt and a card to play, each once
        for what, where in (("#prompt .call", "table (capot prompt)"),
                            ("#hand .card.legal", "table (a card to play)")):
            if where not in seen and page.locator(what).count():
                found.extend(violations(page, where))
                seen.add(where)

    play_until(page, lambda: page.locator("#result:not([hidden])").count() > 0, 60,
               "the end of the match", calls=True, each=look)
    assert len(seen) == 2, seen
    found += violations(page, "table (match over)")
    page.goto(server + url + "/replay")
    page.wait_for_selector("#viewer:not([hidden])")
    found += violations(page, "replay viewer (a record)")
    assert not errors, errors
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_player_pages_have_no_serious_violations(chromium: Any, quick_server: str,
                                                 lang: str) -> None:
    """The account page (signed out, then signed in with its recovery codes), a player's
    profile with a rated match's rating card and chart, and the leaderboard."""
    from tests.browser.test_accounts import PASSWORD, finish

    server = quick_server
    found: list[str] = []
    page, errors = _page(chromium, lang)
    page.goto(server + "/")
    page.select_option("#lang", lang)
    page.goto(server + "/account")
    page.wait_for_selector("#signup-form", state="visible")
    found += violations(page, "account (signed out)")
    page.fill("#signup-form input[name=username]", f"Axe_{lang}")
    page.fill("#signup-form input[name=password]", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#codes li")
    page.wait_for_selector("#sessions li")
    found += violations(page, "account (signed in, recovery codes shown)")
    finish(page, server, rated=True)
    page.goto(f"{server}/players/Axe_{lang}")
    page.wait_for_selector(".rating-card svg")
    page.wait_for_selector("#games li a")
    found += violations(page, "profile")
    page.goto(server + "/leaderboard")
    page.wait_for_selector("#board a")
    found += violations(page, "leaderboard")
    assert page.evaluate("document.documentElement.lang") == lang
    assert not errors, errors
    assert not found, "\n".join(found)
