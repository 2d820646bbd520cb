"""What cannot be undone asks first, and what you click answers at once.

- Pollack's claim: prominent only when the side's count reaches the partie's target, and
  always a question first (cancel: nothing sent; confirm: the deal ends).
- Leaving a match that is on (the site's name in the header) asks first.
- A card you click leaves the hand and the status changes before the server's answer;
  a refused action comes back to the hand with the server's reason. The click-to-feedback
  time is measured in the page and printed (``-s``): a figure, not a check.

At 390x844 and 1280x800, in English, French and German.
"""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import open_page, open_table, step, wait_until

from polignac import i18n

pytest.importorskip("playwright.sync_api")

SIZES = ((390, 844), (1280, 800))


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_a_claim_asks_first_and_is_quiet_until_plausible(chromium: Any, quick_server: str,
                                                         shots: Path, lang: str) -> None:
    width, height = SIZES[0] if lang != "en" else SIZES[1]
    page, errors = open_page(chromium, width, height)
    open_table(page, quick_server, "pollack", query=f"?lang={lang}")
    claim = page.locator("#prompt .call[data-action=claim]")
    while not claim.count():  # play until this page is on lead
        if not step(page, lambda: claim.count() > 0):
            page.wait_for_timeout(30)
    count, target = claim.get_attribute("data-count"), claim.get_attribute("data-target")
    plausible = bool(target) and int(count or 0) >= int(target or 0)
    classes = claim.get_attribute("class") or ""
    assert ("primary" in classes) == plausible, (classes, count, target)
    seq = page.evaluate("document.body.dataset.seq")
    claim.click()
    page.wait_for_selector("#confirm[open]")
    assert i18n.t(lang, "confirm.claimTitle") == page.inner_text("#confirm-title")
    if count:
        assert count in page.inner_text("#confirm-text")
    page.screenshot(path=shots / f"guard-claim-{lang}-{width}.png")
    page.click("#confirm-no")
    wait_until(lambda: page.locator("#confirm").count() == 0)  # closed, then removed
    assert claim.count() == 1 and page.evaluate("document.body.dataset.seq") == seq
    claim.click()
    page.click("#confirm-yes")
    page.wait_for_selector("#lastdeal details.why")  # the claim ended the deal
    assert not errors, errors


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_leaving_a_match_that_is_on_asks_first(chromium: Any, quick_server: str, lang: str) -> None:
    for width, height in SIZES:
        page, errors = open_page(chromium, width, height)
        url = open_table(page, quick_server, "polignac", query=f"?lang={lang}")
        page.click("header a.brand")
        page.wait_for_selector("#confirm[open]")
        assert page.inner_text("#confirm-title") == i18n.t(lang, "confirm.leaveTitle")
        page.click("#confirm-no")
        assert page.url.split("?")[0].endswith(url)
        page.click("header a.brand")
        with page.expect_navigation():
            page.click("#confirm-yes")
        assert page.url.rstrip("/").split("?")[0] == quick_server
        assert not errors, errors
        page.close()


CLICKS = """() => {
  window.__fb = [];
  const hand = document.querySelector('#hand');
  const status = document.querySelector('#status');
  document.addEventListener('click', (e) => {
    const card = e.target.closest && e.target.closest('#hand .card.legal');
    if (!card || document.querySelector('.pass-cards')) return;
    const code = card.dataset.card, seq = document.body.dataset.seq, text = status.textContent;
    const t0 = e.timeStamp;
    const shown = () => !hand.querySelector(`.card[data-card="${code}"]`)
      && status.textContent !== text;
    let before = null;  // whether the page had changed before the server's event came
    const seen = new MutationObserver(() => {
      if (before !== null || !shown()) return;
      before = document.body.dataset.seq === seq;
      seen.disconnect();
    });
    seen.observe(document.body, {childList: true, subtree: true, characterData: true,
                                 attributes: true, attributeFilter: ['data-seq']});
    const look = () => {
      if (shown()) {
        if (before === null) { before = document.body.dataset.seq === seq; seen.disconnect(); }
        window.__fb.push({ms: performance.now() - t0, before});
        return;
      }
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  }, true);
}"""
"""Record, for each click on a legal card, how long until the card is out of the hand and
the status has changed (at the next frame that shows it), and whether the page had changed
before the server's event came (seen by a MutationObserver the moment it happens: a loaded
renderer may show its next frame after the answer, which is no fault of the page)."""


def _feedback_at(chromium: Any, server: str, lang: str, width: int, height: int) -> list[float]:
    """Play six cards on a page of this size; the click-to-feedback times (ms). Then a
    refused action: the card comes back with the server's reason."""
    page, errors = open_page(chromium, width, height)
    open_table(page, server, "polignac", query=f"?lang={lang}")
    page.evaluate(CLICKS)
    played = 0
    while played < 6:
        if step(page, lambda: False, calls=True) == "card":
            played += 1
        else:
            page.wait_for_timeout(30)
    wait_until(lambda: page.evaluate("window.__fb.length") >= played)
    got = page.evaluate("window.__fb")
    assert all(x["before"] for x in got), got  # shown before the server's answer
    page.evaluate("""() => {
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (data) {
        const f = JSON.parse(data);
        if (f.type === 'act') f.action = 'ZZ';
        return send.call(this, JSON.stringify(f));
      };
    }""")
    legal = page.locator("#hand .card.legal")
    wait_until(lambda: legal.count() > 0 or page.locator("#prompt .call").count() > 0, 60)
    if legal.count():
        code = legal.first.get_attribute("data-card")
        legal.first.click()
        wait_until(lambda: page.locator(f"#hand .card.legal[data-card='{code}']").count() == 1)
        wait_until(lambda: page.locator("#toast").is_visible())
        assert page.locator("#toast").inner_text()
    assert not errors, errors
    page.close()
    return [x["ms"] for x in got]


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_a_played_card_answers_at_once(chromium: Any, server: str, lang: str) -> None:
    times: list[float] = []
    order: list[float] = []
    for width, height in SIZES:
        got = _feedback_at(chromium, server, lang, width, height)
        order += [round(x) for x in got]
        times += got
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    print(f"\nclick-to-feedback [{lang}] n={len(times)} median {statistics.median(times):.1f} ms, "
          f"p95 {p95:.1f} ms, max {times[-1]:.1f} ms; in order of play (ms): {order}")
