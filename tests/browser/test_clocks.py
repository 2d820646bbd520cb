"""Time controls and rated tables at the table page: each seat's clock counting down live
(the running one the seat to act), "Rated" and the control's label beside the game's name,
the lobby's time-control choice, a seat whose time ran out ("Out of time", a bot plays
for it, "Take my seat back" at a casual table, a loss at a rated one), and a rated match's
end with each rated person's rating change.

The server's own clock runs (a ``ManualClock`` would stop the bots, which wait on it too):
every wait is on the page's state, bounded, never a fixed sleep standing for the server.
Screenshots (``$POLIGNAC_SCREENSHOTS``, default the test's tmp folder): ``clocks-*``,
``left-seat-*`` and ``rated-end-*``, at 1280x800 (desktop) and 390x844 (phone), in
English (no suffix), French (``-fr``) and German (``-de``); docs/screenshots keeps them.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import live_server, open_page, play_until, step, wait_until
from tests.browser.test_i18n import check as in_its_language

from polignac import i18n
from polignac.server import ServerConfig

pytest.importorskip("playwright.sync_api")

PASSWORD = "a long enough secret"
SIZES = (("desktop", 1280, 800), ("phone", 390, 844))
SETTLED = """() => Promise.all([...document.querySelectorAll('#trick .played')]
  .flatMap((n) => n.getAnimations()).map((a) => a.finished.catch(() => null)))"""
"""Wait until the trick's cards have flown in (a screenshot shows none in flight)."""


def shoot(page: Any, path: Path) -> None:
    """A screenshot of the whole page once the trick's cards lie still."""
    page.evaluate(SETTLED)
    page.screenshot(path=path, full_page=True)


def seconds(text: str) -> float:
    """A clock's text (``2:55``, ``0:09.3``, ``1:02:03``) in seconds."""
    parts = [float(x) for x in text.strip().split(":")]
    total = 0.0
    for x in parts:
        total = total * 60 + x
    return total


@pytest.fixture
def steady_server(tmp_path: Path) -> Iterator[str]:
    """A live server whose bots take 0.4 s a card: a stand-in plays a one-deal match in
    seconds, not in the instant between two looks of a test at the page."""
    config = ServerConfig(data_dir=tmp_path / "data", bot_delay=0.4, trick_pause=0.0,
                          deal_delay=0.5)
    with live_server(config) as url:
        yield url


def serious(page: Any) -> list[str]:
    """axe's serious and critical violations on the page as it is (none when axe-core's
    runner is not installed: tests/browser/test_accessibility.py says so by its skip)."""
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        return []
    found = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['help']}" for v in found if v["impact"] in ("serious", "critical")]


def new_table(page: Any, server: str, time_control: dict[str, Any] | None, rated: bool = False,
              threshold: int | None = None) -> str:
    """Create a table of you and three easy bots with ``time_control`` (through the API),
    open it and wait for the hand; return its path."""
    data: dict[str, Any] = {"preset": "polignac",
                            "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * 3,
                            "rated": rated}
    if time_control is not None:
        data["time_control"] = time_control
    if threshold is not None:
        data["overrides"] = {"threshold": threshold}
    r = page.request.post(server + "/api/tables", data=data)
    assert r.ok, r.text()
    url: str = r.json()["url"]
    page.goto(server + url)
    page.wait_for_selector("#hand .card")
    return url


def in_three_languages(page: Any, folder: Path, name: str, ready: Any = None) -> None:
    """Screenshots of the whole page, desktop and phone, in English, French and German
    (``NAME-desktop.png``, ``NAME-phone-fr.png``...), each page all in its language; the
    phone never scrolls sideways. ``ready(lang)`` is waited for after each change of
    language."""
    for lang in ("en", "fr", "de"):
        page.select_option("#lang", lang)
        if ready is not None:
            wait_until(lambda lang=lang: ready(lang))
        in_its_language(page, lang, f"{name} {lang}")
        for size, width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(150)  # the layout settles (a page's own transition)
            suffix = "" if lang == "en" else f"-{lang}"
            shoot(page, folder / f"{name}-{size}{suffix}.png")
            if size == "phone":
                assert page.evaluate("document.documentElement.scrollWidth") <= 400
    page.select_option("#lang", "en")
    page.set_viewport_size({"width": 1280, "height": 800})


