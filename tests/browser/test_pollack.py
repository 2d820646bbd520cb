"""A whole Pollack game in a real browser: partners marked, the score sheet in side columns
(partie scores, parties won, game points) and reason lines that name the sides and add up,
all checked against the core's replay of the table's record.

Screenshots (390x844 and 1280x800, en/fr/de) go to ``$POLIGNAC_SCREENSHOTS``; among them
``pollack-end-desktop.png`` (the game over at 1280x800, docs/screenshots).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import open_page, open_table, play_until, wait_until

from polignac.core import replay, summary

pytest.importorskip("playwright.sync_api")


def _numbers(row: Any) -> list[int]:
    return [int(x) for x in row.locator("td").all_inner_texts()[1:]]


def _play_to_the_end(page: Any, shot: Path) -> None:
    """Play the first legal card whenever it is this page's turn, until the game is over;
    take ``shot`` once the first partie is over."""

    def first_partie_shot() -> None:
        if not shot.exists() and page.locator("#scores .partie-end").count():
            page.screenshot(path=shot, full_page=True)

    play_until(page, lambda: page.locator("#result:not([hidden])").count() > 0, 240,
               "the end of the game", each=first_partie_shot)


def _check_partners(page: Any) -> None:
    """Seat 0 (this page) sits with seat 2: its partner is marked, the others by side."""
    partner = page.locator(".seat[data-seat='2']")
    assert "partner" in (partner.get_attribute("class") or "")
    assert "partner" in partner.locator(".badge.side-mark").inner_text().lower()
    assert "Side 1" in partner.locator(".badge.side-mark").inner_text()
    for seat in (1, 3):
        box = page.locator(f".seat[data-seat='{seat}']")
        assert "partner" not in (box.get_attribute("class") or "")
        assert box.locator(".badge.side-mark").inner_text() == "Side 2"


def _check_sheet(page: Any, want: dict[str, Any], names: tuple[str, str]) -> None:
    """The sheet on the page against the core's summary of the record."""
    deals = want["deals"]
    head = page.locator("#scores thead th").all_inner_texts()
    assert head[1].startswith("Side 1") and head[2].startswith("Side 2"), head
    assert names[0] in head[1] and names[1] in head[2], head
    rows = page.locator("#scores tbody tr")
    assert rows.count() == len(deals) + len(want["partie_scores"])
    i = ends = 0
    for k in range(rows.count()):
        row = rows.nth(k)
        if "partie-end" in (row.get_attribute("class") or ""):
            assert _numbers(row) == want["partie_scores"][ends]
            winner = want["parties_won"][ends]
            assert f"won by Side {winner + 1}" in row.locator("td").first.inner_text()
            ends += 1
        else:
            assert row.locator("td").first.inner_text() == str(deals[i]["number"])
            assert _numbers(row) == deals[i]["side_scores"]
            i += 1
    assert (i, ends) == (len(deals), len(want["partie_scores"]))
    foot = page.locator("#scores tfoot tr")
    assert foot.count() == 2  # parties won, game points (no partie in progress: it is over)
    assert _numbers(foot.nth(0)) == want["parties_tally"]
    assert _numbers(foot.nth(1)) == want["game_points"]
    assert sum(want["parties_tally"]) == 6


def _check_reasons(page: Any, want: dict[str, Any]) -> None:
    """Every deal's reason lines name Side 1 or Side 2 and add up to each side's score."""
    blocks = page.locator("#lastdeal details.why")
    assert blocks.count() == len(want["deals"])
    for d in want["deals"]:
        block = page.locator(f"#lastdeal details[data-deal='{d['number']}']")
        items = block.locator("li[data-points]")
        got = [0, 0]
        assert items.count() == len(d["reasons"])
        for k in range(items.count()):
            li = items.nth(k)
            text = li.text_content()
            side = int(li.get_attribute("data-side"))
            points = int(li.get_attribute("data-points"))
            assert re.match(rf"Side {side + 1}: [+-]?{abs(points)}\b", text), text
            assert not re.search(r"Side [03-9]|\bseat\b|card-points|announce\b|\{", text), text
            got[side] += points
        assert got == d["side_scores"], (d["number"], got)
        claim = block.locator("li.claim")
        if "claim" in d:
            said = "rightly" if d["claim"]["correct"] else "wrongly"
            assert re.fullmatch(rf".+ claimed out, {said}: Side {d['partie_won_by'] + 1} wins "
                                "the partie", claim.text_content() or "")
        else:
            assert claim.count() == 0


