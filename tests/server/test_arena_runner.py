"""The arena runner (``events/runner.py``) and its routes (``web/tournament_routes.py``)
on a ManualClock: accounts and bots seated at tables of 4 again and again, a player
leaving mid-way and another joining late, standings equal to ``scoring.standings``
of the stored records, no table after the end, a match running at the end counted
when it finishes; and every route's refusals."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from polignac.server import ServerConfig, create_app
from polignac.server.base.clock import ManualClock
from polignac.server.events import store
from polignac.server.events.scoring import standings
from polignac.server.jobs.botmoves import PoolBackend
from polignac.server.store.db import writing

from .helpers import sibling
from .test_accounts import ORIGIN, account, post
from .waiting import wait_until

START = 1_700_000_000.0


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def app_client(config: ServerConfig, clock: ManualClock,
               bot_backend: PoolBackend) -> Iterator[TestClient]:
    quick = replace(config, clock=clock, grace_seconds=1.0, standin_level="random",
                    fill_level="random", arena_tick=2.0)
    with TestClient(create_app(quick, bot_backend), base_url="http://testserver") as c:
        yield c


def settings(**kw: Any) -> dict[str, Any]:
    base = {"preset": "polignac", "seats": 4,
            "time_control": {"kind": "realtime", "base": 180, "increment": 2},
            "starts_at": START, "minutes": 10, "rated": False, "bot_wait": 10}
    return {**base, **kw}


def advance(client: TestClient, clock: ManualClock, seconds: float) -> None:
    client.portal.call(clock.advance, seconds)  # type: ignore[union-attr]


def stored(client: TestClient, tid: str) -> tuple[Any, Any]:
    """The stored matches (finished, running) of ``tid``."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with writing(hub.store.engine) as conn:
        return store.finished_matches(conn, tid), store.running_matches(conn, tid)


def play_out(client: TestClient, clock: ManualClock, tid: str, until: Any) -> None:
    """Let the clock run (the runner's rounds, the stand-ins' grace) until ``until()``."""
    def step() -> bool:
        if until():
            return True
        advance(client, clock, 1.0)
        return False
    wait_until(step, 240, what="the arena to get there", interval=0.05)


def test_an_arena_seats_and_scores_until_its_end(app_client: TestClient,
                                                 clock: ManualClock) -> None:
    people = [account(app_client, f"Arena_{i}") for i in range(4)]
    tid = post(people[0], "/api/tournaments", settings()).json()["id"]
    for p in people[:3]:
        assert post(p, f"/api/tournaments/{tid}/join").json() == {"state": "joined"}
    # three people at tables of 4: bots fill the fourth seat once they waited 10 s
    play_out(app_client, clock, tid, lambda: stored(app_client, tid)[1])
    first = stored(app_client, tid)[1]
    assert len(first) == 1 and sorted(p for p in first[0][1] if p is not None) == [1, 2, 3]
    assert first[0][1].count(None) == 1
    me = people[0].get(f"/api/tournaments/{tid}").json()["me"]
    assert me["your_table"] == f"/tables/{first[0][0]}" and me["state"] == "joined"
    # the fourth joins late; the second leaves mid-way
    assert post(people[3], f"/api/tournaments/{tid}/join").status_code == 200
    play_out(app_client, clock, tid, lambda: len(stored(app_client, tid)[0]) >= 2)
    assert post(people[1], f"/api/tournaments/{tid}/leave").json() == {"state": "left"}
    runner = app_client.app.state.arena  # type: ignore[attr-defined]
    begun = runner.rounds  # a round under way may still seat them; the next ones never
    play_out(app_client, clock, tid, lambda: runner.rounds >= begun + 2)
    left_at = clock.time()
    play_out(app_client, clock, tid, lambda: len(stored(app_client, tid)[0]) >= 4)
    finished, running = stored(app_client, tid)
    for record in finished + [(t, p) for t, p in running]:
        seats = record.players if hasattr(record, "players") else record[1]
        assert 4 in seats or 1 in seats  # tables are people's, with bots
    after = started_after(app_client, tid, left_at)
    assert after and all(2 not in players for players in after)  # left: never seated again
    assert any(4 in r.players for r in finished)  # the late one played
    # the end: matches running then count when they finish, and no table is made after
    play_out(app_client, clock, tid, lambda: clock.time() >= START + 600)
    at_end = {t for t, _p in stored(app_client, tid)[1]}
    play_out(app_client, clock, tid, lambda: not stored(app_client, tid)[1])
    finished, running = stored(app_client, tid)
    assert not running and at_end <= {r.table_id for r in finished}
    assert all(start_before_end(app_client, tid))
    got = people[2].get(f"/api/tournaments/{tid}").json()
    again = standings(finished, [1, 2, 3, 4])
    assert [(s["id"], s["points"]) for s in got["standings"]] == \
        [(s.player, float(s.points)) for s in again]
    assert got["state"] == "finished" and got["podium"][0]["id"] == again[0].player
    assert post(people[2], f"/api/tournaments/{tid}/join").json()["rule"] == "tournament-over"


