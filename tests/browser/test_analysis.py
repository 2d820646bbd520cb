"""The analysis of every card in the replay viewer: a record without annotations is
analysed by the server at the click of a button, with a progress bar (deals done / to
do); its blunder is marked at the card with the cost first and the better card named,
and listed in the deal's summary; an annotated record shows its annotations at once;
a table's analysis is stored and shown again after a reload without a new job."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import open_page, page_pause, step, wait_until
from tests.browser.test_accessibility import violations

from polignac.bots.analysis import Settings, analyze_record, annotate
from polignac.core import Match, get_rules, to_record
from polignac.server.web import analysis_routes

pytest.importorskip("playwright.sync_api")

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def _record(seed: int) -> dict[str, Any]:
    """One random 6-player Polignac deal (5 cards each: quick to analyse)."""
    rng = random.Random(seed)
    m = Match.new(get_rules("polignac", {"threshold": 100}), 6, 0, NAMES).deal_random(rng)
    while m.current is not None:
        m = m.apply(rng.choice(m.legal_actions()))
    return to_record(m)


def _with_blunder() -> tuple[dict[str, Any], dict[str, Any], int]:
    """A record, its analysis with the server's settings, and the step of a blunder."""
    settings = Settings(samples=analysis_routes.SAMPLES, nodes=analysis_routes.NODES)
    for seed in range(50):
        record = _record(seed)
        (analysis,) = analyze_record(record, settings)
        steps = [i for i, e in enumerate(analysis["actions"], start=1)
                 if e.get("mark") == "blunder" and len(e["action"]) == 2]
        if steps:
            return record, analysis, steps[0]
    raise AssertionError("no blunder in 50 random deals")


def test_analyse_an_uploaded_record_and_see_its_blunder(chromium: Any, server: str, shots: Path,
                                                        tmp_path: Path) -> None:
    record, analysis, step = _with_blunder()
    blunder = analysis["actions"][step - 1]
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    annotated = tmp_path / "annotated.json"
    annotated.write_text(json.dumps(annotate(record, [analysis])))
    browser = chromium
    page, errors = open_page(browser, 1280, 800, locale="en-US")
    page.goto(server + "/replay")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("#analyze-btn", timeout=60_000)
    page.click("#analyze-btn")
    page.wait_for_selector("#analysis-progress", timeout=30_000)  # deals done / to do
    page.wait_for_function("""() => /of 1$/.test(
      document.querySelector('.analysis-progress .analysis-state')?.textContent ?? '')""",
                           timeout=60_000)
    page.wait_for_selector(".analysis-summary", timeout=180_000)
    assert page.locator("#analysis-progress").count() == 0
    # the per-player summary is the analysis' (same settings, same seed)
    for row in analysis["players"]:
        cells = page.locator(f".analysis-summary tr[data-seat='{row['seat']}'] td")
        assert cells.nth(0).inner_text() == NAMES[row["seat"]]
        assert cells.nth(3).inner_text() == str(row["blunders"])
        assert cells.nth(2).inner_text() == str(row["mistakes"])
    link = page.locator(f".analysis-marked button[data-step='{step}']")
    assert link.get_attribute("data-mark") == "blunder"
    link.click()
    assert f"action {step} of" in page.locator("#pos").inner_text()
    box = page.locator(".analysis-action")
    assert box.get_attribute("data-mark") == "blunder"
    assert page.locator(".analysis-mark").inner_text() == "Blunder"
    text = box.inner_text()
    assert f"{NAMES[blunder['seat']]}:" in text
    cost = page.locator(".analysis-cost").inner_text()  # the cost is the main number
    assert cost.startswith("Cost: ") and "penalty points" in cost
    best = page.locator(".analysis-alternatives tr.best td").first.inner_text()
    assert page.locator(".analysis-better").inner_text() == f"Better: {best}."
    assert "against" in page.locator(".analysis-model").inner_text()  # the model, in words
    line = page.locator(f".analysis-marked button[data-step='{step}']").inner_text()
    assert f"{best} was better" in line
    rows = page.locator(".analysis-alternatives tr.played")
    assert rows.count() == 1 and "played" in rows.inner_text()
    assert page.locator(".analysis-alternatives tr.best").count() >= 1
    page.screenshot(path=shots / "analysis-01-blunder-en.png", full_page=True)
    found = violations(page, "replay viewer (a blunder's analysis)")
    assert not found, "\n".join(found)
    for lang in ("fr", "de"):
        page.select_option("#lang", lang)
        word = {"fr": "Gaffe", "de": "Grober Fehler"}[lang]
        assert page.locator(".analysis-mark").inner_text() == word
        better = {"fr": "Mieux : ", "de": "Besser: "}[lang]
        assert page.locator(".analysis-better").inner_text().startswith(better)
        page.screenshot(path=shots / f"analysis-02-blunder-{lang}.png", full_page=True)
    assert not errors, errors

    # an annotated record shows its annotations without asking the server
    phone = browser.new_page(viewport={"width": 390, "height": 844}, locale="fr-FR")
    phone.goto(server + "/replay?lang=fr")
    phone.set_input_files("#file", str(annotated))
    phone.wait_for_selector(".analysis-summary", timeout=60_000)
    assert phone.locator("#analyze-btn").count() == 0
    for _ in range(step):
        phone.click("#next")
    assert phone.locator(".analysis-action").get_attribute("data-mark") == "blunder"
    phone.screenshot(path=shots / "analysis-03-phone-fr.png", full_page=True)


