"""Find players (seeks.py, seek_routes.py): the matcher's pure rules, then a server:
people who ask for the same game are seated together at a new table, one request
per person, requests expire, bots fill the empty seats after the chosen wait, a
countdown left by one person puts the others back to waiting."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import create_engine, select, text
from starlette.testclient import TestClient

from polignac.server import ServerConfig, create_app
from polignac.server.base.errors import ApiError
from polignac.server.jobs.botmoves import PoolBackend
from polignac.server.lobby.seeks import Group, Seek, plan, seat_positions, seek_overrides

from .helpers import sibling
from .waiting import wait_until

KEY = ("polignac", 4, False, None)


def _seek(i: int, created: float, bots_after: int | None = None,
          key: tuple[Any, ...] = KEY, level: str = "easy") -> Seek:
    return Seek(f"s{i}", key, created, bots_after, level)  # type: ignore[arg-type]


# ------------------------------------------------------------------ the pure matcher


def test_enough_people_make_a_table_oldest_first() -> None:
    seeks = [_seek(i, 100.0 - i) for i in range(5)]  # s4 is the oldest
    assert plan(seeks, 200.0) == [Group(KEY, ("s4", "s3", "s2", "s1"), 0, "easy")]


def test_one_person_waits_unless_bots_are_allowed_and_due() -> None:
    assert plan([_seek(0, 0.0), _seek(1, 1.0)], 1000.0) == []  # never bots
    alone = [_seek(0, 0.0, 60), _seek(1, 1.0)]  # s1 allows no bots: s0 is alone
    assert plan(alone, 59.0) == []
    # its minute is over: seated with three bots
    assert plan(alone, 60.0) == [Group(KEY, ("s0",), 3, "easy")]


def test_two_people_who_allow_bots_are_seated_at_once() -> None:
    # issue 31: everyone the group needs is there; nobody waits for the bots' timer
    waiting = [_seek(0, 0.0, 60), _seek(1, 10.0, 120)]
    assert plan(waiting, 10.0) == [Group(KEY, ("s0", "s1"), 2, "easy")]


def test_a_person_who_allows_no_bots_is_never_seated_with_one() -> None:
    groups = plan([_seek(0, 0.0, 30), _seek(1, 1.0), _seek(2, 2.0, 120)], 31.0)
    assert groups == [Group(KEY, ("s0", "s2"), 2, "easy")]


def test_different_games_counts_or_ratings_never_meet() -> None:
    keys = [KEY, ("polignac", 5, False, None), ("polignac", 4, True, None),
            ("polignac", 4, False, 1), ("black-lady", 4, False, None)]
    assert plan([_seek(i, float(i), key=k) for i, k in enumerate(keys)], 10.0) == []
    three = [_seek(i, float(i), key=("knaves", 3, True, None)) for i in range(3)]
    assert plan(three + [_seek(9, 0.0)], 5.0) == [
        Group(("knaves", 3, True, None), ("s0", "s1", "s2"), 0, "easy")]


def test_a_full_table_then_the_rest_with_bots() -> None:
    seeks = [_seek(i, float(i), 30) for i in range(6)]
    assert plan(seeks, 100.0) == [Group(KEY, ("s0", "s1", "s2", "s3"), 0, "easy"),
                                  Group(KEY, ("s4", "s5"), 2, "easy")]


def test_seats_are_distinct_and_within_the_table() -> None:
    rng = random.Random(3)
    for n in range(3, 7):
        for people in range(1, n + 1):
            seats = seat_positions(n, people, rng)
            assert len(set(seats)) == people and all(0 <= s < n for s in seats)


def test_lengths_that_do_not_fit_a_game_are_refused() -> None:
    assert seek_overrides("polignac", None) == {}
    assert seek_overrides("black-lady", 1) == {"match_end": "fixed-deals", "deals": 1}
    for preset, deals, rule in (("pollack", 1, "bad-deals"), ("bassadewitz", 1, "bad-deals"),
                                ("nope", None, "bad-preset")):
        with pytest.raises(ApiError) as caught:
            seek_overrides(preset, deals)
        assert caught.value.rule == rule


# ------------------------------------------------------------------ a server


@pytest.fixture
def fast(config: ServerConfig) -> ServerConfig:
    return replace(config, seek_tick=0.05, seek_countdown=0.3)


@pytest.fixture
def app_client(fast: ServerConfig, bot_backend: PoolBackend) -> Iterator[TestClient]:
    with TestClient(create_app(fast, bot_backend), base_url="http://testserver") as c:
        yield c


def wait_for(check: Callable[[], Any], seconds: float = 20.0) -> Any:
    """``check()``'s first true answer (polled every 50 ms).

    Raises:
        AssertionError: none within ``seconds``.
    """
    return wait_until(check, seconds, what="the lobby to get there", interval=0.05)


def seated(client: TestClient) -> str | None:
    """The table url once this browser's request is seated (its poll answers it)."""
    mine = client.get("/api/seeks").json()["mine"]
    return mine["url"] if mine and mine["state"] == "seated" else None


