"""Presence, the grace period and the stand-in bot, taking a bot's seat, rematch,
the table list, spectators."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from polignac.server import ServerConfig, create_app
from polignac.server.base.clock import ManualClock

from .helpers import hello, next_of, play_now, play_until, sibling
from .waiting import wait_until


def _presence_until(ws: WebSocketTestSession, test: Any, limit: int = 5000) -> dict[str, Any]:
    for _ in range(limit):
        frame = next_of(ws, "presence")
        if test(frame["seats"][0]):
            return frame
    raise AssertionError("no such presence frame")


def _seats_until(ws: WebSocketTestSession, test: Any, limit: int = 5000) -> list[Any]:
    for _ in range(limit):
        seats: list[Any] = next_of(ws, "presence")["seats"]
        if test(seats):
            return seats
    raise AssertionError("no such presence frame")


def test_grace_period_then_a_solo_table_pauses_until_the_person_returns(
        config: ServerConfig) -> None:
    clock = ManualClock()
    with TestClient(create_app(replace(config, grace_seconds=30, clock=clock))) as client:
        url = play_now(client)
        table = client.app.state.hub.tables[url.rsplit("/", 1)[1]]  # type: ignore[attr-defined]
        watcher = sibling(client)  # no cookie: a spectator
        with client.websocket_connect(url + "/ws") as ws:
            state = hello(ws)
            me = state["presence"][0]
            assert me == {"seat": 0, "name": "You", "name_key": "name.you", "name_params": {},
                          "guest": True, "kind": "human", "open": False,
                          "connected": True, "grace_until": None, "bot_playing": False,
                          "take_pending": False, "take_name": None, "take_approved": False,
                          "left": False, "may_come_back": False}
            assert [p["kind"] for p in state["presence"]] == ["human", "bot", "bot", "bot"]
            assert all(p["bot_playing"] for p in state["presence"][1:])
            with watcher.websocket_connect(url + "/ws") as spectator:
                seen = hello(spectator)
                assert seen["you"] is None
                assert seen["view"]["deal"]["hand"] in (None, [])
                assert seen["presence"][0]["connected"]
                ws.close()
                gone = _presence_until(spectator, lambda p: not p["connected"])["seats"][0]
                assert gone["grace_until"] is not None and not gone["bot_playing"]
                client.portal.call(clock.advance, 29.5)
                assert not table.paused  # within the grace
                client.portal.call(clock.advance, 0.5)
                for _ in range(2000):  # the grace ends: nobody plays for nobody
                    frame = spectator.receive_json()
                    if frame["type"] == "presence" and frame["paused"]:
                        break
                    assert frame["type"] != "event" or frame["event"].get("seat") != 0, \
                        "a stand-in played for the only person at the table"
                else:
                    raise AssertionError("the table never paused")
                assert not frame["seats"][0]["bot_playing"]
                with client.websocket_connect(url + "/ws") as again:
                    assert hello(again)["presence"][0]["connected"]
                    back = next_of(spectator, "presence")
                    assert not back["paused"] and back["seats"][0]["connected"]


def _ask(client: TestClient, url: str, seat: int, name: str) -> Any:
    """A browser that opened the table page (identity cookie) asks for ``seat``."""
    assert client.get(url).status_code == 200
    return client.post(f"{url}/seats/{seat}/take", json={"name": name})


def test_take_a_bots_seat_between_deals(config: ServerConfig) -> None:
    with TestClient(create_app(replace(config, deal_delay=60))) as client:
        r = client.post("/api/tables", json={
            "preset": "slobberhannes", "name": "Ann",
            "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * 3})
        url, table_id = r.json()["url"], r.json()["id"]
        friend, other = sibling(client), sibling(client)
        with client.websocket_connect(url + "/ws") as ws:
            play_until(ws, hello(ws), random.Random(5),
                       lambda v: bool(v["deals"]) and "deal" not in v)
            assert _ask(friend, url, 0, "Bea").json()["rule"] == "not-a-bot"
            assert friend.post(f"{url}/seats/9/take").status_code == 404
            took = friend.post(f"{url}/seats/2/take", json={"name": "Bea"})
            assert took.status_code == 202 and took.json()["seat"] == 2
            assert took.json()["queued"] and not took.json()["approved"]
            assert "HttpOnly" in took.headers["set-cookie"]
            asked = next_of(ws, "presence")["seats"][2]
            assert asked["take_name"] == "Bea" and asked["kind"] == "bot"
            assert friend.post(f"{url}/seats/2/approve").json()["rule"] == "not-creator"
            ok = client.post(f"{url}/seats/2/approve")
            assert ok.status_code == 200 and ok.json()["granted"]  # between deals: at once
            assert next_of(ws, "presence")["seats"][2]["kind"] == "human"
            again = friend.post(f"{url}/seats/3/take")
            assert again.json()["rule"] == "already-seated"
            assert _ask(other, url, 2, "Cy").json()["rule"] == "not-a-bot"
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}[table_id]
        assert listed["status"] == "between-deals" and listed["preset"] == "slobberhannes"
        assert [(s["name"], s["kind"], s["level"]) for s in listed["seats"]] == [
            ("Ann", "human", None), ("Easy bot 2", "bot", "easy"), ("Bea", "human", None),
            ("Easy bot 4", "bot", "easy")]
        with friend.websocket_connect(url + "/ws") as ws:
            assert hello(ws)["you"] == 2


def test_take_a_bots_seat_during_a_deal_is_granted_at_the_next_deal(
        config: ServerConfig) -> None:
    with TestClient(create_app(replace(config, deal_delay=60))) as client:
        r = client.post("/api/tables", json={
            "preset": "slobberhannes", "name": "Ann",
            "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * 3})
        url = r.json()["url"]
        friend, other = sibling(client), sibling(client)
        with client.websocket_connect(url + "/ws") as ws:
            first = hello(ws)
            assert first["table"]["status"] == "playing"
            asked = _ask(friend, url, 2, "Bea")
            assert asked.status_code == 202, asked.text
            assert asked.json()["queued"] and asked.json()["seat"] == 2
            pending = _seats_until(ws, lambda seats: seats[2]["take_pending"])[2]
            assert pending["kind"] == "bot" and not pending["take_approved"]
            assert _ask(other, url, 2, "Cy").json()["rule"] == "take-pending"
            assert friend.post(f"{url}/seats/3/take").json()["rule"] == "already-asked"
            approved = client.post(f"{url}/seats/2/approve")
            assert approved.status_code == 200 and not approved.json()["granted"]
            assert _seats_until(ws, lambda seats: seats[2]["take_approved"])
            # the requester's cookie is not a seat yet: it watches as a spectator
            with friend.websocket_connect(url + "/ws") as watching:
                assert hello(watching)["you"] is None
            ws.send_json({"type": "hello", "last_seq": 0})
            now = next_of(ws, "state")
            assert now["presence"][2]["take_pending"]
            frames: list[dict[str, Any]] = []
            play_until(ws, now, random.Random(7),
                       lambda v: bool(v["deals"]) and "deal" not in v, frames)
            bot_played = [f["event"] for f in frames if f["type"] == "event"
                          and f["event"].get("seat") == 2]
            assert bot_played, "the bot finishes the deal"
            granted = _seats_until(ws, lambda seats: seats[2]["kind"] == "human")[2]
            assert granted["kind"] == "human" and not granted["take_pending"]
            assert granted["name"] == "Bea"
        with friend.websocket_connect(url + "/ws") as ws:
            state = hello(ws)
            assert state["you"] == 2 and state["table"]["seats"][2]["name"] == "Bea"


def test_a_table_with_open_seats_waits_for_its_people(config: ServerConfig) -> None:
    with TestClient(create_app(config)) as client:
        r = client.post("/api/tables", json={
            "preset": "slobberhannes", "name": "Ann",
            "seats": [{"kind": "you"}, {"kind": "open"}, {"kind": "bot", "level": "easy"},
                      {"kind": "open"}]})
        url, invites = r.json()["url"], r.json()["invites"]
        with client.websocket_connect(url + "/ws") as ws:
            state = hello(ws)
            assert state["seq"] == 0 and state["table"]["status"] == "waiting"
            assert state["table"]["creator"] == 0 and "deal" not in state["view"]
            guest = sibling(client)
            guest.post(invites[0]["url"], follow_redirects=False)
            _seats_until(ws, lambda seats: not seats[1]["open"])
            assert client.get("/api/tables").json()["tables"][0]["status"] == "waiting"
            sibling(client).post(invites[1]["url"], follow_redirects=False)
            deal = next_of(ws, "event")  # the last open seat claimed: the first deal
            assert deal["seq"] == 1 and deal["event"]["kind"] == "deal"
            assert client.post(url + "/start").json()["rule"] == "not-waiting"


def test_the_creator_starts_a_waiting_table_and_bots_fill_the_open_seats(
        config: ServerConfig) -> None:
    with TestClient(create_app(config)) as client:
        r = client.post("/api/tables", json={
            "preset": "slobberhannes", "name": "Ann",
            "seats": [{"kind": "open"}, {"kind": "you"}, {"kind": "open"},
                      {"kind": "bot", "level": "random"}]})
        url, invites = r.json()["url"], r.json()["invites"]
        guest = sibling(client)
        guest.post(invites[0]["url"], follow_redirects=False)
        assert guest.post(url + "/start").json()["rule"] == "not-creator"
        assert sibling(client).post(url + "/start").status_code == 403
        with client.websocket_connect(url + "/ws") as ws:
            assert hello(ws)["table"]["status"] == "waiting"
            started = client.post(url + "/start")
            assert started.status_code == 200, started.text
            seats = _seats_until(ws, lambda seats: seats[2]["kind"] == "bot")
            assert [(s["kind"], s["open"]) for s in seats] == [
                ("human", False), ("human", False), ("bot", False), ("bot", False)]
            deal = next_of(ws, "event")
            assert deal["seq"] == 1 and deal["event"]["kind"] == "deal"
            assert client.post(url + "/start").json()["rule"] == "not-waiting"
        with client.websocket_connect(url + "/ws") as ws:
            table = hello(ws)["table"]
            assert table["seats"][2] == {"seat": 2, "name": "Easy bot 3",
                                         "name_key": "name.bot.easy", "name_params": {"n": 3},
                                         "kind": "bot",
                                         "level": "easy", "open": False}
            assert table["status"] == "playing"


def test_rematch_keeps_the_seats(config: ServerConfig) -> None:
    clock = ManualClock()
    with TestClient(create_app(replace(config, grace_seconds=30, clock=clock))) as client:
        r = client.post("/api/tables", json={
            "preset": "slobberhannes", "name": "Ann", "overrides": {"threshold": 1},
            "seats": [{"kind": "you"}, {"kind": "open"}, {"kind": "bot", "level": "random"},
                      {"kind": "open"}]})
        data = r.json()
        url = data["url"]
        guest = sibling(client)
        assert guest.post(data["invites"][0]["url"], follow_redirects=False).status_code == 303
        assert client.post(url + "/rematch").json()["rule"] == "not-finished"
        table = client.app.state.hub.tables[data["id"]]  # type: ignore[attr-defined]
        with client.websocket_connect(url + "/ws") as ws:  # seat 1: a stand-in after 30 s
            first = hello(ws)
            assert first["presence"][3]["open"] and not first["presence"][3]["bot_playing"]
            # seat 3 was never claimed: nobody plays it, so claim it and let a bot stand in
            third = sibling(client)
            third.post(data["invites"][1]["url"], follow_redirects=False)
            wait_until(lambda: {1, 3} <= set(table.presence.grace_until),
                       what="the graces of seats 1 and 3")
            client.portal.call(clock.advance, 30)
            assert {1, 3} <= table.presence.standing_in
            play_until(ws, first, random.Random(6), lambda v: v["finished"])
            assert sibling(client).post(url + "/rematch").json()["rule"] == "not-seated"
            made = client.post(url + "/rematch")
            assert made.status_code == 200, made.text
            new_url = made.json()["url"]
            assert next_of(ws, "rematch")["url"] == new_url
        joined = guest.post(url + "/rematch").json()
        assert joined["url"] == new_url and joined["seat"] == 1
        with guest.websocket_connect(new_url + "/ws") as ws:
            state = hello(ws)
            assert state["you"] == 1 and state["table"]["overrides"] == {"threshold": 1}
            assert [(s["kind"], s["level"]) for s in state["table"]["seats"]] == [
                ("human", None), ("human", None), ("bot", "random"), ("human", None)]
        with client.websocket_connect(new_url + "/ws") as ws:
            assert hello(ws)["you"] == 0
        with client.websocket_connect(url + "/ws") as ws:
            assert hello(ws)["table"]["rematch"] == new_url


def test_a_paused_table_leaves_the_lobby_list(client: TestClient) -> None:
    """Nobody at a public table after the grace: it pauses, and the lobby no longer
    lists it (its people find it among their unfinished tables)."""
    r = client.post("/api/tables", json={"preset": "polignac", "seats": [
        {"kind": "you"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"},
        {"kind": "bot", "level": "random"}]}, headers={"origin": "http://testserver"})
    table_id = r.json()["id"]
    listed = [t["id"] for t in client.get("/api/tables").json()["tables"]]
    assert table_id in listed
    client.app.state.hub.tables[table_id].paused = True  # type: ignore[attr-defined]
    listed = [t["id"] for t in client.get("/api/tables").json()["tables"]]
    assert table_id not in listed
