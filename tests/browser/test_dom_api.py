"""The pages' shared modules in a real browser: dom.js (find, make) and api.js (JSON
requests; an error answer becomes an ApiError in the page language)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

DOM = """async () => {
  const { $, make, el } = await import("/static/dom.js");
  const out = {};
  out.found = $("play-now").id;
  out.typed = $("players", HTMLSelectElement).localName;
  try { $("no-such-id"); } catch (e) { out.missing = e.message; }
  try { $("play-now", HTMLInputElement); } catch (e) { out.wrong = e.message; }
  const p = make("p", "a b", "hi");
  out.made = [p.localName, p.className, p.textContent];
  const a = el("a", { href: "/x", text: "go", class: "button", hidden: false, download: true,
    dataset: { seat: 2 } }, make("span", "", "!"), null);
  out.el = a.outerHTML;
  return out;
}"""

API = """async () => {
  const api = await import("/static/api.js");
  const out = {};
  out.presets = (await api.getJson("/api/presets")).presets.length > 3;
  try {
    await api.postJson("/api/tables", { preset: "polignac", players: 4,
      seats: [{ kind: "you" }], overrides: { threshold: "x" } });
  } catch (e) {
    out.bad = [e.name, e instanceof api.ApiError, e.status, e.rule, e.message, !!e.data.error];
  }
  try { await api.getJson("/tables/nosuchtable/invites"); } catch (e) {
    out.missing = [e.status, e.rule, e.message];
  }
  const raw = await api.request("/api/replay", { body: "not json" });
  out.raw = [raw.ok, raw.status, raw.data.rule];
  return out;
}"""


def _page(browser: Any, server: str, lang: str) -> Any:
    page = browser.new_page()
    page.goto(f"{server}/?lang={lang}")
    page.wait_for_selector("#seats select", state="attached")
    return page


def test_dom_helpers(chromium: Any, server: str) -> None:
    out = _page(chromium, server, "en").evaluate(DOM)
    assert out["found"] == "play-now" and out["typed"] == "select"
    assert out["missing"] == "no element #no-such-id on this page"
    assert out["wrong"] == "#play-now is a <button>"
    assert out["made"] == ["p", "a b", "hi"]
    assert out["el"] == ('<a href="/x" class="button" download="" data-seat="2">go'
                         "<span>!</span></a>")


@pytest.mark.parametrize(("lang", "bad", "missing"), [
    ("en", "These rules are not valid.", "There is no such table."),
    ("fr", "Ces règles ne sont pas valables.", "Cette table n’existe pas.")])
def test_api_errors_in_the_page_language(chromium: Any, server: str, lang: str, bad: str,
                                         missing: str) -> None:
    out = _page(chromium, server, lang).evaluate(API)
    assert out["presets"] is True
    assert out["bad"] == ["ApiError", True, 400, "bad-rules", bad, True]
    assert out["missing"] == [404, "no-table", missing]
    assert out["raw"] == [False, 400, "bad-json"]
