"""The web app over HTTP and the WebSocket: play, errors, bad input."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from polignac.core import replay
from polignac.server import ServerConfig, create_app

from .helpers import hello, next_non_event, play_now, play_until, sibling


def test_lobby_and_table_pages(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "Play now" in r.text
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert client.get("/static/table.js").status_code == 200
    assert client.get("/tables/nope").status_code == 404
    presets = client.get("/api/presets").json()
    assert "polignac" in [p["name"] for p in presets["presets"]]


def test_play_now_creates_a_table_with_a_seat_cookie(client: TestClient) -> None:
    r = client.post("/api/play-now")
    assert r.status_code == 200
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    token = re.search(r"=\d+\.([^;]+);", cookie)
    assert token and len(token.group(1)) >= 43  # 256 bits, base64url
    with client.websocket_connect(r.json()["url"] + "/ws") as ws:
        state = hello(ws)
        assert state["you"] == 0
        assert [s["kind"] for s in state["table"]["seats"]] == ["human", "bot", "bot", "bot"]
        assert state["view"]["preset"] == "polignac"
        assert len(state["view"]["deal"]["hand"]) == 8


def test_a_whole_match_against_bots(client: TestClient) -> None:
    url = play_now(client)
    with client.websocket_connect(url + "/ws") as ws:
        _seq, view = play_until(ws, hello(ws), random.Random(1), lambda v: v["finished"])
        assert view["winners"] and view["losers"]
        assert max(view["totals"]) >= 20
    record = client.get(url + "/record.json").json()
    assert replay(record).totals == tuple(view["totals"])
    assert len(record["deals"]) == len(view["deals"])


def test_illegal_action_gets_an_error_and_changes_nothing(client: TestClient) -> None:
    url = play_now(client)
    with client.websocket_connect(url + "/ws") as ws:
        state = hello(ws)
        seq, view = play_until(ws, state, random.Random(2),
                               lambda v: bool(v.get("deal", {}).get("legal"))
                               and v["deal"]["phase"] == "play" and v["deal"]["trick"]["cards"])
        deal = view["deal"]
        wrong = [c for c in deal["hand"] if c not in deal["legal"]]
        not_mine = next(c for c in ("JS", "QS", "KS", "AS", "7C") if c not in deal["hand"])
        tries = [(not_mine, "card-not-in-hand"), ("capot", None), ("XX", "unknown-action")]
        for action, rule in tries:
            ws.send_json({"type": "act", "action": action, "seq": seq})
            err = ws.receive_json()
            assert err["type"] == "error" and err["seq"] == seq
            if rule:
                assert err["rule"] == rule, err
            assert "player" not in err["message"] or action == "capot"  # no hidden cards
        if wrong:
            ws.send_json({"type": "act", "action": wrong[0], "seq": seq})
            err = ws.receive_json()
            assert err["rule"] == "must-follow-suit"
        ws.send_json({"type": "act", "action": deal["legal"][0], "seq": seq - 1})
        assert ws.receive_json()["rule"] == "stale-seq"
        again = hello(ws, 0)
        assert again["seq"] == seq and again["view"] == view


@pytest.mark.parametrize("frame, rule", [
    ("{not json", "bad-json"),
    ("[1, 2]", "bad-json"),
    ('{"type": "dance"}', "unknown-type"),
    ('{"no_type": 1}', "unknown-type"),
    ('{"type": "hello", "last_seq": "x"}', "bad-field"),
    ('{"type": "act", "action": 5}', "bad-field"),
    ('{"type": "act", "action": "JS", "seq": "1"}', "bad-field"),
    ('{"type": "act", "action": "' + "J" * 100 + '"}', "bad-field"),
])
def test_bad_frames_get_error_frames(client: TestClient, frame: str, rule: str) -> None:
    url = play_now(client)
    with client.websocket_connect(url + "/ws") as ws:
        hello(ws)
        ws.send_text(frame)
        err = next_non_event(ws)
        assert err["type"] == "error" and err["rule"] == rule
        ws.send_json({"type": "ping"})  # the connection still works
        assert next_non_event(ws)["type"] == "pong"


def test_act_before_hello_and_binary_frames(client: TestClient) -> None:
    url = play_now(client)
    with client.websocket_connect(url + "/ws") as ws:
        ws.send_json({"type": "act", "action": "pass"})
        assert next_non_event(ws)["rule"] == "hello-first"
        ws.send_bytes(b"\x00\x01")
        assert next_non_event(ws)["rule"] == "bad-frame"


def test_oversize_frame_closes_the_connection(client: TestClient) -> None:
    url = play_now(client)
    with client.websocket_connect(url + "/ws") as ws:
        hello(ws)
        ws.send_text(json.dumps({"type": "act", "action": "x" * (65 * 1024)}))
        assert next_non_event(ws)["rule"] == "too-large"
        with pytest.raises(WebSocketDisconnect):
            next_non_event(ws)


def test_rate_limit(config: ServerConfig) -> None:
    from dataclasses import replace

    slow = replace(config, rate_per_second=1, rate_burst=3)
    with TestClient(create_app(slow)) as client:
        url = play_now(client)
        with client.websocket_connect(url + "/ws") as ws:
            hello(ws)
            rules = []
            for _ in range(5):
                ws.send_json({"type": "ping"})
                rules.append(next_non_event(ws).get("rule"))
            assert "rate-limit" in rules


def test_bad_tokens_and_foreign_origin_are_refused(client: TestClient) -> None:
    url = play_now(client)
    table_id = url.rsplit("/", 1)[1]
    good = client.cookies.get(f"polignac_{table_id}")
    assert good
    with client.websocket_connect(url + "/ws", headers={"origin": "http://testserver"}) as ws:
        hello(ws)
    evil = {"origin": "https://evil.example"}
    with pytest.raises(WebSocketDisconnect) as exc, \
            client.websocket_connect(url + "/ws", headers=evil):
        pass
    assert exc.value.code == 4403
    assert client.post("/api/play-now", headers={"origin": "https://evil.example"}
                       ).status_code == 403
    for bad in ("0." + "A" * 43, "1." + good.split(".", 1)[1], "garbage", "99." + "x" * 43):
        client.cookies.set(f"polignac_{table_id}", bad)
        with pytest.raises(WebSocketDisconnect) as exc, client.websocket_connect(url + "/ws"):
            pass
        assert exc.value.code == 4401
    with pytest.raises(WebSocketDisconnect) as exc, client.websocket_connect("/tables/nope/ws"):
        pass
    assert exc.value.code == 4404
    client.cookies.clear()  # no cookie at all: a spectator, who may not act
    with client.websocket_connect(url + "/ws") as ws:
        assert hello(ws)["you"] is None
        ws.send_json({"type": "act", "action": "pass"})
        assert next_non_event(ws)["rule"] == "spectator"


def test_invite_link_is_exchanged_for_a_cookie_once(client: TestClient) -> None:
    r = client.post("/api/tables", json={
        "preset": "slobberhannes", "players": 4, "name": "Ann",
        "seats": [{"kind": "you"}, {"kind": "open"}, {"kind": "bot", "level": "random"},
                  {"kind": "bot", "level": "easy"}],
        "overrides": {"threshold": 5},
    })
    assert r.status_code == 200, r.text
    data = r.json()
    invite = data["invites"][0]["url"]
    assert data["invites"][0]["seat"] == 1
    guest = sibling(client)
    page = guest.get(invite, follow_redirects=False)  # first a page to choose a name
    assert page.status_code == 200 and 'name="name"' in page.text and "Ann" in page.text
    r = guest.post(invite, json={"name": "Bea"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == data["url"]
    assert "token" not in r.headers["location"] and "HttpOnly" in r.headers["set-cookie"]
    with guest.websocket_connect(data["url"] + "/ws") as ws:
        state = hello(ws)
        assert state["you"] == 1 and state["view"]["preset"] == "slobberhannes"
        assert state["table"]["overrides"] == {"threshold": 5}
        assert not state["table"]["seats"][1]["open"]
    third = sibling(client)
    used = third.get(invite, follow_redirects=False, headers={"accept": "text/html"})
    assert used.status_code == 403 and used.headers["content-type"].startswith("text/html")
    assert "already used" in used.text
    assert third.post(invite, json={"name": "Cy"}, follow_redirects=False).status_code == 403


@pytest.mark.parametrize("body", [
    {"preset": "nope", "seats": [{"kind": "you"}]},
    {"preset": "polignac", "players": 4, "seats": [{"kind": "you"}]},
    {"preset": "polignac", "players": 2, "seats": [{"kind": "you"}, {"kind": "bot"}]},
    {"preset": "polignac", "players": 3,
     "seats": [{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]},
    {"preset": "polignac", "players": 3,
     "seats": [{"kind": "you"}, {"kind": "bot", "level": "god"}, {"kind": "bot"}]},
    {"preset": "polignac", "players": 3, "overrides": {"threshold": "x"},
     "seats": [{"kind": "you"}, {"kind": "bot"}, {"kind": "bot"}]},
    {"preset": "polignac", "players": "3", "seats": []},
    {"preset": 5},
])
def test_create_table_rejects_bad_input(client: TestClient, body: dict[str, object]) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400 and r.json()["rule"]
    assert client.post("/api/tables", content=b"{oops", headers={
        "content-type": "application/json"}).json()["rule"] == "bad-json"


def test_sqlite_connections_use_wal_and_full_sync(tmp_path: Path) -> None:
    from polignac.server.store.db import make_engine, migrate

    engine = make_engine(f"sqlite:///{tmp_path / 'x.db'}")
    migrate(engine)
    migrate(engine)  # idempotent
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        version = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
        assert version == "0023"
    engine.dispose()
