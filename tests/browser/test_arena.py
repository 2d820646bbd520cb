"""A short arena in the browser (issue 34): four accounts, made through the API, at
tables of 4 with bots after a 10 s wait.  Ann, Bob and Cleo join through the API and
stay away (stand-ins play for them after the grace); Dan joins late on the arena's
page, which takes him to his table, then goes away; Cleo leaves mid-way, so bots
fill the empty seat; a guest in another browser watches the standings change live
(the page's socket); then the test moves the stored start back so the arena ends,
and the guest sees the podium.  The standings shown equal ``scoring.standings``
recomputed from the stored records.  Screenshots of the page running and finished
(``docs/screenshots/arena-*`` with ``POLIGNAC_SCREENSHOTS``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, update

from polignac.server import ServerConfig
from polignac.server.events import store
from polignac.server.events.scoring import standings
from polignac.server.store.db import writing
from polignac.server.store.schema import tournaments_t

from .support import live_server, on_a_phone, open_page, wait_until

PASSWORD = "a long enough secret"


def _account(browser: Any, server: str, name: str) -> Any:
    """A browser context of its own, signed up as ``name``."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    r = context.request.post(server + "/api/account/signup",
                             data={"username": name, "password": PASSWORD})
    assert r.ok, r.text()
    return context


def _shown(page: Any) -> list[tuple[str, float]]:
    """The standings' (name, points) as the page shows them."""
    rows = page.query_selector_all("#standings tbody tr")
    out = []
    for row in rows:
        cells = row.query_selector_all("td")
        out.append((cells[1].query_selector("a").inner_text(), float(cells[2].inner_text())))
    return out


def test_a_short_arena_with_bots_live_standings_and_a_podium(
        tmp_path: Path, chromium: Any, shots: Path) -> None:
    config = ServerConfig(data_dir=tmp_path / "data", bot_delay=0, deal_delay=0,
                          cut_window=0, trick_pause=0, grace_seconds=1.0, arena_tick=0.5,
                          standin_level="random", fill_level="random")
    with live_server(config) as server:
        ann, bob, cleo, dan = (_account(chromium, server, n)
                               for n in ("Ann_arena", "Bob_arena", "Cleo_arena", "Dan_arena"))
        r = ann.request.post(server + "/api/tournaments", data={
            "preset": "polignac", "seats": 4, "starts_at": time.time(), "minutes": 10,
            "time_control": {"kind": "realtime", "base": 180, "increment": 2},
            "rated": False, "bot_wait": 10})
        assert r.ok, r.text()
        tid, url = r.json()["id"], server + r.json()["url"]
        for who in (ann, bob, cleo):
            assert who.request.post(server + f"/api/tournaments/{tid}/join", data={}).ok
        # a guest watches in another browser; the lobby lists the arena
        watch, errors = open_page(chromium)
        watch.goto(server + "/")
        watch.wait_for_selector(f"#arenas a[href='/tournaments/{tid}']")
        watch.goto(url)
        wait_until(lambda: len(_shown(watch)) == 3, what="three players listed")
        # Dan joins late on the page, which takes him to his table
        page = dan.new_page()
        page.goto(url)
        page.click("#join")
        page.wait_for_url("**/tables/*", timeout=30_000)
        page.wait_for_selector("#hand .card", timeout=30_000)
        page.close()  # he goes away: a stand-in plays his seats from now on
        wait_until(lambda: len(_shown(watch)) == 4, what="Dan listed")
        # the first match ends: the standings change live on the guest's page
        wait_until(lambda: any(p for _n, p in _shown(watch)), 90,
                   what="points on the watcher's page")
        assert cleo.request.post(server + f"/api/tournaments/{tid}/leave", data={}).ok
        # several rounds; bots fill Cleo's seat once the others waited 10 s
        engine = create_engine(config.url())

        def records() -> Any:
            with writing(engine) as conn:
                return store.finished_matches(conn, tid)
        wait_until(lambda: len(records()) >= 3, 180, what="three matches played")
        assert any(None in r.players for r in records())  # a table with bots
        watch.wait_for_selector(".arena-match")
        watch.screenshot(path=shots / "arena-running-1280.png", full_page=True)
        on_a_phone(watch, shots / "arena-running-390.png")
        watch.set_viewport_size({"width": 1280, "height": 800})
        # the end: the stored start moves back; running matches count when they end
        with writing(engine) as conn:
            conn.execute(update(tournaments_t).where(tournaments_t.c.id == tid)
                         .values(starts_at=time.time() - 600))
        try:
            watch.wait_for_selector("#podium li", timeout=120_000)
        except Exception:
            from sqlalchemy import func, select

            from polignac.server.store.schema import events_t
            with writing(engine) as conn:
                running = store.running_matches(conn, tid)
                counts = {t: conn.execute(select(func.count(), func.max(events_t.c.created_at))
                                          .where(events_t.c.table_id == t)).first()
                          for t, _p in running}
            raise AssertionError(f"no podium: {running} {counts} {time.time()}") from None
        finished = records()
        again = standings(finished, [1, 2, 3, 4])
        wait_until(lambda: _shown(watch) == [(n, float(s.points)) for n, s in zip(
            [{1: "Ann_arena", 2: "Bob_arena", 3: "Cleo_arena", 4: "Dan_arena"}[s.player]
             for s in again], again, strict=True)], what="the standings recomputed")
        assert any(4 in r.players for r in finished)  # the late one played
        assert "Finished" in watch.inner_text("#clock")
        watch.screenshot(path=shots / "arena-finished-1280.png", full_page=True)
        on_a_phone(watch, shots / "arena-finished-390.png")
        engine.dispose()
        assert not errors, errors
