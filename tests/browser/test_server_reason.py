"""The server's reason for a refused house-rule set in the page language
(``labels.js:serverReason``): the catalog's words for the error's code, the house rule named
as the Create form names it and its values in words."""

from __future__ import annotations

from typing import Any

import pytest

from polignac import i18n

pytest.importorskip("playwright.sync_api")

REASON = """async (overrides) => {
  const { postJson } = await import("/static/api.js");
  const { serverReason } = await import("/static/labels.js");
  try {
    await postJson("/api/tables", { preset: "polignac", players: 4,
      seats: [{ kind: "you" }, { kind: "bot" }, { kind: "bot" }, { kind: "bot" }], overrides });
  } catch (e) {
    return [e.message, serverReason(e.data), e.data.error];
  }
  return null;
}"""


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_the_reason_in_the_page_language(chromium: Any, server: str, lang: str) -> None:
    page = chromium.new_page()
    page.goto(f"{server}/?lang={lang}")
    page.wait_for_selector("#seats select", state="attached")
    head, reason, english = page.evaluate(REASON, {"threshold": 100000})
    assert head == i18n.t(lang, "error.bad-rules")
    name = i18n.t(lang, "rulesError.quote", name=i18n.t(lang, "rule.threshold"))
    assert reason == i18n.t(lang, "rulesError.out-of-range", param=name, lo=1, hi=500,
                            value="100000"), reason
    assert english == "threshold must be from 1 to 500, not 100000"
    head, reason, _ = page.evaluate(REASON, {"suits": "x"})
    allowed = f"{i18n.t(lang, 'choice.french')}, {i18n.t(lang, 'choice.german')}"
    assert reason.endswith(f"{allowed}."), reason
    assert i18n.t(lang, "rule.suits") in reason
    if lang != "en":
        assert "must" not in reason
