"""Verifiable deals in a real browser: verify.js computes what polignac.core.shuffle
computes; the table page sends its cut and checks the revealed seed; the replay
viewer's "Verify the deals" passes on a live table's record and fails on a tampered one.

Screenshots go to ``$POLIGNAC_SCREENSHOTS`` (default: the test's tmp folder).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import live_server, on_a_phone, open_page, play_until

from polignac.core import cards_of, get_rules
from polignac.core.shuffle import commitment, pack_order

pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from polignac.server import ServerConfig  # noqa: E402

PARITY_JS = """async (vectors) => {
  const m = await import("/static/verify.js");
  const out = [];
  for (const v of vectors) {
    const seed = m.hexToBytes(v.seed);
    const cuts = v.cuts.map((c) => (c === null ? null : m.hexToBytes(c)));
    out.push({ commitment: await m.commitment(seed, v.table, v.deal),
               order: await m.packOrder(seed, v.table, v.deal, cuts, v.cards) });
  }
  return out;
}"""


def test_the_browser_computes_what_python_computes(chromium: Any, server: str) -> None:
    rng = random.Random(5)
    vectors: list[dict[str, Any]] = []
    for i, (preset, n) in enumerate([("polignac", 4), ("knaves", 3), ("polignac-party", 10),
                                     ("pollack", 4), ("slobberhannes", 6)]):
        cuts = [rng.randbytes(rng.randint(1, 32)).hex() if rng.random() < .6 else None
                for _ in range(n)]
        vectors.append({"seed": rng.randbytes(32 + i * 8).hex(), "table": f"tä-{i}_x",
                        "deal": rng.randint(1, 400), "cuts": cuts,
                        "cards": cards_of(get_rules(preset).pack_mask(n))})
    page = chromium.new_page()
    page.goto(server + "/replay")
    got = page.evaluate(PARITY_JS, vectors)
    for v, js in zip(vectors, got, strict=True):
        seed = bytes.fromhex(v["seed"])
        cuts = [None if c is None else bytes.fromhex(c) for c in v["cuts"]]
        assert js["commitment"] == commitment(seed, v["table"], v["deal"])
        assert js["order"] == pack_order(seed, v["table"], v["deal"], cuts, v["cards"])


@pytest.fixture
def slow_server(tmp_path: Path) -> Iterator[str]:
    """Like conftest's ``server``, but the first deal waits up to 20 s for the cut (it
    deals as soon as the page has cut): a busy machine may take seconds to load a page."""
    config = ServerConfig(data_dir=tmp_path / "data", bot_delay=0.05, trick_pause=0.0,
                          deal_delay=0.5, cut_window=20.0)
    with live_server(config) as url:
        yield url


def _play_one_deal(page: Any) -> None:
    play_until(page, lambda: page.locator("#scores tr").count() >= 3, 60,  # header, deal 1,
               "the end of the deal", calls=True)  # totals


def test_cut_reveal_and_verify_in_the_replay_viewer(chromium: Any, slow_server: str, shots: Path,
                                                   tmp_path: Path) -> None:
    server = slow_server
    page, errors = open_page(chromium, 1280, 800, locale="en-US")
    page.goto(server + "/")
    page.wait_for_selector("#seats select", state="attached")
    page.click("#play-now")
    page.wait_for_url("**/tables/*")
    page.wait_for_selector("#deal-proof:has-text('your cut ✓')")
    table_url = page.url
    _play_one_deal(page)
    page.wait_for_selector("#deal-proof:has-text('Deal 1: the revealed seed matches its "
                           "commitment and deals every hand, yours too ✓')")
    page.screenshot(path=shots / "verify-01-table.png")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(200)
    page.screenshot(path=shots / "verify-02-table-phone.png", full_page=True)
    my_cut = json.loads(page.evaluate(
        f"sessionStorage.getItem('polignac-cut:{table_url.rsplit('/', 1)[1]}:1')"))
    record = page.request.get(table_url + "/record.json").json()
    first = record["deals"][0]["shuffle"]
    assert first["cuts"][0] == my_cut["cut"] and first["commitment"] == \
        my_cut["commitment"]

    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(table_url + "/replay")
    page.wait_for_selector("#verify:not([hidden])")
    page.click("#verify-btn")
    n = len(record["deals"])
    deals = "deal" if n == 1 else "deals"  # the catalog's plural (verify.summary.one/.other)
    page.wait_for_selector(f"#verify-summary:has-text('{n} of {n} {deals} verified')")
    assert page.locator("#verify-results li[data-state=ok]").count() == n
    results = page.locator("#verify-results").inner_text()
    assert "Deal 1: verified ✓ (players' cuts: 1) · your cut is in ✓" in results
    page.screenshot(path=shots / "verify-03-replay-pass.png")

    bad = copy.deepcopy(record)
    hands = bad["deals"][0]["hands"]
    hands[1][0], hands[3][0] = hands[3][0], hands[1][0]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(bad))
    page.set_input_files("#file", str(path))
    page.wait_for_selector("#verify-results:empty", state="attached")
    page.click("#verify-btn")
    page.wait_for_selector("#verify-summary:has-text('1 failed')")
    failed = page.locator("#verify-results li[data-state=failed]")
    assert failed.count() == 1
    assert failed.inner_text().startswith("Deal 1: FAILED ✗ Medium bot 2: the record has")
    on_a_phone(page, shots / "verify-04-replay-fail-phone.png")
    assert not errors, errors


def test_no_webcrypto_says_so(chromium: Any, server: str, tmp_path: Path) -> None:
    """On a page without WebCrypto (a non-secure origin) the button explains itself."""
    page = chromium.new_page(locale="en-US")
    page.add_init_script("Object.defineProperty(window, 'isSecureContext', "
                         "{value: false}); delete Object.getPrototypeOf(crypto).subtle;")
    page.goto(server + "/replay")
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"preset": "polignac", "players": ["a", "b", "c", "d"]}))
    page.set_input_files("#file", str(path))
    page.wait_for_selector("#verify:not([hidden])")
    page.click("#verify-btn")
    text = page.locator("#verify-summary").inner_text()
    assert "only on secure pages" in text and "polignac verify" in text


RECORD_JS = """async (record) => {
  const m = await import("/static/verify.js");
  return (await m.verifyRecord(record)).map((c) => [c.status, c.problems.join("; ")]);
}"""


def test_a_finished_deal_without_its_proof_fails_in_the_browser(chromium: Any,
                                                                server: str) -> None:
    """As ``polignac verify``: in a record that carries proofs, a finished deal whose
    proof was removed or whose seed was set to null fails; a record without any proof
    is not verifiable."""
    from tests.cli.test_verify import verifiable_record

    record: dict[str, Any] = verifiable_record(2)
    n = len(record["deals"])
    assert n >= 3
    forged = json.loads(json.dumps(record))
    del forged["deals"][0]["shuffle"]
    forged["deals"][1]["shuffle"]["seed"] = None
    bare = json.loads(json.dumps(record))
    for deal in bare["deals"]:
        del deal["shuffle"]
    page = chromium.new_page()
    page.goto(server + "/replay")
    assert [s for s, _ in page.evaluate(RECORD_JS, record)] == ["ok"] * n
    got = page.evaluate(RECORD_JS, forged)
    assert [s for s, _ in got] == ["failed", "failed"] + ["ok"] * (n - 2)
    assert "proof" in got[0][1] and "proof" in got[1][1]
    assert {s for s, _ in page.evaluate(RECORD_JS, bare)} == {"not-verifiable"}