def test_a_tables_finished_deal_analysis_for_its_score_sheet(chromium: Any, server: str) -> None:
    """showTableDealAnalysis (for the table's score sheet) fetches and shows the
    analysis of a deal just played at a table."""
    page, errors = open_page(chromium, 1280, 800, locale="en-US")
    r = page.request.post(server + "/api/play-now", data={})
    assert r.ok, r.text()
    url, table = r.json()["url"], r.json()["id"]
    page.goto(server + url)
    page.wait_for_selector("#hand .card")

    def first_deal_over() -> bool:
        if page.request.get(f"{server}/tables/{table}/record.json").json()["deals"]:
            return True
        step(page, lambda: page.locator("#result:not([hidden])").count() > 0, calls=True)
        return False

    wait_until(first_deal_over, 90, what="the end of the first deal", pause=page_pause(page))
    page.goto(server + "/replay")
    shown = page.evaluate("""async (table) => {
      const m = await import("/static/analysis.js");
      const box = document.createElement("div");
      box.id = "sheet";
      document.body.append(box);
      await m.showTableDealAnalysis(box, table, 1, (s) => `Seat ${s}`, "french");
      return box.querySelectorAll(".analysis-summary tr[data-seat]").length;
    }""", table)
    assert shown == 4
    assert page.locator("#sheet .analysis-summary h4").inner_text() == \
        "This deal, player by player"
    # a deal not finished: a short line, not an exception
    page.evaluate("""async (table) => {
      const m = await import("/static/analysis.js");
      await m.showTableDealAnalysis(document.getElementById("sheet"), table, 9,
        (s) => `Seat ${s}`, "french");
    }""", table)
    assert "The analysis failed" in page.locator("#sheet .error").inner_text()
    assert not errors, errors


def _first_worse(analyses: dict[str, Any]) -> tuple[int, int]:
    """(deal index, step) of the first action with a better alternative."""
    for n in sorted(analyses, key=int):
        for i, e in enumerate(analyses[n]["actions"], start=1):
            if "best" in e and e["best"] != e["action"]:
                return int(n) - 1, i
    raise AssertionError("every action was the best one")


def test_a_tables_analysis_shows_progress_and_is_stored(chromium: Any, server: str,
                                                        shots: Path) -> None:
    """Analyse every card of a table's finished deals from its replay: a progress bar
    while the server's per-deal jobs run; after a reload the stored analysis shows at
    once, without a new job; on a phone in French and German too."""
    page, errors = open_page(chromium, 1280, 800, locale="en-US")
    r = page.request.post(server + "/api/play-now", data={})
    assert r.ok, r.text()
    url, table = r.json()["url"], r.json()["id"]
    page.goto(server + url)
    page.wait_for_selector("#hand .card")

    def two_deals_over() -> bool:
        if len(page.request.get(f"{server}/tables/{table}/record.json").json()["deals"]) >= 2:
            return True
        step(page, lambda: False, calls=True)
        return False

    wait_until(two_deals_over, 180, what="the end of two deals", pause=page_pause(page))
    page.goto(f"{server}/tables/{table}/replay")
    page.click("#analyze-btn", timeout=60_000)
    page.wait_for_selector("#analysis-progress", timeout=30_000)
    total = page.request.get(f"{server}/tables/{table}/analysis").json()["total"]
    assert total >= 2
    page.wait_for_function("""(total) => new RegExp(`of ${total}$`).test(
      document.querySelector('.analysis-progress .analysis-state')?.textContent ?? '')""",
                           arg=total, timeout=60_000)
    page.wait_for_selector(".analysis-summary", timeout=600_000)
    stored = page.request.get(f"{server}/tables/{table}/analysis").json()
    assert stored["jobs"] == total and stored["done"] == total and not stored["running"]
    deal, at = _first_worse(stored["deals"])

    def show(p: Any) -> None:
        """Step page ``p`` to the action with a better alternative."""
        for _ in range(deal):
            p.click("#next-deal")
        for _ in range(at):
            p.click("#next")
        p.wait_for_selector(".analysis-better")

    show(page)
    best = page.locator(".analysis-alternatives tr.best td").first.inner_text()
    assert page.locator(".analysis-better").inner_text() == f"Better: {best}."
    assert page.locator(".analysis-cost").inner_text().startswith("Cost: ")
    page.screenshot(path=shots / "analysis-desktop.png", full_page=True)

    # a reload: the stored analysis at once, no new job, no analysis asked for
    asked: list[str] = []
    page.on("request", lambda req: asked.append(f"{req.method} {req.url}"))
    page.reload()
    page.wait_for_selector(".analysis-summary", timeout=30_000)
    assert page.locator("#analyze-btn").count() == 0
    assert not [a for a in asked if a.startswith("POST") and "analy" in a], asked
    assert page.request.get(f"{server}/tables/{table}/analysis").json()["jobs"] == total
    assert not errors, errors

    for lang, better in (("fr", "Mieux : "), ("de", "Besser: ")):
        phone, phone_errors = open_page(chromium, 390, 844, locale=f"{lang}-{lang.upper()}")
        phone.goto(f"{server}/tables/{table}/replay?lang={lang}")
        phone.wait_for_selector(".analysis-summary", timeout=30_000)
        show(phone)
        assert phone.locator(".analysis-better").inner_text().startswith(better)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"
        phone.screenshot(path=shots / f"analysis-phone-{lang}.png", full_page=True)
        assert not phone_errors, phone_errors
        phone.close()
    assert page.request.get(f"{server}/tables/{table}/analysis").json()["jobs"] == total
