"""Find players in the browser (issue 20, "People to play with"): two people in two
browsers (two Playwright contexts), each with an account, ask the lobby for the same
4-player rated game at 60 seconds a move with bots allowed after 30 s; each sees the
other's request and the people online; once the wait is over both are counted down,
seated at one new
table with two bots, play the match (one deal) to its end, and both profiles show the
match and a changed rating.  Screenshots of the lobby's requests on a phone and a
desktop (``docs/screenshots/find-players-*.png`` with ``POLIGNAC_SCREENSHOTS``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.server.conftest import pg_server  # noqa: F401 (the fixture)

from polignac.server import ServerConfig

from .support import live_server, on_a_phone, step, wait_until
from .test_accessibility import violations

PASSWORD = "a long enough secret"


def _person(browser: Any, server: str, username: str) -> tuple[Any, Any, list[str]]:
    """A browser context of its own, signed up as ``username``, on the lobby."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/")
    r = page.request.post(server + "/api/account/signup",
                          data={"username": username, "password": PASSWORD})
    assert r.ok, r.text()
    page.goto(server + "/")
    page.wait_for_selector("#seek-preset option[value=polignac]", state="attached")
    return context, page, errors


def _wait_for_hand(who: str, page: Any) -> None:
    """Wait for ``who``'s hand at the table (90 s: a bound for a loaded machine, not a
    pace); failing, say what the page showed instead."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_selector("#hand .card", timeout=90_000)
    except PlaywrightTimeout:
        seen = page.evaluate("""() => ({status: document.querySelector('#status')?.textContent,
          conn: document.querySelector('#conn')?.textContent,
          spectator: document.body.classList.contains('spectator'),
          seq: document.body.dataset.seq, cookies: document.cookie})""")
        raise AssertionError(f"{who} has no hand at {page.url}: {seen}") from None


def _ask(page: Any) -> None:
    """Polignac, 4 players, one deal, 60 seconds a move, rated, bots after 30 seconds,
    easy bots."""
    page.click("label:has(#level-easy)")
    page.select_option("#seek-preset", "polignac")
    page.select_option("#seek-players", "4")
    page.select_option("#seek-deals", "1")
    page.select_option("#seek-time", '{"kind":"move","seconds":60}')
    page.select_option("#seek-bots", "30")
    page.check("#seek-rated")
    page.click("#seek-ask")
    page.wait_for_selector("#seek-mine[data-state=waiting]")


def test_two_people_find_each_other_play_rated_and_see_it_on_their_profiles(
        tmp_path: Path, chromium: Any, shots: Path) -> None:
    config = ServerConfig(data_dir=tmp_path / "data", bot_delay=0, deal_delay=0,
                          cut_window=0, trick_pause=0, seek_tick=0.2, seek_countdown=3.0)
    with live_server(config) as server:
        find_and_play(chromium, server, server, shots)


@pytest.mark.slow
@pytest.mark.postgres
def test_the_same_through_two_server_processes(tmp_path: Path, chromium: Any,
                                               request: pytest.FixtureRequest) -> None:
    """Ann's browser uses one ``polignac serve`` process, Bob's another, on one
    PostgreSQL (LISTEN/NOTIFY as the bus): they see each other's requests and are
    seated at one table (the other process hands Bob's connections to its owner)."""
    from tests.server.cluster_support import Proc
    from tests.server.conftest import free_port

    url = request.getfixturevalue("pg_server").new_database()
    procs = [Proc(f"p{i}", free_port(), url, url, tmp_path / "data") for i in range(2)]
    try:
        for proc in procs:
            proc.wait_ready()
        find_and_play(chromium, procs[0].base, procs[1].base, None)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n" + "\n".join(p.tail() for p in procs)) from None
    finally:
        for proc in procs:
            proc.kill()


def find_and_play(chromium: Any, server_a: str, server_b: str, shots: Path | None) -> None:
    """Ann (on ``server_a``) and Bob (on ``server_b``) find each other, play, and see
    the match on their profiles; the lobby's screenshots go to ``shots`` when given."""
    ctx_a, ann, errors_a = _person(chromium, server_a, "Ann_seeks")
    ctx_b, bob, errors_b = _person(chromium, server_b, "Bob_seeks")
    _ask(ann)
    # a guest in a third browser asks for another game (its page never asks: listed,
    # never matched)
    ctx_c = chromium.new_context()
    r = ctx_c.request.post(server_a + "/api/seeks", data={
        "preset": "black-lady", "players": 4, "name": "Cleo", "bots_after": None})
    assert r.ok, r.text()
    # Bob sees Ann's and Cleo's requests, and two people online
    bob.wait_for_selector("#seek-list tr[data-preset=polignac]")
    assert "Ann_seeks" in bob.inner_text("#seek-list")
    assert "60 s/move" in bob.inner_text("#seek-list tr[data-preset=polignac]")
    bob.wait_for_selector("#seek-list tr[data-preset=black-lady] button.join")
    assert "Cleo" in bob.inner_text("#seek-list tr[data-preset=black-lady]")
    wait_until(lambda: "2 people online" in bob.inner_text("#online"))
    # the lobby as a player sees it: the requests, one's own and the people online
    ann.wait_for_selector("#seek-list tr[data-preset=black-lady] button.join")
    found = violations(ann, "lobby with requests (axe)")
    assert not found, "\n".join(found)
    if shots is not None:
        ann.screenshot(path=shots / "find-players-desktop.png", full_page=True)
        on_a_phone(ann, shots / "find-players-phone.png")
        ann.set_viewport_size({"width": 1280, "height": 800})

    # Bob joins: both allow bots, so they are seated at once (issue 31: no waiting for
    # Ann's 30 s), bots in the two empty seats: a countdown, then the table
    bob.click("#seek-list tr[data-preset=polignac] button.join")
    for page in (ann, bob):
        page.wait_for_selector("#seek-mine[data-state=countdown]", timeout=20_000)
    text = ann.inner_text("#seek-mine")
    assert "Bob_seeks" in text and "2 bots" in text, text
    for page in (ann, bob):
        page.wait_for_url("**/tables/*", timeout=20_000)
    table_id = ann.url.rsplit("/", 1)[-1]
    assert bob.url.rsplit("/", 1)[-1] == table_id
    for who, page in (("Ann", ann), ("Bob", bob)):
        _wait_for_hand(who, page)
        assert page.inner_text("#time-control").strip() == "60 s/move"  # Bob's Join copied it

    def over() -> bool:
        record = ann.request.get(f"{server_a}/tables/{table_id}/record.json").json()
        return len(record.get("deals", [])) >= 1

    wait_until(over_or_play(ann, bob, over), 180)

    # both profiles: the match, with its replay, and a rating that moved
    for page, name, server in ((ann, "Ann_seeks", server_a), (bob, "Bob_seeks", server_b)):
        data = page.request.get(f"{server}/api/players/{name}").json()
        assert any(g["replay"] == f"/tables/{table_id}/replay" for g in data["games"]), data
        rating = data["ratings"]["trick-avoidance"]
        assert rating["matches"] == 1 and len(rating["history"]) == 1
        assert rating["rating"] != 1500, rating  # 25 x 60: where accounts start
        page.goto(f"{server}/players/{name}")
        page.wait_for_selector(f'#games a[href="/tables/{table_id}/replay"]')
        page.wait_for_selector(".rating-card")
    assert not errors_a and not errors_b, errors_a + errors_b
    for context in (ctx_a, ctx_b, ctx_c):
        context.close()


def over_or_play(ann: Any, bob: Any, over: Any) -> Any:
    """A check for :func:`wait_until` that plays a card on whichever page may, then
    says whether the match is over."""
    def check() -> bool:
        if over():
            return True
        for page in (ann, bob):
            step(page, over, calls=True)
        return over()
    return check
