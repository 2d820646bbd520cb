"""The replay viewer in a real browser: upload a record, step through it; a bad record."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import open_page, wait_until

from polignac.core import Match, get_rules, to_record

pytest.importorskip("playwright.sync_api")


def _record(seed: int = 7) -> dict[str, Any]:
    rng = random.Random(seed)
    names = ["Ann", "Bob", "Cy", "Dee"]
    m = Match.new(get_rules("polignac", {"threshold": 4}), 4, rng.randrange(4), names)
    while not m.finished:
        m = m.deal_random(rng) if m.needs_deal else m.apply(rng.choice(m.legal_actions()))
    return to_record(m)


def test_upload_and_step_through(chromium: Any, server: str, shots: Path, tmp_path: Path) -> None:
    record = _record()
    good = tmp_path / "match.json"
    good.write_text(json.dumps(record))
    bad_record = copy.deepcopy(record)
    bad_record["deals"][0]["actions"][4] = bad_record["deals"][0]["actions"][3]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(bad_record))
    page, errors = open_page(chromium, 1200, 900, locale="en-US")
    page.goto(server + "/")
    page.click("#replay-link")
    page.wait_for_url("**/replay")
    page.set_input_files("#file", str(bad))
    page.wait_for_selector("#error:has-text('deal 1, action 5')")
    assert "rule:" in page.locator("#error").inner_text()
    page.set_input_files("#file", str(good))
    page.wait_for_selector("#viewer:not([hidden])")
    deals = len(record["deals"])
    assert page.locator("#pos").inner_text() == \
        f"Deal 1 of {deals} · action 0 of {len(record['deals'][0]['actions'])}"
    assert page.locator("#hands .replay-hand").count() == 4
    assert page.locator("#hands .card-svg.gone").count() == 0
    first = record["deals"][0]["actions"][0]
    page.keyboard.press("ArrowRight")
    assert page.locator("#pos").inner_text().startswith(f"Deal 1 of {deals} · action 1")
    if len(first) == 2:
        assert page.locator("#trick .played").count() == 1
        assert page.locator("#hands .card-svg.gone").count() == 1
    for _ in range(6):
        page.click("#next")
    page.screenshot(path=shots / "replay-01-mid-deal.png", full_page=True)
    page.keyboard.press("ArrowLeft")
    assert "action 6" in page.locator("#pos").inner_text()
    page.keyboard.press("ArrowDown")
    assert page.locator("#pos").inner_text().startswith(f"Deal 2 of {deals} · action 0")
    page.keyboard.press("ArrowLeft")  # back to the end of deal 1: its score
    page.wait_for_selector("#dealscore li")
    assert page.locator("#chart svg.chart").count() == 1
    page.keyboard.press("End")
    page.wait_for_selector("#result:not([hidden])")
    assert "Match over" in page.locator("#result").inner_text()
    page.select_option("#lang", "fr")
    assert page.locator("#pos").inner_text().startswith(f"Donne {deals} sur {deals}")
    page.screenshot(path=shots / "replay-02-end-fr.png", full_page=True)
    assert not errors, errors


def test_table_replay_of_a_running_match(chromium: Any, server: str, shots: Path) -> None:
    page, errors = open_page(chromium, 1000, 800, locale="en-US")
    r = page.request.post(server + "/api/play-now", data={})
    page.goto(server + r.json()["url"] + "/replay")
    page.wait_for_selector("#notice:has-text('finished deals only')")
    wait_until(lambda: page.locator("#pos").inner_text() == "No deal has finished yet.")
    assert page.locator("#download").get_attribute("href", timeout=1000).endswith(
        "/record.json")
    assert not errors, errors


def test_a_long_record_comes_a_page_at_a_time(chromium: Any, server: str,
                                              tmp_path: Path) -> None:
    rng = random.Random(5)
    m = Match.new(get_rules("polignac", {"match_end": "fixed-deals", "deals": 20}), 4, 0,
                  ["Ann", "Bob", "Cy", "Dee"])
    while not m.finished:
        m = m.deal_random(rng) if m.needs_deal else m.apply(rng.choice(m.legal_actions()))
    record = to_record(m)
    path = tmp_path / "long.json"
    path.write_text(json.dumps(record))
    page, errors = open_page(chromium, 1200, 900, locale="en-US")
    pages: list[str] = []
    page.on("request", lambda r: pages.append(r.url.split("?")[1])
            if "/api/replay" in r.url else None)
    page.goto(server + "/replay")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("#viewer:not([hidden])")
    assert page.locator("#pos").inner_text().startswith("Deal 1 of 20 · action 0")
    page.keyboard.press("End")  # the last page only
    page.wait_for_selector("#result:not([hidden])")
    assert page.locator("#pos").inner_text().startswith("Deal 20 of 20")
    for _ in range(5):
        page.keyboard.press("ArrowUp")  # the start of deal 20, deals 19..17, then 16 (the
                                        # page before: its states come after a request)
    wait_until(lambda: page.locator("#pos").inner_text().startswith("Deal 16 of 20 · action 0"))
    page.keyboard.press("ArrowLeft")  # the end of deal 15, on the same page
    last = len(record["deals"][14]["actions"])
    wait_until(lambda: page.locator("#pos").inner_text() == f"Deal 15 of 20 · action {last} "
                                                           f"of {last}")
    assert pages[:2] == ["from=1&count=8", "from=17&count=8"] and "from=9&count=8" in pages
    assert len(pages) == len(set(pages)) == 3
    assert not errors, errors
