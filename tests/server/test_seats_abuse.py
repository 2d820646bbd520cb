"""Seats, tables and friends under abuse: one seat per browser, the creator's approval,
private Play-now tables, creation limits and the cap, tables nobody plays (paused,
closed, unloaded), invite links again, error pages."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from polignac.server import ServerConfig, create_app
from polignac.server.base.clock import ManualClock
from polignac.server.base.seating import IDENTITY_COOKIE
from polignac.server.jobs.botmoves import PoolBackend
from polignac.server.store.db import Store, make_engine
from polignac.server.web.app import Hub

from .helpers import hello, next_of, play_now, play_until, sibling
from .waiting import wait_until

pytestmark = pytest.mark.timeout(60)

FOUR_BOTS = [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * 3


def _browser(client: TestClient, address: str = "testclient") -> TestClient:
    """Another browser from ``address`` on ``client``'s app and event loop."""
    other = TestClient(client.app, base_url=str(client.base_url), client=(address, 1))
    other.portal = client.portal
    return other


def _hub(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def _wait(check: Callable[[], bool], timeout: float = 30.0) -> None:
    wait_until(check, timeout, what="the table to get there", interval=0.02)


def _advance(client: TestClient, clock: ManualClock, seconds: float) -> None:
    """Move the app's ``clock`` ``seconds`` forward (on the app's loop)."""
    client.portal.call(clock.advance, seconds)


def _in_grace(table: Any, seat: int) -> None:
    """Wait until the server has seen ``seat``'s last connection end (its grace runs)."""
    wait_until(lambda: seat in table.presence.grace_until,
               what=f"seat {seat}'s grace to start")


def _public_table(client: TestClient, **extra: Any) -> str:
    r = client.post("/api/tables", json={"preset": "polignac", "name": "Ann",
                                         "seats": FOUR_BOTS, **extra})
    assert r.status_code == 200, r.text
    url: str = r.json()["url"]
    return url


def _presence(ws: WebSocketTestSession, test: Callable[[dict[str, Any]], bool]
              ) -> dict[str, Any]:
    for _ in range(5000):
        frame = next_of(ws, "presence")
        if test(frame):
            return frame
    raise AssertionError("no such presence frame")


def test_a_play_now_table_is_private_unlisted_and_strangers_get_no_seat(
        config: ServerConfig) -> None:
    with TestClient(create_app(config)) as client:
        url = play_now(client)
        table_id = url.rsplit("/", 1)[1]
        assert table_id not in {t["id"] for t in client.get("/api/tables").json()["tables"]}
        stranger = sibling(client)
        assert stranger.get(url).status_code == 200  # the link still shows the table
        assert IDENTITY_COOKIE in stranger.cookies
        for seat in (1, 2, 3):  # the finding: one person asked for all three bots' seats
            r = stranger.post(f"{url}/seats/{seat}/take", json={"name": "Eve"})
            assert r.status_code == 403 and r.json()["rule"] == "private-table", r.text
        with stranger.websocket_connect(url + "/ws") as ws:
            state = hello(ws)
            assert state["you"] is None and state["table"]["private"]
            assert not any(p["take_pending"] for p in state["presence"])
        table = _hub(client).tables[table_id]
        assert [s.kind for s in table.seats] == ["human", "bot", "bot", "bot"]


def test_a_private_created_table_is_unlisted_and_a_public_one_listed(
        config: ServerConfig) -> None:
    with TestClient(create_app(config)) as client:
        public = _public_table(client)
        private = _public_table(client, private=True)
        listed = {t["url"] for t in client.get("/api/tables").json()["tables"]}
        assert public in listed and private not in listed
        assert client.post("/api/tables", json={"seats": FOUR_BOTS, "private": "yes"}
                           ).json()["rule"] == "bad-field"
        friend = sibling(client)
        friend.get(private)
        assert friend.post(f"{private}/seats/1/take").json()["rule"] == "private-table"


def test_takes_without_a_browser_identity_are_refused(config: ServerConfig) -> None:
    with TestClient(create_app(config)) as client:
        url = _public_table(client)
        for seat in (1, 2, 3):  # anonymous: no cookie at all, each time
            anon = sibling(client)
            r = anon.post(f"{url}/seats/{seat}/take", json={"name": "Eve"})
            assert r.status_code == 403 and r.json()["rule"] == "no-identity", r.text
        forged = sibling(client)
        forged.cookies.set(IDENTITY_COOKIE, "x")  # malformed: not an identity
        assert forged.post(f"{url}/seats/1/take").json()["rule"] == "no-identity"
        seats = _hub(client).tables[url.rsplit("/", 1)[1]].seats
        assert all(s.take_hash is None for s in seats)


def test_one_browser_one_seat_or_request_whatever_cookies_it_drops(
        config: ServerConfig) -> None:
    with TestClient(create_app(config)) as client:
        r = client.post("/api/tables", json={  # waits for Bea: no deal yet
            "preset": "polignac", "name": "Ann",
            "seats": [{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]})
        url, table_id = r.json()["url"], r.json()["id"]
        invite = r.json()["invites"][0]["url"]
        eve = sibling(client)
        eve.get(url)
        assert eve.post(f"{url}/seats/2/take", json={"name": "Eve"}).status_code == 202
        eve.cookies.delete(f"polignac_{table_id}")  # drop the seat cookie, keep the identity
        assert eve.get(f"{url}/request").json() == {"seat": 2}  # known by the identity
        assert sibling(client).get(f"{url}/request").json() == {"seat": None}
        again = eve.post(f"{url}/seats/3/take", json={"name": "Eve 2"})
        assert again.status_code == 409 and again.json()["rule"] == "already-asked"
        ok = client.post(f"{url}/seats/2/approve")
        assert ok.status_code == 200 and ok.json()["granted"]  # no deal yet: at once
        eve.cookies.delete(f"polignac_{table_id}")
        third = eve.post(f"{url}/seats/3/take", json={"name": "Eve 3"})
        assert third.status_code == 409 and third.json()["rule"] == "already-seated"
        # nor a second seat by an invite link: it stays unused for someone else
        assert eve.post(invite, json={"name": "Eve"}, follow_redirects=False
                        ).status_code == 303
        table = _hub(client).tables[table_id]
        assert table.seats[1].token_hash is None and table.seats[1].invite_hash is not None
        # the creator is seated too: no second seat for Ann either
        assert client.post(f"{url}/seats/3/take").json()["rule"] == "already-seated"
        holders = [s.holder_hash for s in table.seats if s.token_hash is not None]
        assert len(holders) == len(set(holders)) == 2 and None not in holders


def test_a_request_waits_for_the_creator_and_a_refusal_drops_it(
        config: ServerConfig) -> None:
    with TestClient(create_app(replace(config, max_take_requests=2, deal_delay=60))
                    ) as client:
        url = _public_table(client)
        table = _hub(client).tables[url.rsplit("/", 1)[1]]
        with client.websocket_connect(url + "/ws") as ws:
            first = hello(ws)
            bea, cy, dan = sibling(client), sibling(client), sibling(client)
            for who, seat in ((bea, 1), (cy, 2)):
                who.get(url)
                assert who.post(f"{url}/seats/{seat}/take", json={"name": "X"}
                                ).status_code == 202
            dan.get(url)
            full = dan.post(f"{url}/seats/3/take", json={"name": "Dan"})
            assert full.status_code == 429 and full.json()["rule"] == "too-many-requests"
            play_until(ws, first, random.Random(3),  # a deal boundary passes
                       lambda v: bool(v["deals"]) and "deal" not in v)
            assert [s.kind for s in table.seats] == ["human", "bot", "bot", "bot"], \
                "a request was granted without the creator's approval"
            assert bea.post(f"{url}/seats/1/refuse").json()["rule"] == "not-creator"
            assert client.post(f"{url}/seats/3/refuse").json()["rule"] == "no-request"
            assert client.post(f"{url}/seats/1/refuse").status_code == 200
            gone = _presence(ws, lambda f: not f["seats"][1]["take_pending"])
            assert gone["seats"][1]["kind"] == "bot" and gone["seats"][2]["take_pending"]
            assert dan.post(f"{url}/seats/3/take", json={"name": "Dan"}).status_code == 202
            # the refused request's cookie is cleared when Bea opens the page again
            name = f"polignac_{table.id}"
            assert name in bea.cookies
            assert bea.get(url).status_code == 200 and name not in bea.cookies
            with bea.websocket_connect(url + "/ws") as watching:
                assert hello(watching)["you"] is None


def test_table_creation_is_rate_limited_per_address_and_per_browser(
        config: ServerConfig) -> None:
    limited = replace(config, create_burst=3, create_per_minute=1)
    with TestClient(create_app(limited)) as client:
        for _ in range(3):
            assert client.post("/api/play-now", json={}).status_code == 200
        flood = client.post("/api/play-now", json={})
        assert flood.status_code == 429 and flood.json()["rule"] == "create-rate"
        assert int(flood.headers["retry-after"]) >= 1
        assert client.post("/api/tables", json={"seats": FOUR_BOTS}).status_code == 429
        # the same browser from another address: still its own limit
        moved = _browser(client, "10.0.0.2")
        moved.cookies.set(IDENTITY_COOKIE, client.cookies[IDENTITY_COOKIE])
        assert moved.post("/api/play-now", json={}).status_code == 429
        # another browser from that address: its bucket is full
        other = _browser(client, "10.0.0.3")
        assert other.post("/api/play-now", json={}).status_code == 200
        # fresh identities from one address: the address's limit
        for _ in range(2):
            assert _browser(client, "10.0.0.4").post("/api/play-now", json={}
                                                     ).status_code == 200
        assert _browser(client, "10.0.0.4").post("/api/play-now", json={}).status_code == 200
        assert _browser(client, "10.0.0.4").post("/api/play-now", json={}).status_code == 429
        assert len(_hub(client).tables) == 7


def test_the_server_wide_cap_on_tables(config: ServerConfig) -> None:
    with TestClient(create_app(replace(config, max_tables=2))) as client:
        for address in ("10.0.0.1", "10.0.0.2"):
            assert _browser(client, address).post("/api/play-now").status_code == 200
        capped = _browser(client, "10.0.0.3").post("/api/play-now")
        assert capped.status_code == 429 and capped.json()["rule"] == "too-many-tables"
        assert "tables open" in capped.json()["error"]


def test_an_abandoned_table_pauses_then_resumes_when_its_person_returns(
        config: ServerConfig, bot_backend: PoolBackend) -> None:
    clock = ManualClock()
    with TestClient(create_app(replace(config, grace_seconds=30, bot_delay=0.01, clock=clock),
                               bot_backend)) as client:
        url = play_now(client)
        table = _hub(client).tables[url.rsplit("/", 1)[1]]
        with client.websocket_connect(url + "/ws") as ws:
            hello(ws)
        _in_grace(table, 0)
        _advance(client, clock, 29.5)
        assert not table.paused  # within the grace
        _advance(client, clock, 0.5)
        assert table.paused
        # a bot move asked for before the pause comes back and is dropped: the driver
        # ends (the deal is random, so a bot may lead; its worker may be busy); a move
        # already being stored when the pause came is stored by then
        _wait(lambda: table.driver is None or table.driver.done(), 60)
        seq = table.seq
        _advance(client, clock, 5)  # bot_delay 0.01: a playing table would make hundreds
        # of events, and its driver would be running
        assert table.seq == seq and not table.presence.standing_in, "events while paused"
        assert table.driver is None or table.driver.done()
        watcher = sibling(client)  # a spectator does not wake it
        with watcher.websocket_connect(url + "/ws") as spectator:
            assert hello(spectator)["table"]["paused"]
            _advance(client, clock, 5)
            assert table.seq == seq
            assert table.driver is None or table.driver.done()
            with client.websocket_connect(url + "/ws") as ws:
                hello(ws)
                back = _presence(spectator, lambda f: not f["paused"])
                assert back["seats"][0]["connected"]
                # the bots' pace is on the clock: move it while waiting
                _wait(lambda: table.seq > seq or table.match.to_act() == 0
                      or _advance(client, clock, 0.01))


def test_stand_ins_play_for_an_absent_person_while_someone_else_is_there(
        config: ServerConfig) -> None:
    clock = ManualClock()
    with TestClient(create_app(replace(config, grace_seconds=30, deal_delay=60, clock=clock))
                    ) as client:
        r = client.post("/api/tables", json={
            "preset": "polignac", "name": "Ann",
            "seats": [{"kind": "you"}, {"kind": "open"}] + [{"kind": "bot"}] * 2})
        url = r.json()["url"]
        bea = sibling(client)
        assert bea.post(r.json()["invites"][0]["url"], json={"name": "Bea"},
                        follow_redirects=False).status_code == 303
        table = _hub(client).tables[r.json()["id"]]
        with client.websocket_connect(url + "/ws") as ann:
            hello(ann)
            with bea.websocket_connect(url + "/ws") as ws:
                hello(ws)
            _in_grace(table, 1)
            _advance(client, clock, 29.5)
            assert 1 not in table.presence.standing_in  # Bea's grace runs
            _advance(client, clock, 0.5)
            assert 1 in table.presence.standing_in
            frames: list[dict[str, Any]] = []
            ann.send_json({"type": "hello", "last_seq": 0})
            play_until(ann, next_of(ann, "state"), random.Random(4),  # Ann plays; Bea is away
                       lambda v: bool(v["deals"]) and "deal" not in v, frames)
            assert any(f["type"] == "event" and f["event"].get("seat") == 1 for f in frames), \
                "no stand-in played for Bea"
            assert not table.paused
        _in_grace(table, 0)  # Ann left too
        _advance(client, clock, 29.5)
        assert not table.paused
        _advance(client, clock, 0.5)
        assert table.paused


def test_a_paused_table_is_closed_then_served_from_the_database(
        config: ServerConfig) -> None:
    clock = ManualClock()
    fast = replace(config, grace_seconds=30, close_seconds=60, clock=clock)
    with TestClient(create_app(fast)) as client:
        url = play_now(client)
        table_id = url.rsplit("/", 1)[1]
        hub = _hub(client)
        with client.websocket_connect(url + "/ws") as ws:
            hello(ws)
        _in_grace(hub.tables[table_id], 0)
        _advance(client, clock, 30)
        assert hub.tables[table_id].paused
        _advance(client, clock, 59.5)
        assert table_id in hub.tables  # paused, not closed yet
        _advance(client, clock, 0.5)
        _wait(lambda: table_id not in hub.tables)  # closed: stored, then unloaded
        assert hub.store is not None
        stored = hub.store.load_one(table_id)
        assert stored is not None and stored.closed_at is not None
        assert table_id not in {r.id for r in hub.store.load_all()}
        record = client.get(url + "/record.json")
        assert record.status_code == 200 and record.json()["format"] == "polignac-record/1"
        with client.websocket_connect(url + "/ws") as ws:  # its player comes back
            state = hello(ws)
            assert state["you"] == 0 and not state["table"]["paused"]
            _wait(lambda: hub.tables[table_id].idle.closed_at is None)
        _in_grace(hub.tables[table_id], 0)
        _advance(client, clock, 30 + 60)
        _wait(lambda: table_id not in hub.tables)  # and leaves again


def test_a_finished_table_leaves_memory_and_is_served_from_the_database(
        config: ServerConfig) -> None:
    clock = ManualClock()
    fast = replace(config, finished_keep_seconds=60, clock=clock)
    with TestClient(create_app(fast)) as client:
        r = client.post("/api/tables", json={
            "preset": "polignac", "name": "Ann", "overrides": {"threshold": 1},
            "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3})
        url, table_id = r.json()["url"], r.json()["id"]
        hub = _hub(client)
        table = hub.tables[table_id]
        table.presence.standing_in.add(0)  # a stand-in plays Ann's seat to the end, quickly
        table.presence.standins[0] = table.bot_driver.bots[1]
        client.portal.call(table.wake)  # type: ignore[union-attr]
        _wait(lambda: table.match.finished, 60)
        _wait(lambda: table.idle.idle_task is not None)  # its time in memory counts
        _advance(client, clock, 59.5)
        assert table_id in hub.tables  # kept a while once finished
        _advance(client, clock, 0.5)
        _wait(lambda: table_id not in hub.tables)
        engine = make_engine(fast.url())
        try:
            assert table_id not in {row.id for row in Store(engine).load_all()}
        finally:
            engine.dispose()
        record = client.get(url + "/record.json").json()
        assert record["format"] == "polignac-record/1" and record["deals"]
        assert client.get(url + "/replay").status_code == 200
        assert client.get(url).status_code == 200


def test_the_creator_sees_the_invite_links_again_and_nobody_else(
        config: ServerConfig) -> None:
    with TestClient(create_app(config)) as client:
        r = client.post("/api/tables", json={
            "preset": "polignac", "name": "Ann",
            "seats": [{"kind": "you"}, {"kind": "open"}, {"kind": "open"}, {"kind": "bot"}]})
        url, first = r.json()["url"], r.json()["invites"]
        again = client.get(url + "/invites")
        assert again.status_code == 200 and again.json()["invites"] == first
        stranger = sibling(client)
        assert stranger.get(url + "/invites").json()["rule"] == "not-creator"
        bea = sibling(client)
        page = bea.get(first[0]["url"])
        assert page.status_code == 200 and "Ann" in page.text and "polignac" in page.text
        assert bea.post(first[0]["url"], json={"name": "Bea <b>"},
                        follow_redirects=False).status_code == 303
        assert client.get(url + "/invites").json()["invites"] == first[1:]
        # one seat per browser: Bea's second invite leaves it unused
        assert bea.post(first[1]["url"], json={"name": "Bea"},
                        follow_redirects=False).status_code == 303
        assert client.get(url + "/invites").json()["invites"] == first[1:]
        with bea.websocket_connect(url + "/ws") as ws:
            state = hello(ws)
            assert state["you"] == 1 and state["table"]["seats"][1]["name"] == "Bea b"


def test_html_routes_answer_errors_with_a_page_and_the_api_with_json(
        client: TestClient) -> None:
    page = client.get("/tables/nope", headers={"accept": "text/html"})
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "/static/style.css" in page.text and "no such table" in page.text
    unknown = client.get("/no/such/page", headers={"accept": "text/html"})
    assert unknown.status_code == 404 and "<html" in unknown.text
    assert client.get("/no/such/page").json()["rule"] == "not-found"
    api = client.get("/tables/nope/record.json")
    assert api.status_code == 404 and api.json()["rule"] == "no-table"
    bad = client.get("/tables/nope/join?seat=1&token=x")
    assert bad.status_code == 404 and "<html" in bad.text
    url = play_now(client)
    forged = sibling(client).get(url + "/join?seat=1&token=<script>")
    assert forged.status_code == 403 and "<script>" not in forged.text


def test_migration_0004_upgrades_a_database_with_tables(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    import polignac.server.store.db as db

    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    try:
        cfg = Config()
        cfg.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0003")
            conn.execute(text("INSERT INTO tables (id, preset, overrides, num_players, "
                              "first_dealer, created_at) VALUES ('old', 'polignac', '{}', 4, "
                              "0, 1.0)"))
            conn.execute(text("INSERT INTO seats (table_id, seat, kind, name) VALUES "
                              "('old', 0, 'bot', 'Bot 1')"))
        db.migrate(engine)
        (row,) = Store(engine).load_all()
        assert row.id == "old" and row.options == {} and row.closed_at is None
        assert row.seats[0].take_approved is False and row.seats[0].holder_hash is None
    finally:
        engine.dispose()


def test_the_invite_form_refuses_a_foreign_origin(config: ServerConfig) -> None:
    with TestClient(create_app(config)) as client:
        r = client.post("/api/tables", json={
            "preset": "polignac", "seats": [{"kind": "you"}, {"kind": "open"},
                                            {"kind": "bot"}, {"kind": "bot"}]})
        invite = r.json()["invites"][0]["url"]
        bea = sibling(client)
        forged = bea.post(invite, json={"name": "Bea"}, follow_redirects=False,
                          headers={"origin": "http://evil.example"})
        assert forged.status_code == 403 and forged.json()["rule"] == "bad-origin"
        assert bea.post(invite, json={"name": "Bea"}, follow_redirects=False,
                        headers={"origin": "http://testserver"}).status_code == 303
