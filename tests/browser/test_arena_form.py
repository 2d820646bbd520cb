"""The lobby's Create-an-arena form (``static/arenas.js``) in Chromium: an account
opens it, chooses a game whose table sizes replace the seats' list, 5 players, 5+3,
60 minutes, a start in 45 minutes, rated, no bots, and creates it: the arena's page
shows those settings, the server stored them, and the lobby lists it.  A start in the
past is refused with the server's message in the page's language (French), next to the
form.  A club's weekly arena is in the lobby's list a day ahead with its schedule in
words, and its page tells a guest to sign in to join.  Screenshots of the open form
(``docs/screenshots/arena-form-*`` with ``POLIGNAC_SCREENSHOTS``), on a phone (390x844,
no sideways scroll) and a desktop."""

from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from polignac.i18n import catalog
from polignac.server import ServerConfig
from polignac.server.events import schedule_store
from polignac.server.events.schedule import WEEKDAYS, parse_entry
from polignac.server.store.db import make_engine, migrate, writing

from .support import live_server, on_a_phone, open_page, wait_until

PASSWORD = "a long enough secret"
FIVE_THREE = json.dumps({"kind": "realtime", "base": 300, "increment": 3}, separators=(",", ":"))


def test_the_form_creates_an_arena_of_the_choices_made(server: str, chromium: Any,
                                                       shots: Path) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    r = context.request.post(server + "/api/account/signup",
                             data={"username": "Club_host", "password": PASSWORD})
    assert r.ok, r.text()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/")
    page.click("#arena-new summary")
    page.wait_for_selector("#arena-preset option[value='black-maria']", state="attached")
    assert page.eval_on_selector_all("#arena-seats option", "os => os.map(o => o.value)") == [
        "3", "4", "5", "6"]
    page.select_option("#arena-preset", "black-maria")  # 3 to 7 players
    assert page.eval_on_selector_all("#arena-seats option", "os => os.map(o => o.value)") == [
        "3", "4", "5", "6", "7"]
    page.select_option("#arena-seats", "5")
    page.select_option("#arena-time", FIVE_THREE)
    page.select_option("#arena-length", "60")
    assert page.is_hidden("#arena-in")
    page.select_option("#arena-start", "in")
    page.fill("#arena-in", "45")
    page.select_option("#arena-bots", "never")
    page.check("#arena-rated")
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    found = [f"{v['id']} ({v['impact']}): {v['help']}"
             for v in axe.Axe().run(page).response["violations"]
             if v["impact"] in ("serious", "critical")]
    assert not found, found  # the open form, as test_accessibility.py checks the pages
    page.locator("#arenas-panel").screenshot(path=shots / "arena-form-1280.png")
    on_a_phone(page, shots / "arena-form-390.png")  # the whole page: no sideways scroll
    page.locator("#arenas-panel").screenshot(path=shots / "arena-form-390.png")
    page.set_viewport_size({"width": 1280, "height": 800})
    before = time.time()
    page.click("#arena-submit")
    page.wait_for_url("**/tournaments/*")
    tid = page.url.rsplit("/", 1)[1]
    wait_until(lambda: "5+3" in page.inner_text("#settings"), what="the arena's settings")
    assert page.inner_text("#settings") == "Tables of 5 · 5+3 · 60 min · rated · no bots"
    stored = context.request.get(server + f"/api/tournaments/{tid}").json()
    assert (stored["preset"], stored["seats"], stored["minutes"], stored["rated"],
            stored["bot_wait"], stored["time_control"]) == (
        "black-maria", 5, 60, True, None, json.loads(FIVE_THREE))
    assert before + 44 * 60 <= stored["starts_at"] <= time.time() + 46 * 60
    assert stored["state"] == "scheduled"
    page.goto(server + "/")
    link = page.wait_for_selector(f"#arenas a[href='/tournaments/{tid}']")
    assert "Black Maria" in link.inner_text()
    # a start in the past: the server's refusal, in French, next to the form
    page.select_option("#lang", "fr")
    page.click("#arena-new summary")
    page.select_option("#arena-start", "at")
    page.fill("#arena-at", "2020-01-01T10:00")
    page.click("#arena-submit")
    want = catalog("fr")["error.tournament-start"]
    wait_until(lambda: page.inner_text("#arena-error") == want, what="the French refusal")
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#arenas-panel").screenshot(path=shots / "arena-form-error-fr-390.png")
    assert page.url.endswith("/")
    assert not errors, errors


def test_a_clubs_weekly_arena_is_listed_with_its_schedule(tmp_path: Path, chromium: Any,
                                                           shots: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    soon = dt.datetime.now(ZoneInfo("Europe/Paris")) + dt.timedelta(hours=3)
    engine = make_engine(f"sqlite:///{data / 'polignac.db'}")
    migrate(engine)
    with writing(engine) as conn:
        schedule_store.upsert(conn, parse_entry({
            "name": "Club night", "every": WEEKDAYS[soon.weekday()],
            "at": soon.strftime("%H:%M"), "tz": "Europe/Paris", "length": 60,
            "time_control": "3+2", "rated": True, "bots_after": 60}, time.time()), time.time())
    engine.dispose()
    with live_server(ServerConfig(data_dir=data)) as server:  # its planner's first round
        page, errors = open_page(chromium)
        page.goto(server + "/")
        page.wait_for_selector("#arenas a")
        every = f"Club night, every {soon.strftime('%A')} at {soon.strftime('%H:%M')} " \
                "(Europe/Paris)"
        assert every in page.inner_text("#arenas li")
        page.locator("#arenas-panel").screenshot(path=shots / "arena-club-1280.png")
        page.click("#arenas a")
        page.wait_for_url("**/tournaments/*")
        wait_until(lambda: "Club night: every" in page.inner_text("#when"),
                   what="the schedule on the arena's page")
        wait_until(lambda: page.is_visible("#sign-in-to-join"), what="sign in to join")
        assert page.inner_text("#sign-in-to-join") == catalog("en")["arena.sign_in"]
        assert page.is_hidden("#join")
        assert not errors, errors
