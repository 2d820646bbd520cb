"""The commitment log kept by the browser (``static/commitlog.js``, docs/server.md
"Keeping the chain's head"): the page's hash rule is the core's
(``core/commitlog.py:entry_hash``), and a table page that kept entries of the chain
warns, and keeps warning, when the server's chain no longer extends them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.support import live_server, open_page, open_table, wait_until
from tests.cli.test_kept_heads import rewrite

from polignac.core.commitlog import GENESIS, Entry
from polignac.server import ServerConfig
from polignac.server.store.db import make_engine

pytest.importorskip("playwright.sync_api")

HASHES_JS = """async (entries) => {
  const m = await import("/static/commitlog.js");
  const hashes = [];
  for (const e of entries) hashes.push(await m.entryHash(e));
  const [first, ...rest] = entries;
  const good = await m.checkStretch(first, rest);
  const broken = await m.checkStretch(first, [{ ...rest[0], commitment: "dd".repeat(32) }]);
  const gap = await m.checkStretch(first, rest.slice(1));
  return { hashes, good, broken, gap, shaped: entries.map((e) => m.asEntry(e) !== null),
           odd: [m.asEntry({ ...first, seq: 0 }), m.asEntry({ ...first, hash: "AB".repeat(32) }),
                 m.asEntry(null), m.asEntry({ ...first, at: "5" })] };
}"""


def _chain() -> list[Entry]:
    """Entries with every kind of field the hash covers: non-ASCII table ids (UTF-8),
    long numbers, the genesis prev."""
    out = [Entry.make(1, "t1", 1, "ab" * 32, 1700000000000, GENESIS)]
    for seq, table, deal, at in ((2, "tàble-é", 2, 1700000000001), (3, "Ωmega_-x9", 999999,
                                 10 ** 15), (4, "a" * 64, 1, 1)):
        out.append(Entry.make(seq, table, deal, f"{seq:02x}" * 32, at, out[-1].hash))
    return out


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, ServerConfig]]:
    """A live server whose bots act and deal at once, and its config (its database)."""
    config = ServerConfig(data_dir=tmp_path / "data", bot_delay=0, deal_delay=0,
                          cut_window=0, trick_pause=0)
    with live_server(config) as url:
        yield url, config


def test_the_pages_hash_rule_is_the_cores(chromium: Any,
                                          served: tuple[str, ServerConfig]) -> None:
    page, errors = open_page(chromium)
    page.goto(served[0] + "/")
    chain = _chain()
    got = page.evaluate(HASHES_JS, [e.to_json() for e in chain])
    assert got["hashes"] == [e.hash for e in chain]
    assert got["good"] is None and got["shaped"] == [True] * len(chain)
    assert got["broken"] == {"key": "verify.logWhy.hash", "seq": 2}
    assert got["gap"] == {"key": "verify.logWhy.missing", "seq": 2}
    assert got["odd"] == [None] * 4
    assert not errors, errors


def _log_state(page: Any) -> str | None:
    state: str | None = page.get_attribute("#log-warning", "data-log")
    return state


def _kept(page: Any) -> list[int]:
    seqs: list[int] = page.evaluate(
        "() => (JSON.parse(localStorage.getItem('polignac-commitlog/1'))?.entries ?? [])"
        ".map((e) => e.seq)")
    return seqs


def test_a_rewritten_chain_is_caught_and_the_warning_kept(
        chromium: Any, served: tuple[str, ServerConfig], tmp_path: Path) -> None:
    server, config = served
    page, errors = open_page(chromium)
    for n in (1, 2, 3):  # three tables, three deals: entries 1, 2 and 3 kept
        open_table(page, server, "polignac")
        wait_until(lambda n=n: _kept(page) == list(range(1, n + 1)))
        assert _log_state(page) == "ok" and page.is_hidden("#log-warning")
    engine = make_engine(config.url())
    try:
        rewrite(engine, 2, "dd" * 32)  # deal 2 re-forged, entries 2 and 3 made again
    finally:
        engine.dispose()
    open_table(page, server, "polignac")  # entry 4 follows the rewritten entry 3
    wait_until(lambda: _log_state(page) == "bad")
    text = page.inner_text("#log-warning")
    assert "(entry 4): entry 4 does not follow the entry before it" in text, text
    assert page.is_visible("#log-warning")
    page.screenshot(path=tmp_path / "log-warning.png")
    page.select_option("#lang", "fr")
    assert "l’entrée 4 ne suit pas l’entrée précédente" in page.inner_text("#log-warning")
    page.select_option("#lang", "de")
    assert "Eintrag 4 folgt nicht auf den Eintrag davor" in page.inner_text("#log-warning")
    page.select_option("#lang", "en")
    open_table(page, server, "polignac")  # kept: another table of this server warns too
    wait_until(lambda: page.is_visible("#log-warning"))
    assert "(entry 4)" in page.inner_text("#log-warning")
    assert not errors, errors