def seat_all(people: list[TestClient]) -> list[str]:
    """Each browser's table url, every page asking how it goes as lobbies do, until
    all are seated.

    Raises:
        AssertionError: not all within 20 s.
    """
    urls: dict[int, str] = {}

    def everyone() -> bool:
        for i, c in enumerate(people):
            if i not in urls and (url := seated(c)) is not None:
                urls[i] = url
        return len(urls) == len(people)
    wait_for(everyone)
    return [urls[i] for i in range(len(people))]


def ask(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/seeks", json={"preset": "polignac", "players": 3, **body})
    assert r.status_code == 200, r.text
    seek: dict[str, Any] = r.json()["seek"]
    return seek


def test_three_people_are_seated_together(app_client: TestClient) -> None:
    people = [app_client, sibling(app_client), sibling(app_client)]
    for i, c in enumerate(people):
        ask(c, name=f"P{i}", rated=True)
    listed = people[0].get("/api/seeks").json()
    assert listed["online"] >= 1
    urls = seat_all(people)
    assert len(set(urls)) == 1
    table_id = urls[0].split("/")[-1]
    state = people[0].get(f"/tables/{table_id}/record.json").json()
    names = sorted(s["name"] for s in state["seats"]) if "seats" in state else None
    # each browser holds its own seat (the poll set the seat cookie)
    seats = set()
    for c in people:
        with c.websocket_connect(f"/tables/{table_id}/ws") as ws:
            ws.send_json({"type": "hello", "last_seq": 0})
            frame = ws.receive_json()
            while frame["type"] != "state":
                frame = ws.receive_json()
            seats.add(frame["you"])
            assert frame["table"]["rated"] is True
            names = sorted(s["name"] for s in frame["table"]["seats"])
    assert seats == {0, 1, 2} and names == ["P0", "P1", "P2"]
    # the requests are done
    assert people[0].get("/api/seeks").json()["seeks"] == []


def test_one_request_per_person_replaced_and_cancelled(app_client: TestClient) -> None:
    ask(app_client, players=4)
    ask(app_client, preset="black-lady", players=4, bots_after=120)
    listed = app_client.get("/api/seeks").json()
    assert [(s["preset"], s["waiting"]) for s in listed["seeks"]] == [("black-lady", 1)]
    assert listed["mine"]["preset"] == "black-lady" and listed["mine"]["bots_in"] > 100
    assert app_client.post("/api/seeks/cancel").json() == {"cancelled": True}
    assert app_client.post("/api/seeks/cancel").json() == {"cancelled": False}
    assert app_client.get("/api/seeks").json() == {"online": 1, "seeks": [], "mine": None}


@pytest.mark.parametrize("body, rule", [
    ({"preset": 3}, "bad-field"), ({"preset": "nope"}, "bad-preset"),
    ({"players": 2}, "bad-players"), ({"players": True}, "bad-players"),
    ({"players": "4"}, "bad-players"), ({"rated": "yes"}, "bad-field"),
    ({"bots_after": 45}, "bad-field"), ({"bots_after": True}, "bad-field"),
    ({"deals": 2}, "bad-field"), ({"preset": "pollack", "players": 4, "deals": 1}, "bad-deals"),
    ({"level": "godlike"}, "bad-level"), ({"level": ["easy"]}, "bad-level"),
])
def test_bad_requests_are_refused_and_store_nothing(app_client: TestClient,
                                                    body: dict[str, Any], rule: str) -> None:
    r = app_client.post("/api/seeks", json={"preset": "polignac", "players": 4, **body})
    assert r.status_code == 400 and r.json()["rule"] == rule, r.text
    assert app_client.get("/api/seeks").json()["seeks"] == []


def test_foreign_origin_refused(app_client: TestClient) -> None:
    evil = {"origin": "https://evil.example"}
    assert app_client.post("/api/seeks", json={}, headers=evil).status_code == 403
    assert app_client.post("/api/seeks/cancel", headers=evil).status_code == 403


def _database(client: TestClient) -> Any:
    return create_engine(client.app.state.hub.config.url())  # type: ignore[attr-defined]


def test_leaving_the_countdown_puts_the_others_back(fast: ServerConfig,
                                                    bot_backend: PoolBackend) -> None:
    config = replace(fast, seek_countdown=30.0)
    with TestClient(create_app(config, bot_backend), base_url="http://testserver") as a:
        b, c = sibling(a), sibling(a)
        for x in (a, b, c):
            ask(x)
        mine = wait_for(lambda: [x.get("/api/seeks") for x in (a, b)]  # pages ask
                        and (m := c.get("/api/seeks").json()["mine"])["state"]
                        == "countdown" and m)
        assert 25 < mine["seconds_left"] <= 30 and len(mine["with"]) == 3
        assert c.post("/api/seeks/cancel").json() == {"cancelled": True}
        assert a.get("/api/seeks").json()["mine"]["state"] == "waiting"
        assert [s["waiting"] for s in a.get("/api/seeks").json()["seeks"]] == [2]


def test_requests_expire_when_their_page_stops_asking(fast: ServerConfig,
                                                      bot_backend: PoolBackend) -> None:
    config = replace(fast, seek_stale=0.5, seek_lifetime=3.0)
    with TestClient(create_app(config, bot_backend), base_url="http://testserver") as a:
        ask(a, players=4)
        watcher = sibling(a)
        assert watcher.get("/api/seeks").json()["seeks"][0]["waiting"] == 1
        wait_for(lambda: watcher.get("/api/seeks").json()["seeks"] == [])  # a stopped asking
        ask(a, players=4)  # asking keeps it alive, up to its lifetime
        started = time.monotonic()
        wait_for(lambda: a.get("/api/seeks").json()["mine"] is None, 10.0)
        assert time.monotonic() - started >= 2.0


def _online(client: TestClient) -> int:
    """People online as the database counts them now (the routes cache it 2 s)."""
    from polignac.server.lobby.seek_rows import online_count
    from polignac.server.store.db import db_now

    engine = _database(client)
    with engine.connect() as conn:
        count = online_count(conn, db_now(conn), 15.0)
    engine.dispose()
    return count


def _identities(client: TestClient) -> int:
    engine = _database(client)
    with engine.connect() as conn:
        count = int(conn.execute(text("SELECT count(*) FROM online")).scalar_one())
    engine.dispose()
    return count


def test_online_counts_people_not_tabs(app_client: TestClient) -> None:
    app_client.get("/api/seeks")
    tab = sibling(app_client)  # the same browser: its identity cookie
    tab.cookies.set("polignac_id", app_client.cookies["polignac_id"])
    tab.get("/api/seeks")
    wait_for(lambda: _online(app_client) == 1)  # the matchmaker's next round writes it
    # an account signed in on two browsers is one person
    phone, laptop = sibling(app_client), sibling(app_client)
    phone.get("/")
    assert phone.post("/api/account/signup", json={"username": "Dana_online",
                                                   "password": "long enough"}).status_code == 200
    laptop.get("/")
    assert laptop.post("/api/account/signin", json={"username": "Dana_online",
                                                    "password": "long enough"}).status_code == 200
    phone.get("/api/seeks")
    laptop.get("/api/seeks")
    wait_for(lambda: _identities(app_client) == 3)  # three browsers seen...
    assert _online(app_client) == 2  # ...two people
    # someone playing (a table's socket, no lobby) counts once the matchmaker writes it
    player = sibling(app_client)
    url = player.post("/api/play-now", json={}).json()["url"]
    with player.websocket_connect(url + "/ws") as ws:
        ws.send_json({"type": "hello", "last_seq": 0})
        wait_for(lambda: _online(app_client) == 3)
    assert app_client.get("/api/seeks").json()["online"] >= 1


def _seen_at(client: TestClient) -> list[float]:
    engine = _database(client)
    with engine.connect() as conn:
        rows = [float(r[0]) for r in conn.execute(text("SELECT seen_at FROM online"))]
    engine.dispose()
    return rows


def test_a_player_stays_online_with_a_write_a_third_of_the_window(
        fast: ServerConfig, bot_backend: PoolBackend) -> None:
    # every round (50 ms here) sees the player at the table, but the row is written
    # again only once a third of the window (0.6 s) has passed: never a write a round
    config = replace(fast, online_window=1.8)
    with TestClient(create_app(config, bot_backend), base_url="http://testserver") as c:
        url = c.post("/api/play-now", json={}).json()["url"]
        with c.websocket_connect(url + "/ws") as ws:
            ws.send_json({"type": "hello", "last_seq": 0})
            first = wait_for(lambda: _seen_at(c))[0]
            second = wait_for(lambda: [t for t in _seen_at(c) if t != first])[0]
            third = wait_for(lambda: [t for t in _seen_at(c) if t not in (first, second)])[0]
            assert second - first >= 0.6 - 0.05 and third - second >= 0.6 - 0.05
            assert _online(c) == 1  # the row is never older than the window


# ------------------------------------------------------------------ a claimant that dies


@pytest.fixture
def engine(tmp_path: Any) -> Iterator[Any]:
    from polignac.server.store.db import make_engine, migrate

    eng = make_engine(f"sqlite:///{tmp_path / 'seeks.db'}")
    migrate(eng)
    yield eng
    eng.dispose()


def _due_group(engine: Any, people: int = 3) -> str:
    """``people`` requests of one group whose countdown is over; the group's id."""
    from polignac.server.lobby import seeks as s

    with engine.begin() as conn:
        for i in range(people):
            s.add(conn, {"id": f"r{i}", "person": f"g:{i}", "identity_hash": f"h{i}",
                         "token_hash": f"t{i}", "name": f"P{i}", "preset": "polignac",
                         "players": 4, "rated": False, "deals": None, "bots_after": 30,
                         "level": "easy", "created_at": 100.0 + i, "seen_at": 200.0,
                         "polled_at": 200.0})
        assert len(s.form_groups(conn, 200.0, 1.0, 20.0)) == 1
        s.seen_now(conn, [f"r{i}" for i in range(people)], 200.5)  # there: pages ask
        (group,) = s.due_groups(conn, 201.0)
    return str(group)


def test_a_lapsed_claim_is_taken_over_once_with_its_table_and_seats(engine: Any) -> None:
    from polignac.server.lobby import seeks as s

    group = _due_group(engine)
    with engine.begin() as conn:
        rows = s.take_group(conn, group, 201.0, 1.0, "dead-1-aa", 2.0, random.Random(1))
    assert [r.claimant for r in rows] == ["dead-1-aa"] * 3
    table, seats = rows[0].table_id, [r.seat for r in rows]
    assert table and len(set(seats)) == 3
    with engine.begin() as conn:
        assert s.lapsed_claims(conn, 202.0) == []  # still within its lease
        assert s.take_over(conn, group, "dead-1-aa", "live-2-bb", 202.0, 2.0) == ([], 0)
        assert s.lapsed_claims(conn, 203.5) == [(group, "dead-1-aa", 203.0)]
        taken, now_seated = s.take_over(conn, group, "dead-1-aa", "live-2-bb", 203.5, 2.0)
        # a third process that read the same lapsed claim loses the compare-and-set
        assert s.take_over(conn, group, "dead-1-aa", "other-3-cc", 203.5, 2.0) == ([], 0)
    assert now_seated == 0 and [r.claimant for r in taken] == ["live-2-bb"] * 3
    assert (taken[0].table_id, [r.seat for r in taken]) == (table, seats)  # the same table
    with engine.begin() as conn:  # the dead claimant's late write changes nothing
        s.back_to_waiting(conn, [r.id for r in rows], "dead-1-aa")
        assert {r.state for r in s._group_rows(conn, group, s.CREATING)} == {s.CREATING}


def test_a_table_stored_before_its_claimant_died_seats_the_group_there(engine: Any) -> None:
    from polignac.server.lobby import seeks as s
    from polignac.server.store.db import SeatRow, TableRow, insert_table

    group = _due_group(engine, 2)
    with engine.begin() as conn:
        rows = s.take_group(conn, group, 201.0, 1.0, "dead-1-aa", 2.0, random.Random(2))
        seats = [SeatRow(i, "bot", "easy", f"Bot {i}", None, None) for i in range(4)]
        for r in rows:
            seats[r.seat] = SeatRow(r.seat, "human", None, r.name, r.token_hash, None,
                                    holder_hash=r.identity_hash)
        insert_table(conn, TableRow(rows[0].table_id, "polignac", {}, 4, 0, seats, []))
    with engine.begin() as conn:
        assert s.take_over(conn, group, "dead-1-aa", "live-2-bb", 204.0, 2.0) == ([], 2)
        done = {r.id: (r.state, r.table_id, r.seat) for r in
                conn.execute(select(s.seeks_t)).all()}
    assert done == {r.id: (s.SEATED, r.table_id, r.seat) for r in rows}


def test_a_claimant_that_gave_up_is_taken_over_at_once(engine: Any) -> None:
    from polignac.server.lobby import seeks as s

    group = _due_group(engine)
    with engine.begin() as conn:
        rows = s.take_group(conn, group, 201.0, 1.0, "slow-1-aa", 2.0, random.Random(3))
        s.release_claim(conn, [r.id for r in rows], "slow-1-aa", 201.5)
        ((_g, claimant, _at),) = s.lapsed_claims(conn, 201.6)
        assert claimant is None
        taken, _ = s.take_over(conn, group, None, "live-2-bb", 201.6, 2.0)
    assert len(taken) == 3 and taken[0].table_id == rows[0].table_id


def test_who_may_take_a_lapsed_claim_over() -> None:
    from types import SimpleNamespace

    from polignac.server.lobby.matchmaker import Matchmaker
    from polignac.server.lobby.seeks import CREATING_STUCK

    cluster = SimpleNamespace(id="me", loads_all=False, alive=lambda p: p == "live")
    mm = Matchmaker(SimpleNamespace(cluster=cluster))  # type: ignore[arg-type]
    mm.seating.add("g-busy")
    now = 1000.0
    assert mm.abandoned(None, "g", now - 1, now)  # given up
    assert mm.abandoned("gone", "g", now - 1, now)  # not heard for a lease
    assert not mm.abandoned("live", "g", now - 1, now)  # alive, maybe slow
    assert mm.abandoned("live", "g", now - CREATING_STUCK - 1, now)  # alive but stuck
    assert not mm.abandoned("me", "g-busy", now - 1, now)  # this process seats it now
    assert mm.abandoned("me", "g", now - 1, now)  # this process's seating failed
    cluster.loads_all = True  # one process: any other id is an earlier run's
    assert mm.abandoned("live", "g", now - 1, now)


def test_the_server_offers_its_own_countdown_and_bot_waits(
        fast: ServerConfig, bot_backend: PoolBackend) -> None:
    config = replace(fast, seek_countdown=2.5, seek_bot_waits=(15, 90))
    with TestClient(create_app(config, bot_backend), base_url="http://testserver") as c:
        seek = c.get("/api/presets").json()["seek"]
        assert (seek["countdown"], seek["bots_after"]) == (2.5, [None, 15, 90])
        assert ask(c, bots_after=15)["bots_after"] == 15
        for refused in (30, 60, 120):  # the default waits are not offered here
            r = c.post("/api/seeks", json={"preset": "polignac", "bots_after": refused})
            assert r.status_code == 400 and r.json()["rule"] == "bad-field", r.text
            assert "null, 15, 90" in r.json()["error"]
