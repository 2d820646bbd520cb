"""Follows and presence (``players/follows.py``, ``players/places.py``,
``web/follow_routes.py``): following and its refusals, the marks a process keeps and
when it writes them, and on a ManualClock where a followed person is seen (the lobby,
a public or private table, an arena), when that expires, and who chose not to show it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import pairwise
from typing import Any

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient

from polignac.server import ServerConfig, create_app
from polignac.server.base.clock import ManualClock
from polignac.server.jobs.botmoves import PoolBackend
from polignac.server.players import follows, places
from polignac.server.players.places import ARENA, LOBBY, TABLE, Place, Places
from polignac.server.store.db import writing
from polignac.server.store.schema import follows_t, presence_t

from .helpers import sibling
from .test_accounts import ORIGIN, PASSWORD, account, post
from .waiting import wait_until

START = 1_700_000_000.0
WINDOW = 15.0


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def app_client(config: ServerConfig, clock: ManualClock,
               bot_backend: PoolBackend) -> Iterator[TestClient]:
    quick = replace(config, clock=clock, online_window=WINDOW)
    with TestClient(create_app(quick, bot_backend), base_url="http://testserver") as c:
        yield c


def advance(client: TestClient, clock: ManualClock, seconds: float) -> None:
    client.portal.call(clock.advance, seconds)  # type: ignore[union-attr]


def seen(client: TestClient, clock: ManualClock, follower: TestClient, name: str,
         want: Any, before: Any = None) -> dict[str, Any]:
    """Step the clock (the matchmaker's rounds) until ``follower``'s list shows
    ``name``'s presence passing ``want``; that presence.  ``before()`` runs before each
    step (a lobby's poll)."""
    def look() -> dict[str, Any] | None:
        if before is not None:
            before()
        listed = follower.get("/api/follows").json()["follows"]
        online = next(f["online"] for f in listed if f["name"] == name)
        if want(online):
            return online or {"online": None}
        advance(client, clock, 0.5)
        return None
    return wait_until(look, what=f"{name}'s presence")


# ------------------------------------------------------------------ the marks


def test_the_marks_keep_the_place_that_says_more_and_write_only_changes() -> None:
    places = Places()
    places.mark("Bea", Place(LOBBY))
    assert places.due(0.0, 5.0, [("bea", Place(TABLE, "t1", True))]) == {
        "bea": Place(TABLE, "t1", True)}  # a table beats the lobby
    places.wrote({"bea": Place(TABLE, "t1", True)}, 0.0)
    assert places.marks == {}  # a round takes the marks
    # the same place again within the window's third: nothing to write
    assert places.due(1.0, 5.0, [("Bea", Place(TABLE, "t1", True))]) == {}
    # a new place: written at once; the same place, a third of the window later: again
    assert places.due(2.0, 5.0, [("bea", Place(TABLE, "t2"))]) == {"bea": Place(TABLE, "t2")}
    places.wrote({"bea": Place(TABLE, "t2")}, 2.0)
    assert places.due(7.0, 5.0, [("bea", Place(TABLE, "t2"))]) == {"bea": Place(TABLE, "t2")}


def test_a_held_place_lasts_until_released_and_a_failed_round_gives_its_marks_back() -> None:
    places = Places()
    handle = places.hold("Cy", Place(ARENA, "a1"))
    assert places.due(0.0, 5.0, []) == {"cy": Place(ARENA, "a1")}
    places.failed({"cy": Place(ARENA, "a1")})
    places.release(handle)
    assert places.due(0.0, 5.0, []) == {"cy": Place(ARENA, "a1")}  # the failed round's
    assert places.due(0.0, 5.0, []) == {}


# ------------------------------------------------------------------ following


def test_follow_and_unfollow_with_counts_on_the_profile(app_client: TestClient) -> None:
    ann, bob = account(app_client, "ann_f"), account(app_client, "bob_f")
    guest = sibling(app_client)
    assert post(ann, "/api/follows/BOB_F").json() == {"following": True, "followers": 1}
    assert post(ann, "/api/follows/bob_f").json()["followers"] == 1  # again: no change
    seen_by_ann = ann.get("/api/players/bob_f").json()
    assert (seen_by_ann["following"], seen_by_ann["followers"]) == (0, 1)
    assert seen_by_ann["you_follow"] is True
    assert guest.get("/api/players/bob_f").json()["you_follow"] is None
    assert bob.get("/api/players/bob_f").json()["you_follow"] is None  # one's own
    assert bob.get("/api/players/ann_f").json()["following"] == 1
    assert [f["name"] for f in ann.get("/api/follows").json()["follows"]] == ["bob_f"]
    gone = ann.delete("/api/follows/bob_f", headers=ORIGIN)
    assert gone.json() == {"following": False, "followers": 0}
    assert ann.get("/api/follows").json()["follows"] == []
    assert ann.get("/api/players/bob_f").json()["you_follow"] is False


def test_follow_refusals(app_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    ann = account(app_client, "ann_r")
    for name in ("cat_r", "dan_r", "eve_r"):
        account(app_client, name)
    guest = sibling(app_client)
    cases = [
        (post(guest, "/api/follows/ann_r"), 401, "signed-out"),
        (guest.get("/api/follows"), 401, "signed-out"),
        (post(ann, "/api/follows/ann_r"), 400, "follow-self"),
        (post(ann, "/api/follows/nobody_here"), 404, "no-player"),
        (post(ann, "/api/follows/" + "x" * 300), 404, "no-player"),
        (post(ann, "/api/follows/bad%20name"), 404, "no-player"),
        (ann.delete("/api/follows/nobody_here", headers=ORIGIN), 404, "no-player"),
        (ann.post("/api/follows/cat_r", json={}, headers={"origin": "http://evil.example"}),
         403, "bad-origin"),
        (ann.delete("/api/follows/cat_r", headers={"origin": "http://evil.example"}),
         403, "bad-origin"),
        (ann.post("/api/follows/cat_r", content=b"x=1",
                  headers={**ORIGIN, "content-type": "application/x-www-form-urlencoded"}),
         415, "not-json"),
        (post(ann, "/api/account/presence", {"visible": "yes"}), 400, "bad-field"),
    ]
    for answer, status, rule in cases:
        assert (answer.status_code, answer.json()["rule"]) == (status, rule), answer.text
    assert ann.get("/api/follows").json()["follows"] == []  # nothing changed
    monkeypatch.setattr(follows, "MAX_FOLLOWS", 2)
    assert post(ann, "/api/follows/cat_r").status_code == 200
    assert post(ann, "/api/follows/dan_r").status_code == 200
    full = post(ann, "/api/follows/eve_r")
    assert (full.status_code, full.json()["rule"]) == (409, "too-many-follows")
    assert post(ann, "/api/follows/dan_r").status_code == 200  # following already: fine


def test_follows_are_rate_limited_per_account(app_client: TestClient) -> None:
    ann = account(app_client, "ann_l")
    account(app_client, "bob_l")
    answers = [post(ann, "/api/follows/bob_l") for _ in range(25)]
    assert all(a.status_code == 200 for a in answers[:20])
    assert answers[-1].status_code == 429
    assert answers[-1].json()["rule"] == "follow-rate"
    assert "retry-after" in answers[-1].headers


def test_a_deleted_account_leaves_no_follows(app_client: TestClient) -> None:
    ann, bob = account(app_client, "ann_d"), account(app_client, "bob_d")
    post(ann, "/api/follows/bob_d")
    post(bob, "/api/follows/ann_d")
    assert post(bob, "/api/account/delete", {"password": PASSWORD}).status_code == 200
    assert ann.get("/api/follows").json()["follows"] == []
    assert ann.get("/api/players/ann_d").json()["followers"] == 0
    hub = app_client.app.state.hub  # type: ignore[attr-defined]
    with writing(hub.store.engine) as conn:
        assert conn.execute(select(follows_t)).all() == []


# ------------------------------------------------------------------ presence


def test_a_followed_person_in_the_lobby_then_gone(app_client: TestClient,
                                                   clock: ManualClock) -> None:
    ann, bob = account(app_client, "ann_p"), account(app_client, "bob_p")
    post(ann, "/api/follows/bob_p")
    [entry] = ann.get("/api/follows").json()["follows"]
    assert entry["online"] is None  # never seen
    bob.get("/api/seeks")  # the lobby's poll
    online = seen(app_client, clock, ann, "bob_p", lambda o: o and o["online"])
    assert online["place"] == LOBBY and online["url"] is None
    profile = ann.get("/api/players/bob_p").json()["online"]
    assert profile["online"] and profile["place"] == LOBBY
    assert [p["name"] for p in ann.get("/api/online").json()["people"]] == ["bob_p"]
    # no poll for longer than the window: offline, last seen when last written
    advance(app_client, clock, WINDOW + 1)
    gone = seen(app_client, clock, ann, "bob_p", lambda o: o and not o["online"])
    assert gone["place"] is None and gone["last_seen"] <= clock.time() - WINDOW
    advance(app_client, clock, 3.0)  # past the list's cache
    assert ann.get("/api/online").json() == {"count": 0, "more": 0, "people": []}


def test_a_hidden_person_is_never_shown(app_client: TestClient, clock: ManualClock) -> None:
    ann, bob, cy = (account(app_client, n) for n in ("ann_h", "bob_h", "cy_h"))
    assert bob.get("/api/account/presence").json() == {"visible": True}  # the default
    assert post(cy, "/api/account/presence", {"visible": False}).json() == {"visible": False}
    assert cy.get("/api/account/presence").json() == {"visible": False}
    post(ann, "/api/follows/cy_h")
    post(ann, "/api/follows/bob_h")

    def polls() -> None:
        bob.get("/api/seeks")
        cy.get("/api/seeks")
    seen(app_client, clock, ann, "bob_h", lambda o: o and o["online"], polls)
    hub = app_client.app.state.hub  # type: ignore[attr-defined]
    with writing(hub.store.engine) as conn:  # cy's place is kept, and shown to nobody
        row = conn.execute(select(presence_t).join(
            follows_t, follows_t.c.followee == presence_t.c.account_id)
            .where(presence_t.c.hidden.is_(True))).one()
    assert row.place == LOBBY
    listed = {f["name"]: f["online"] for f in ann.get("/api/follows").json()["follows"]}
    assert listed["cy_h"] is None
    assert [f["name"] for f in ann.get("/api/follows").json()["follows"]] == ["bob_h", "cy_h"]
    assert ann.get("/api/players/cy_h").json()["online"] is None
    advance(app_client, clock, 3.0)
    assert [p["name"] for p in ann.get("/api/online").json()["people"]] == ["bob_h"]
    # shown again once cy chooses so
    assert post(cy, "/api/account/presence", {"visible": True}).status_code == 200
    names = [p["name"] for p in ann.get("/api/online").json()["people"]]
    assert names == ["bob_h", "cy_h"]


def test_at_a_public_table_with_a_link_at_a_private_one_without(
        app_client: TestClient, clock: ManualClock) -> None:
    ann, bob = account(app_client, "ann_t"), account(app_client, "bob_t")
    post(ann, "/api/follows/bob_t")
    made = post(bob, "/api/tables", {"preset": "polignac", "players": 4, "seats": [
        {"kind": "you"}, {"kind": "open"}, {"kind": "bot", "level": "random"},
        {"kind": "bot", "level": "random"}]}).json()
    bob.get("/api/seeks")  # the lobby too: the table says more
    with bob.websocket_connect(made["url"] + "/ws") as ws:
        ws.send_json({"type": "hello", "last_seq": 0})
        online = seen(app_client, clock, ann, "bob_t",
                      lambda o: o and o["online"] and o["place"] == TABLE)
    assert online["url"] == made["url"] and online["preset"] == "polignac"
    private = post(bob, "/api/play-now").json()
    with bob.websocket_connect(private["url"] + "/ws") as ws:
        ws.send_json({"type": "hello", "last_seq": 0})
        online = seen(app_client, clock, ann, "bob_t",
                      lambda o: o and o["place"] == TABLE and o["url"] is None)
    assert online["preset"] == "polignac"


def test_in_an_arena_while_its_page_is_open(app_client: TestClient,
                                            clock: ManualClock) -> None:
    ann, bob = account(app_client, "ann_a"), account(app_client, "bob_a")
    post(ann, "/api/follows/bob_a")
    made = post(bob, "/api/tournaments", {
        "preset": "black-lady", "seats": 4,
        "time_control": {"kind": "realtime", "base": 180, "increment": 2},
        "starts_at": START + 3600, "minutes": 30, "rated": False, "bot_wait": 30}).json()
    with bob.websocket_connect(made["url"] + "/ws", headers=ORIGIN):
        online = seen(app_client, clock, ann, "bob_a",
                      lambda o: o and o["online"] and o["place"] == ARENA)
    assert online["url"] == made["url"] and online["preset"] == "black-lady"
    # the page closed: the place goes with the window
    advance(app_client, clock, WINDOW + 1)
    seen(app_client, clock, ann, "bob_a", lambda o: o and not o["online"])


def test_the_list_of_who_is_online_is_bounded(app_client: TestClient, clock: ManualClock,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(places, "MAX_ONLINE_NAMES", 2)
    people = [account(app_client, n) for n in ("dee_b", "ada_b", "cal_b")]

    def listed() -> Any:
        for who in people:
            who.get("/api/seeks")
        answer = people[0].get("/api/online").json()
        if answer["count"] == 3:
            return answer
        advance(app_client, clock, 2.0)  # a round, and past the list's cache
        return None
    assert wait_until(listed, what="three online") == {
        "count": 3, "more": 1, "people": [{"name": "ada_b", "profile": "/players/ada_b"},
                                          {"name": "cal_b", "profile": "/players/cal_b"}]}


def test_presence_is_shared_by_two_processes(backend_config: ServerConfig,
                                             bot_backend: PoolBackend) -> None:
    # two apps on one database (SQLite, then PostgreSQL), the server's own clock: Bob
    # polls the lobby of one, Ann reads her list on the other
    with TestClient(create_app(backend_config, bot_backend),
                    base_url="http://testserver") as one, \
            TestClient(create_app(backend_config, bot_backend),
                       base_url="http://testserver") as two:
        ann, bob = account(one, "ann_2p"), account(two, "bob_2p")
        assert post(ann, "/api/follows/bob_2p").status_code == 200

        def lobby() -> Any:
            bob.get("/api/seeks")
            [entry] = ann.get("/api/follows").json()["follows"]
            return entry["online"] and entry["online"]["online"] and entry["online"]
        assert wait_until(lobby, what="Bob in the lobby, seen by the other app")["place"] \
            == LOBBY


def test_a_person_polling_the_lobby_is_written_once_a_third_of_the_window(
        app_client: TestClient, clock: ManualClock) -> None:
    # the lobby polls every 2 s and the round runs every second: the row is written
    # again only once a third of the window (5 s) has passed, never at every poll
    bob = account(app_client, "bob_w")
    hub = app_client.app.state.hub  # type: ignore[attr-defined]
    written: list[float] = []

    def seen_at() -> float | None:
        with writing(hub.store.engine) as conn:
            row = conn.execute(select(presence_t.c.seen_at)).first()
        return None if row is None else float(row.seen_at)

    def poll() -> bool:
        bob.get("/api/seeks")
        at = seen_at()
        if at is not None and at not in written:
            written.append(at)
        advance(app_client, clock, 1.0)
        return len(written) >= 4
    wait_until(poll, what="four writes")
    gaps = [b - a for a, b in pairwise(written)]
    assert all(gap >= WINDOW / 3 for gap in gaps), gaps
