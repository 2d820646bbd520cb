"""Every word in the page language: rules pages, lobby, table, replay viewer and score pad.

The check: in French and German, no visible text (``document.body.innerText``, button and
ARIA labels, titles, placeholders) contains a piece of English from the English catalog
that is not also French (German) text. Proper names of the test, card codes and numbers are
not catalog text, so they pass. Screenshots go to ``$POLIGNAC_SCREENSHOTS``.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import open_page, wait_until

from polignac import i18n
from polignac.core import PRESETS, get_rules
from polignac.core.describe import rules_text

pytest.importorskip("playwright.sync_api")

RECORD = Path(i18n.__file__).parent.parent / "data" / "records" / "polignac-4p-seed1.json"
PLACEHOLDER = re.compile(r"\{\w+\}")
RAW_KEY = re.compile(r"\b(?:lobby|table|rules|rulespage|scorepad|reason|error|name|preset|"
                     r"choice|level|detail|replay|call|conn|nav|card|rank|suit)\.[a-zA-Z]")
SEEN = """() => {
  const out = [document.body.innerText];
  for (const n of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    out.push(n.getAttribute("aria-label") || "", n.getAttribute("title") || "",
             n.getAttribute("placeholder") || "");
  }
  const code = [...document.querySelectorAll("code")].map((n) => n.innerText);
  return { text: out.join("\\n"), code };
}"""


@cache
def english_pieces(lang: str) -> tuple[str, ...]:
    """Pieces of English text (between placeholders) that the ``lang`` catalog does not use."""
    en, other = i18n.catalog("en"), i18n.catalog(lang)
    theirs = "\n".join(other.values())
    pieces = set()
    for key, text in en.items():
        if text == other[key]:
            continue
        for piece in PLACEHOLDER.split(text):
            piece = piece.strip(" .,:;()!?—–-…\"'“”")
            words = re.findall(r"[A-Za-zÀ-ÿ]+", piece)
            long_enough = len(words) >= 2 or (words and len(words[0]) >= 6)
            if long_enough and piece not in theirs:
                pieces.add(piece)
    return tuple(sorted(pieces, key=len, reverse=True))


def english_in(seen: dict[str, Any], lang: str) -> list[str]:
    """The English pieces in what a person sees (text in <code> is a word to type)."""
    text = seen["text"]
    for code in seen["code"]:
        text = text.replace(code, " ")
    text = text.replace("\u00a0", " ")
    return [piece for piece in english_pieces(lang)
            if piece in text and re.search(rf"(?<![\w]){re.escape(piece)}(?![\w])", text)]


def check(page: Any, lang: str, where: str) -> None:
    """No catalog key and, in French and German, no English catalog text on ``page``."""
    seen = page.evaluate(SEEN)
    assert not RAW_KEY.findall(seen["text"]), (where, RAW_KEY.findall(seen["text"]))
    if lang != "en":
        english = english_in(seen, lang)
        assert not english, (where, english)


def ready(page: Any) -> None:
    page.wait_for_selector("body[data-ready='1']", state="attached")


def test_every_rules_page_in_three_languages(chromium: Any, server: str, shots: Path) -> None:
    page, errors = open_page(chromium, 390, 844)
    for lang in i18n.LANGS:
        for preset in PRESETS:
            page.goto(f"{server}/rules/{preset}?lang={lang}")
            ready(page)
            cards = rules_text(get_rules(preset)).cards
            assert page.locator(".rule-cards svg.card-svg").count() == len(cards)
            assert page.locator("#lang").input_value() == lang
            check(page, lang, f"/rules/{preset} {lang}")
        page.screenshot(path=shots / f"i18n-rules-{lang}.png", full_page=True)
    # The visitor's choice sticks: the last ?lang is remembered for /rules.
    page.goto(f"{server}/rules")
    assert page.locator("html").get_attribute("lang") == "de"
    page.select_option("#lang", "fr")
    page.wait_for_url("**/rules?lang=fr")
    assert "Les jeux et leurs règles" in page.inner_text("h1")
    page.click("[data-preset=pollack]")
    ready(page)
    assert "Comment jouer" in page.inner_text("h1")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=shots / "i18n-rules-pollack-fr-wide.png")
    page.goto(f"{server}/rules/no-such-game")
    assert "Page introuvable" in page.inner_text("h1")
    assert not errors


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_lobby_table_replay_and_score_pad(chromium: Any,
                                          server: str, shots: Path, lang: str) -> None:
    page, errors = open_page(chromium, 390, 844)

    # Lobby: the picker shows names, summaries and the rules link.
    page.goto(f"{server}/?lang={lang}")
    wait_until(lambda: page.locator("#preset option").count() == len(PRESETS))
    page.select_option("#preset", "polignac-fr")
    assert page.locator("#preset option:checked").inner_text() == \
        i18n.preset_name("polignac-fr", lang)
    assert "polignac-fr" in page.inner_text("#preset-about")
    page.select_option("#players", "5")
    page.select_option("[name=seat2]", "open")
    check(page, lang, "lobby")
    page.screenshot(path=shots / f"i18n-lobby-{lang}.png", full_page=True)
    page.click("#create button[type=submit]")
    page.wait_for_selector("#go-table")
    check(page, lang, "lobby after create")
    with page.expect_navigation():
        page.click("#preset-rules")
    assert page.url.endswith("/rules/polignac-fr")
    assert page.locator("html").get_attribute("lang") == lang

    # A table with bots: play until a trick or two are done.
    page.goto(f"{server}/")
    page.click("#play-now")
    page.wait_for_url("**/tables/*")
    page.wait_for_selector("#hand .card", timeout=10000)
    check(page, lang, "table")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=shots / f"i18n-table-{lang}.png")
    assert page.locator("#rules-link").get_attribute("href").endswith("/rules")

    # The replay viewer, at the end of the example match.
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server}/replay")
    # The first POST /api/replay starts the server's worker pool (forkserver, preloaded
    # imports): on a busy 2-core machine that takes well over 20 s, so wait for the answer.
    with page.expect_response(lambda r: "/api/replay" in r.url and r.request.method == "POST",
                              timeout=120_000) as answer:
        page.set_input_files("#file", str(RECORD))
    assert answer.value.ok, answer.value.text()
    wait_until(lambda: page.inner_text("#title") != "")
    page.keyboard.press("End")
    wait_until(lambda: page.locator("#dealscore li").count() > 0)
    check(page, lang, "replay")
    page.screenshot(path=shots / f"i18n-replay-{lang}.png", full_page=True)

    # The score pad: set up a Pollack pad and score one deal.
    page.goto(f"{server}/scorepad")
    ready(page)
    page.select_option("#sp-preset", "pollack")
    for i, name in enumerate(["Ann", "Bob", "Cy", "Di"]):
        page.fill(f"[name=name{i}]", name)
    check(page, lang, "score pad setup")
    page.click("#sp-start")
    page.wait_for_selector("#entry-panel:not([hidden])")
    page.fill('[data-field="card_points[0]"]', "20")
    page.fill('[data-field="card_points[1]"]', "12")
    page.select_option('[data-field="last_trick"]', "0")
    page.click("#sp-score")
    wait_until(lambda: page.locator("#sp-table tbody tr").count() == 1)
    page.fill('[data-field="card_points[0]"]', "-5")  # an error in the page language
    page.click("#sp-score")
    wait_until(lambda: page.inner_text("#sp-error") != "")
    error = page.inner_text("#sp-error")
    assert "card_points" not in error and i18n.t(lang, "scorepad.sidePoints") in error
    check(page, lang, "score pad")
    page.screenshot(path=shots / f"i18n-scorepad-{lang}.png", full_page=True)
    assert not errors