def started_after(client: TestClient, tid: str, when: float) -> list[list[int | None]]:
    """The players of each table of ``tid`` formed after ``when``."""
    import json

    from sqlalchemy import select

    from polignac.server.store.schema import tournament_matches_t as m
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with writing(hub.store.engine) as conn:
        rows = conn.execute(select(m.c.players).where(m.c.tournament_id == tid,
                                                      m.c.started_at > when)).scalars()
        return [json.loads(r) for r in rows]


def start_before_end(client: TestClient, tid: str) -> list[bool]:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    from sqlalchemy import select

    from polignac.server.store.schema import tournament_matches_t as m
    with writing(hub.store.engine) as conn:
        starts = conn.execute(select(m.c.started_at).where(m.c.tournament_id == tid)).scalars()
        return [s < START + 600 for s in starts]


def test_the_routes_refuse_what_they_must(app_client: TestClient) -> None:
    guest = sibling(app_client)
    assert post(guest, "/api/tournaments", settings()).json()["rule"] == "signed-out"
    alice = account(app_client, "Alice_9")
    for bad, rule in ((settings(preset="nope"), "bad-preset"),
                      (settings(seats=11), "bad-players"),
                      (settings(time_control=None), "bad-time-control"),
                      (settings(starts_at=START - 3600), "tournament-start"),
                      (settings(minutes=5), "tournament-length"),
                      (settings(bot_wait=3), "tournament-bot-wait"),
                      ({**settings(), "x": 1}, "bad-field"), ([1], "bad-json")):
        r = alice.post("/api/tournaments", json=bad, headers=ORIGIN)
        assert (r.status_code, r.json()["rule"]) == (400, rule), bad
    tid = post(alice, "/api/tournaments", settings(rated=True)).json()["id"]
    listed = app_client.get("/api/tournaments").json()["tournaments"]
    assert [t["id"] for t in listed] == [tid] and listed[0]["state"] == "running"
    assert post(guest, f"/api/tournaments/{tid}/join").json()["rule"] == "arena-sign-in"
    for what in ("pause", "leave"):
        r = post(alice, f"/api/tournaments/{tid}/{what}")
        assert (r.status_code, r.json()["rule"]) == (409, "not-in-tournament")
    for url in ("/api/tournaments/nope-nope-1", "/api/tournaments/%2e%2e"):
        r = app_client.get(url)
        assert r.status_code == 404 and r.json()["rule"] in ("no-tournament", "not-found")
    r = post(alice, "/api/tournaments/nope-nope-1/join")
    assert (r.status_code, r.json()["rule"]) == (404, "no-tournament")
    assert post(alice, f"/api/tournaments/{tid}/join").json() == {"state": "joined"}
    assert post(alice, f"/api/tournaments/{tid}/pause").json() == {"state": "paused"}
    got = alice.get(f"/api/tournaments/{tid}").json()
    assert got["me"]["state"] == "paused" and got["rated"] is True


def test_the_socket_pushes_the_standings_when_they_change(app_client: TestClient,
                                                         clock: ManualClock) -> None:
    alice = account(app_client, "Alice_7")
    tid = post(alice, "/api/tournaments", settings(bot_wait=None)).json()["id"]
    with app_client.websocket_connect(f"/tournaments/{tid}/ws") as ws:
        first = ws.receive_json()
        assert first["type"] == "standings" and first["standings"] == []
        post(alice, f"/api/tournaments/{tid}/join")
        pushed = ws.receive_json()
        assert [s["name"] for s in pushed["standings"]] == ["Alice_7"]
        runner = app_client.app.state.arena  # type: ignore[attr-defined]
        play_out(app_client, clock, tid, lambda: tid in runner.live)
        advance(app_client, clock, 600)  # the end, with no match playing: pushed too
        # the runner's rounds read the database in a thread, which an advance does not
        # wait for: step on until a round has seen the end (then it has been pushed)
        play_out(app_client, clock, tid, lambda: tid not in runner.live)
        frames = [ws.receive_json() for _ in range(1)]
        while frames[-1]["state"] != "finished" and len(frames) < 20:
            frames.append(ws.receive_json())
        assert frames[-1]["state"] == "finished" and frames[-1]["podium"] == []
    with pytest.raises(WebSocketDisconnect) as closed, \
            app_client.websocket_connect("/tournaments/nope-nope-1/ws") as ws:
        ws.receive_json()
    assert closed.value.code == 4404


def test_a_rated_arena_makes_rated_tables_of_its_settings(app_client: TestClient,
                                                         clock: ManualClock) -> None:
    people = [account(app_client, f"Rated_{i}") for i in range(4)]
    tid = post(people[0], "/api/tournaments",
               settings(rated=True, bot_wait=None,
                        time_control={"kind": "move", "seconds": 30})).json()["id"]
    for p in people:
        assert post(p, f"/api/tournaments/{tid}/join").status_code == 200
    play_out(app_client, clock, tid, lambda: stored(app_client, tid)[1])
    (table_id, players), = stored(app_client, tid)[1]
    assert sorted(players) == [1, 2, 3, 4]  # type: ignore[type-var]  # all people, no bot
    table = app_client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
    assert table.options["rated"] is True and table.options["tournament"] == tid
    assert table.options["time_control"] == {"kind": "move", "seconds": 30}
    assert table.preset == "polignac" and len(table.seats) == 4
    assert {s.name for s in table.seats} == {f"Rated_{i}" for i in range(4)}