def test_a_timed_table_shows_every_clock_and_counts_the_running_one_down(
        chromium: Any, server: str, shots: Path) -> None:
    page, errors = open_page(chromium, locale="en-US")
    url = new_table(page, server, {"kind": "realtime", "base": 180, "increment": 2}, rated=True)
    # beside the game's name: Rated, and the control's label with what it means
    assert page.locator("#rated").inner_text() == "Rated"
    assert page.locator("#time-control").inner_text().strip() == "3+2"
    assert "2 s" in (page.locator("#time-control").get_attribute("title") or "")
    assert page.locator(".seat-clock").count() == 4
    for text in page.locator(".seat-clock .clock-time").all_inner_texts():
        assert 0 < seconds(text) <= 180, text
    # your turn comes: your clock runs, on the seat to act, and counts down
    mine = page.locator("#me .seat-clock")
    wait_until(lambda: "running" in (mine.get_attribute("class") or ""), timeout=30)
    assert page.locator(".seat-clock.running").count() == 1
    # the clocks come at once, the turn with its event (shown in order): the same seat
    wait_until(lambda: page.locator(".seat.to-act .seat-clock.running").count() == 1)
    assert mine.get_attribute("role") == "timer" and mine.get_attribute("aria-live") is None
    assert "(running)" in mine.inner_text()
    first = seconds(mine.locator(".clock-time").inner_text())
    wait_until(lambda: seconds(mine.locator(".clock-time").inner_text()) < first - 1, timeout=10)
    # a spectator sees the same clocks, the same one running
    watcher, watcher_errors = open_page(chromium, locale="en-US")
    watcher.goto(server + url)
    watcher.wait_for_selector(".seat-clock.running")
    assert watcher.locator(".seat-clock").count() == 4
    assert watcher.locator("#spectating").is_visible()
    # the lobby's list says it too, beside the game's name
    watcher.goto(server + "/")
    row = watcher.locator(f"#tables tr[data-table='{url.rsplit('/', 1)[1]}']")
    row.wait_for()
    assert row.locator(".badge.rated").inner_text() == "Rated"
    assert row.locator(".badge.time-control").inner_text() == "3+2"
    # the live note says nothing while the clocks merely tick
    assert page.locator("#clock-note").inner_text() == ""
    assert not serious(page)
    in_three_languages(page, shots, "clocks", lambda lang: page.locator("#rated").inner_text()
                       == i18n.t(lang, "table.rated"))
    assert not errors and not watcher_errors, errors + watcher_errors


def test_the_create_form_sends_the_chosen_time_control(chromium: Any, server: str,
                                                       shots: Path) -> None:
    page, errors = open_page(chromium, locale="en-US")
    page.goto(server + "/")
    pick = page.locator("#time-control")
    wait_until(lambda: pick.locator("option").count() > 10)
    assert pick.input_value() == "none"  # untimed unless asked
    assert page.locator("#tc-help").is_hidden()
    labels = pick.locator("option").all_inner_texts()
    for label in ("Untimed", "1+0", "3+2", "5+3", "10+5", "15 s/move", "30 s/move",
                  "60 s/move", "1 day/move", "3 days/move", "7 days/move"):
        assert any(x.startswith(label) for x in labels), (label, labels)
    page.select_option("#lang", "fr")
    wait_until(lambda: "Cadence" in page.locator("#time-box").inner_text())
    assert "Sans pendule" in pick.locator("option").all_inner_texts()
    page.select_option("#lang", "en")
    page.locator("#seats").scroll_into_view_if_needed()
    # another real time: minutes and seconds of one's own
    pick.select_option("custom")
    assert page.locator("#tc-custom").is_visible() and page.locator("#tc-help").is_visible()
    page.fill("#tc-base", "2")
    page.fill("#tc-inc", "1")
    page.locator("#time-box").screenshot(path=shots / "create-time-control.png")
    posted = page.expect_request(lambda r: r.url.endswith("/api/tables") and r.method == "POST")
    with posted as sent:
        page.click("#create button[type=submit]")
    assert sent.value.post_data_json["time_control"] == {"kind": "realtime", "base": 120,
                                                         "increment": 1}
    page.wait_for_url("**/tables/*")
    page.wait_for_selector(".seat-clock")
    assert page.locator("#time-control").inner_text().strip() == "2+1"
    assert page.locator("#rated").is_hidden()
    # a preset: three days a move, correspondence
    page.goto(server + "/")
    wait_until(lambda: pick.locator("option").count() > 10)
    pick.select_option('{"kind":"days","days":3}')
    page.click("#create button[type=submit]")
    page.wait_for_url("**/tables/*")
    page.wait_for_selector(".seat-clock")
    assert page.locator("#time-control").inner_text().strip() == "3 days/move"
    assert re.fullmatch(r"3 d 0 h", page.locator(".seat-clock .clock-time").first.inner_text())
    # Play now stays untimed
    page.goto(server + "/")
    page.wait_for_selector("#level-easy", state="attached")
    page.click("#play-now")
    page.wait_for_url("**/tables/*")
    page.wait_for_selector("#hand .card")
    assert page.locator(".seat-clock").count() == 0 and page.locator("#time-control").is_hidden()
    assert not errors, errors


def _out_of_time(page: Any) -> None:
    """Wait (bounded) until this page's seat ran out of its time a move."""
    wait_until(lambda: page.locator("#left-note").is_visible(), timeout=60)
    assert page.locator("#me .seat-clock").inner_text().strip() == "Out of time"
    assert "a bot plays for you" in page.locator("#left-note").inner_text()
    assert page.locator("#hand .card.legal").count() == 0
    wait_until(lambda: "Your time ran out" in page.locator("#clock-note").inner_text())