@pytest.mark.timeout(900)  # six parties of play: minutes on a busy machine
def test_a_whole_pollack_game(quick_server: str, chromium: Any, shots: Path) -> None:
    server = quick_server
    page, errors = open_page(chromium, locale="en-US")
    info = page.request.get(server + "/api/presets").json()
    pollack = next(x for x in info["presets"] if x["name"] == "pollack")
    assert pollack["partnerships"] is True and pollack["sides"] == [[0, 2], [1, 3]]
    url = open_table(page, server, "pollack")
    _check_partners(page)
    page.screenshot(path=shots / "pollack-01-first-deal-en.png")
    _play_to_the_end(page, shots / "pollack-01-second-partie-en.png")

    record = page.request.get(server + url + "/record.json").json()
    want = summary(replay(record))
    assert want["finished"] and want["sides"] == [[0, 2], [1, 3]]
    _check_partners(page)
    _check_sheet(page, want, ("You", want["players"][1]))
    _check_reasons(page, want)
    tally = want["parties_tally"]
    for seat in range(4):  # each seat box: its side's parties, not a reset total
        info = page.locator(f".seat[data-seat='{seat}'] .seat-info").inner_text()
        assert f"parties {tally[seat % 2]}" in info, info
    if want["winners"]:
        side = want["winners"][0] & 1
        said = rf"Game over: Side {side + 1} \(.+\) wins, parties {tally[side]}–" \
               rf"{tally[1 - side]}\."
    else:
        said = rf"Game over: a draw, parties {tally[0]}–{tally[0]}\."
    assert re.fullmatch(said, page.locator("#result-text").inner_text())
    assert page.locator("#log li").last.inner_text() == "The match is over."  # not "next deal"
    # the felt's final standings: one row per side, with its partners and parties won
    rows = page.locator("#final-table tbody tr")
    assert rows.count() == 2
    won = sorted(((int(rows.nth(i).locator("td.score").inner_text()),
                   rows.nth(i).locator("td.place").inner_text()) for i in range(2)),
                 reverse=True)
    assert [w for w, _ in won] == sorted(tally, reverse=True)
    assert [p for _, p in won] == (["1.", "1."] if tally[0] == tally[1] else ["1.", "2."])
    assert page.locator("#final-table tbody tr.mine td.who").inner_text().startswith("Side 1 (You")
    page.set_viewport_size({"width": 1280, "height": 800})  # the docs' picture of the end
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(100)
    page.screenshot(path=shots / "pollack-end-desktop.png")
    for lang in ("en", "fr", "de"):
        page.select_option("#lang", lang)
        page.wait_for_timeout(100)
        page.evaluate("document.querySelectorAll('#lastdeal details').forEach("
                      "(d) => { d.open = true; })")
        for w, h in ((1280, 800), (390, 844)):
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_timeout(100)
            page.screenshot(path=shots / f"pollack-02-over-{lang}-{w}.png", full_page=True)
            page.locator("aside.side").screenshot(
                path=shots / f"pollack-03-sheet-{lang}-{w}.png")
        text = page.locator("#lastdeal").text_content()
        assert "why." not in text and "reason." not in text and "{" not in text, text
    page.select_option("#lang", "en")
    page.set_viewport_size({"width": 1280, "height": 800})

    # The replay viewer shows the same sheet from the record.
    page.goto(server + url + "/replay")
    page.wait_for_selector("#pos")
    page.keyboard.press("End")
    page.wait_for_selector("#result:not([hidden])")
    assert re.fullmatch(said, page.locator("#result").inner_text())
    _check_sheet(page, want, (want["players"][0], want["players"][1]))
    items = page.locator("#dealscore li[data-points]")
    last = want["deals"][-1]
    assert items.count() == len(last["reasons"])
    assert all(re.match(r"Side [12]: ", x) for x in items.all_inner_texts())
    page.screenshot(path=shots / "pollack-04-replay-end-en.png", full_page=True)
    assert not errors, errors


def test_the_score_pad_names_pollack_sides_from_the_server(quick_server: str, chromium: Any,
                                                           shots: Path) -> None:
    page, errors = open_page(chromium, 1000, 800, locale="en-US")
    page.goto(quick_server + "/scorepad")
    page.wait_for_selector("body[data-ready='1']", state="attached")
    page.select_option("#sp-preset", "pollack")
    for i, name in enumerate(["Ann", "Bob", "Cy", "Di"]):
        page.fill(f"[name=name{i}]", name)
    page.click("#sp-start")
    page.wait_for_selector("#entry-panel:not([hidden])")
    labels = page.locator('[data-field="card_points"] label span').all_inner_texts()
    assert labels == ["Ann & Cy", "Bob & Di"]
    page.fill('[data-field="card_points[0]"]', "20")
    page.fill('[data-field="card_points[1]"]', "12")
    page.select_option('[data-field="last_trick"]', label="Ann & Cy")
    page.click("#sp-score")
    wait_until(lambda: page.locator("#sp-table tbody tr").count() == 1)
    # (20 + 3 for the last trick) / 3 = 7 and 12 / 3 = 4, each seat its side's
    totals = [page.locator(f"#sp-total-{s}").inner_text() for s in range(4)]
    assert totals == ["7", "4", "7", "4"]
    won = page.locator("#sp-table tfoot tr").nth(1).locator("td").all_inner_texts()
    assert won == ["0", "0", "0", "0"]
    page.screenshot(path=shots / "pollack-05-score-pad.png", full_page=True)
    assert not errors, errors