def test_out_of_time_at_a_casual_table_take_my_seat_back(chromium: Any, server: str,
                                                         shots: Path) -> None:
    page, errors = open_page(chromium, locale="en-US")
    new_table(page, server, {"kind": "move", "seconds": 10})
    assert page.locator("#time-control").inner_text().strip() == "10 s/move"
    # we do not move: our clock runs low (its tenths show), then out
    mine = page.locator("#me .seat-clock")
    seen: list[str] = []

    def low() -> bool:  # class and text read at once: the low state lasts 3.3 s
        seen[:] = mine.evaluate("(n) => [n.className, n.innerText]")
        return "low" in seen[0] or "out" in seen[0]

    wait_until(low, timeout=60)  # the last third of the move's 10 seconds
    page.screenshot(path=shots / "clocks-low-desktop.png")
    assert "running" in seen[0] and "low" in seen[0], seen
    assert re.fullmatch(r"⚠\s*0:0[0-3]\.\d\s*\(running, little time left\)", seen[1]), seen
    _out_of_time(page)
    back = page.locator("#take-back")
    assert back.inner_text() == "Take my seat back"
    assert page.locator("#left-note .rated-loss").count() == 0
    assert not serious(page)
    for lang in ("fr", "de", "en"):
        page.select_option("#lang", lang)
        wait_until(lambda lang=lang: back.inner_text() == i18n.t(lang, "clock.back"))
        in_its_language(page, lang, f"left seat {lang}")
    shoot(page, shots / "left-seat-desktop.png")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(150)
    shoot(page, shots / "left-seat-phone.png")
    page.set_viewport_size({"width": 1280, "height": 800})
    back.click()
    wait_until(lambda: page.locator("#left-note").is_hidden())
    # the seat is ours again: on our turn we play (10 seconds each time; out of time
    # again meanwhile, a slow machine takes it back again)
    deadline = time.monotonic() + 60
    while not step(page, lambda: False, calls=True):
        assert time.monotonic() < deadline, "our turn did not come back"
        if page.locator("#take-back").is_visible():
            page.click("#take-back")
        page.wait_for_timeout(30)
    toast = page.locator("#toast")
    assert toast.is_hidden() or "bot plays" not in toast.inner_text()  # no seat-left refusal
    assert not errors, errors


def _sign_up(page: Any, server: str, name: str) -> None:
    r = page.request.post(server + "/api/account/signup",
                          data={"username": name, "password": PASSWORD})
    assert r.ok, r.text()


def test_a_rated_match_end_shows_each_rating_change(chromium: Any, quick_server: str,
                                                    shots: Path) -> None:
    server = quick_server
    page, errors = open_page(chromium, locale="en-US")
    page.goto(server + "/")
    _sign_up(page, server, "Clock_Ann")
    new_table(page, server, {"kind": "realtime", "base": 600, "increment": 5}, rated=True,
              threshold=1)
    assert page.locator("#rated").is_visible()
    final = page.locator("#final")
    play_until(page, final.is_visible, 240, "the final standings", calls=True)
    change = re.compile(r"1500\? → (\d+)\? \(([+−]\d+|±0)\)")
    wait_until(lambda: page.locator("#final-table td.rating").count() == 4)
    assert "provisional" in page.locator("#final-note").inner_text()
    cells = page.locator("#final-table tbody td.rating").all_inner_texts()
    mine = page.locator("#final-table tr.mine td.rating").inner_text()
    assert change.fullmatch(mine), (mine, cells)
    assert sum(1 for c in cells if c) == 1, cells  # only accounts are rated: the bots' cells empty
    yours = page.locator("#result-rating").inner_text()
    assert yours == f"Your rating: {mine}", yours
    after, delta = change.fullmatch(mine).groups()  # type: ignore[union-attr]
    sign = -1 if delta.startswith("−") else 1
    assert int(after) - 1500 == (0 if delta == "±0" else sign * int(delta[1:]))
    # after a reload, the state's ratings say the same
    page.reload()
    page.wait_for_selector("#final-table tr.mine td.rating")
    assert page.locator("#final-table tr.mine td.rating").inner_text() == mine
    in_three_languages(page, shots, "rated-end", lambda lang: page.locator(
        "#final-title").inner_text() == i18n.t(lang, "table.finalTitle"))
    assert not errors, errors


def test_out_of_time_at_a_rated_table_is_a_loss(chromium: Any, steady_server: str) -> None:
    server = steady_server
    page, errors = open_page(chromium, locale="en-US")
    page.goto(server + "/")
    _sign_up(page, server, "Clock_Bob")
    new_table(page, server, {"kind": "move", "seconds": 5}, rated=True, threshold=1)
    _out_of_time(page)
    assert page.locator("#take-back").count() == 0  # a rated match: no way back
    assert "counts as a loss" in page.locator("#left-note .rated-loss").inner_text()
    # the bot plays our seat to the end: we are placed last, and our rating goes down
    wait_until(lambda: page.locator("#final-table tr.mine td.rating").count() == 1, timeout=240)
    row = page.locator("#final-table tr.mine")
    assert row.locator("td.place").inner_text() == "4."
    assert "(left: placed last)" in row.locator("td.who").inner_text()
    assert "−" in row.locator("td.rating").inner_text()
    assert page.locator("#left-note").is_hidden()
    assert not errors, errors
