"""Blocks between accounts (``players/blocks.py``, ``web/block_routes.py``): the
routes and their refusals, and each effect the server enforces: no seat at a table
where a blocker sits (the lobby's Sit, an invite link, asking for a bot's seat), no
quick messages between the two at a table, never grouped by Find players."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from starlette.testclient import TestClient

from polignac.server import ServerConfig, create_app
from polignac.server.jobs.botmoves import PoolBackend
from polignac.server.lobby.seeks import Group, Key, Seek, plan
from polignac.server.players import blocks
from polignac.server.web import block_routes

from .helpers import hello, next_of, sibling
from .test_accounts import account, post, signup
from .test_seeks import ask, seat_all, wait_for

OPEN_TABLE = {"preset": "polignac", "seats": [
    {"kind": "you"}, {"kind": "open"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}]}


def _block(client: TestClient, name: str, block: bool = True) -> Any:
    return post(client, "/api/blocks", {"name": name, "block": block})


def test_block_and_unblock(client: TestClient) -> None:
    signup(client, "Anna")
    account(client, "Bert")
    assert client.get("/api/blocks").json() == {"blocks": []}
    r = _block(client, "bert")  # any case: the answer names the account
    assert r.status_code == 200 and r.json() == {"name": "Bert", "blocked": True}
    assert _block(client, "Bert").json()["blocked"] is True  # twice: the same
    assert client.get("/api/blocks").json() == {"blocks": ["Bert"]}
    assert _block(client, "Bert", False).json() == {"name": "Bert", "blocked": False}
    assert client.get("/api/blocks").json() == {"blocks": []}


def test_block_refusals(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _block(client, "Bert").status_code == 401  # signed out
    assert client.get("/api/blocks").status_code == 401
    signup(client, "Anna")
    account(client, "Bert")
    account(client, "Cleo")
    r = _block(client, "Anna")
    assert r.status_code == 400 and r.json()["rule"] == "block-self"
    r = _block(client, "Nobody")
    assert r.status_code == 404 and r.json()["rule"] == "no-player"
    for body in ({"name": "Bert"}, {"name": "B" * 33, "block": True},
                 {"name": 3, "block": True}, {"name": "Bert", "block": "yes"}):
        r = post(client, "/api/blocks", body)
        assert r.status_code == 400 and r.json()["rule"] == "bad-field", body
    foreign = client.post("/api/blocks", json={"name": "Bert", "block": True},
                          headers={"origin": "https://evil.example"})
    assert foreign.status_code == 403
    assert client.get("/api/blocks").json() == {"blocks": []}
    monkeypatch.setattr(blocks, "MAX_BLOCKS", 1)
    assert _block(client, "Bert").status_code == 200
    r = _block(client, "Cleo")
    assert r.status_code == 409 and r.json()["rule"] == "too-many-blocks"
    assert client.get("/api/blocks").json() == {"blocks": ["Bert"]}


def test_block_changes_are_rate_limited(client: TestClient,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(block_routes, "BLOCKS_PER_MINUTE", 3)
    signup(client, "Anna")
    account(client, "Bert")
    codes = [_block(client, "Bert", i % 2 == 0).status_code for i in range(4)]
    assert codes == [200, 200, 200, 429]
    r = _block(client, "Bert")
    assert r.json()["rule"] == "block-rate" and int(r.headers["retry-after"]) >= 1


def test_a_blocked_account_cannot_sit_where_its_blocker_sits(client: TestClient) -> None:
    signup(client, "Anna")
    url = post(client, "/api/tables", OPEN_TABLE).json()["url"]
    bert, cleo = account(client, "Bert"), account(client, "Cleo")
    assert _block(client, "Bert").status_code == 200
    r = post(bert, f"{url}/seats/1/sit", {"name": "x"})
    assert r.status_code == 403 and r.json()["rule"] == "blocked"
    r = post(bert, f"{url}/seats/3/take", {"name": "x"})  # a bot's seat: asked for
    assert r.status_code == 403 and r.json()["rule"] == "blocked"
    assert post(cleo, f"{url}/seats/1/sit", {}).status_code == 200
    # unblocked: Bert sits
    assert _block(client, "Bert", False).status_code == 200
    assert post(bert, f"{url}/seats/2/sit", {}).status_code == 200


def test_the_blocker_may_join_the_blocked_ones_table(client: TestClient) -> None:
    signup(client, "Anna")
    bert = account(client, "Bert")
    assert _block(client, "Bert").status_code == 200
    url = post(bert, "/api/tables", OPEN_TABLE).json()["url"]
    assert post(client, f"{url}/seats/1/sit", {}).status_code == 200


def test_an_invite_link_is_refused_to_a_blocked_account(client: TestClient) -> None:
    signup(client, "Anna")
    made = post(client, "/api/tables", {**OPEN_TABLE, "private": True}).json()
    link = next(i["url"] for i in made["invites"] if i["seat"] == 1)
    bert = account(client, "Bert")
    assert _block(client, "Bert").status_code == 200
    r = bert.post(link, json={"name": "x"}, headers={"origin": "http://testserver"},
                  follow_redirects=False)
    assert r.status_code == 403 and "blocked" in r.text
    guest = sibling(client)  # the link still works for anyone else
    r = guest.post(link, json={"name": "Gus"}, follow_redirects=False)
    assert r.status_code == 303


def test_quick_messages_do_not_pass_between_blocked_accounts(client: TestClient) -> None:
    signup(client, "Anna")
    url = post(client, "/api/tables", OPEN_TABLE).json()["url"]
    bert, cleo = account(client, "Bert"), account(client, "Cleo")
    assert post(bert, f"{url}/seats/1/sit", {}).status_code == 200
    assert post(cleo, f"{url}/seats/2/sit", {}).status_code == 200
    assert _block(client, "Bert").status_code == 200  # after Bert sat
    with client.websocket_connect(url + "/ws") as anna, \
            bert.websocket_connect(url + "/ws") as bws, \
            cleo.websocket_connect(url + "/ws") as cws:
        for ws in (anna, bws, cws):
            hello(ws)
        anna.send_json({"type": "say", "message": "hello"})
        assert next_of(cws, "chat") == {"type": "chat", "seat": 0, "message": "hello"}
        bws.send_json({"type": "say", "message": "oops"})
        assert next_of(cws, "chat") == {"type": "chat", "seat": 1, "message": "oops"}
        cws.send_json({"type": "say", "message": "thanks"})
        # each of the two hears itself and Cleo, never the other
        assert [next_of(bws, "chat")["seat"] for _ in range(2)] == [1, 2]
        assert [next_of(anna, "chat")["seat"] for _ in range(2)] == [0, 2]


def test_a_blocked_account_watching_does_not_hear_the_blocker(client: TestClient) -> None:
    """Anna blocked Dora; Dora, signed in, watches Anna's public table: she hears Cleo's
    quick messages but not Anna's (a spectator never speaks).  A guest watching hears
    everyone."""
    signup(client, "Anna")
    url = post(client, "/api/tables", OPEN_TABLE).json()["url"]
    cleo, dora = account(client, "Cleo"), account(client, "Dora")
    guest = sibling(client)
    assert post(cleo, f"{url}/seats/1/sit", {}).status_code == 200
    assert _block(client, "Dora").status_code == 200
    with client.websocket_connect(url + "/ws") as anna, \
            cleo.websocket_connect(url + "/ws") as cws, \
            dora.websocket_connect(url + "/ws") as dws, \
            guest.websocket_connect(url + "/ws") as gws:
        for ws in (anna, cws, dws, gws):
            hello(ws)
        anna.send_json({"type": "say", "message": "hello"})
        assert next_of(gws, "chat")["seat"] == 0  # Anna's is out, to those who hear it
        cws.send_json({"type": "say", "message": "thanks"})
        assert next_of(gws, "chat")["seat"] == 1
        assert next_of(dws, "chat")["seat"] == 1  # Dora's first is Cleo's: Anna's never came
        assert [next_of(anna, "chat")["seat"] for _ in range(2)] == [0, 1]


TWO: Key = ("polignac", 2, False, None, None)  # hypothetical two-seat key: plan is pure


def _seek(i: str, at: float, account: int | None, bots: int | None = None) -> Seek:
    return Seek(i, TWO, at, bots, "easy", account)


def test_find_players_never_groups_two_accounts_apart() -> None:
    seekers = [_seek("A", 0.0, 1), _seek("B", 1.0, 2), _seek("C", 2.0, 3)]
    assert plan(seekers, 10.0) == [Group(TWO, ("A", "B"), 0, "easy")]
    # A (account 1) blocked B (account 2): A goes with C, B waits
    assert plan(seekers, 10.0, {frozenset((1, 2))}) == [Group(TWO, ("A", "C"), 0, "easy")]
    # a guest (no account) goes with anyone
    guest = [_seek("A", 0.0, 1), _seek("B", 1.0, 2), _seek("G", 2.0, None)]
    assert plan(guest, 10.0, {frozenset((2, 1))}) == [Group(TWO, ("A", "G"), 0, "easy")]
    # the oldest fits nobody: the next ones still make a table
    four = [_seek("A", 0.0, 1), _seek("B", 1.0, 2), _seek("C", 2.0, 3), _seek("D", 3.0, 4)]
    apart = {frozenset((1, 2)), frozenset((1, 3)), frozenset((1, 4))}
    assert plan(four, 10.0, apart) == [Group(TWO, ("B", "C"), 0, "easy")]
    # bots never seat the two together either: the oldest gets a bot when due
    lone = [_seek("A", 0.0, 1, 30), _seek("B", 1.0, 2, 30)]
    assert plan(lone, 10.0, {frozenset((1, 2))}) == []
    assert plan(lone, 100.0, {frozenset((1, 2))}) == [Group(TWO, ("A",), 1, "easy")]


@pytest.fixture
def lobby(config: ServerConfig, bot_backend: PoolBackend) -> Iterator[TestClient]:
    fast = replace(config, seek_tick=0.05, seek_countdown=0.3)
    with TestClient(create_app(fast, bot_backend), base_url="http://testserver") as c:
        yield c


def test_the_matchmaker_seats_the_others_and_keeps_the_blocked_one_waiting(
        lobby: TestClient) -> None:
    signup(lobby, "Anna")
    bert, cleo, dora = (account(lobby, n) for n in ("Bert", "Cleo", "Dora"))
    assert _block(lobby, "Bert").status_code == 200
    for person in (lobby, bert, cleo, dora):  # Anna asks first, then Bert
        ask(person)
    urls = seat_all([lobby, cleo, dora])
    assert len(set(urls)) == 1
    assert wait_for(lambda: bert.get("/api/seeks").json()["mine"])["state"] == "waiting"


def test_an_arena_keeps_blocked_accounts_apart_as_a_rematch(client: TestClient) -> None:
    from polignac.server.events.runner import _waiting
    from polignac.server.store.db import writing

    signup(client, "Anna")
    bert, cleo = account(client, "Bert"), account(client, "Cleo")
    hub = client.app.state.hub  # type: ignore[attr-defined]
    now = hub.clock.time()
    tid = post(client, "/api/tournaments", {
        "preset": "polignac", "seats": 4, "starts_at": now, "minutes": 10, "rated": False,
        "time_control": {"kind": "realtime", "base": 180, "increment": 2},
        "bot_wait": 10}).json()["id"]
    for person in (client, bert, cleo):
        assert post(person, f"/api/tournaments/{tid}/join").status_code == 200
    assert post(bert, "/api/blocks", {"name": "Anna", "block": True}).status_code == 200
    with writing(hub.store.engine) as conn:
        found = _waiting(conn, tid, now + 1)
    assert found is not None
    last = {w.id: w.last for w in found[1]}
    names = {name: i for i, name in found[2].items()}
    assert last[names["Anna"]] == {names["Bert"]} and last[names["Bert"]] == {names["Anna"]}
    assert last[names["Cleo"]] == frozenset()


def test_a_lost_race_on_a_key_is_run_once_more(tmp_path: Any) -> None:
    """Two blocks (or invitations) of one pair at once: the second insert's conflict
    runs the transaction again, which finds the row (``db.py:transact_once_more``)."""
    import asyncio

    from sqlalchemy import create_engine
    from sqlalchemy.exc import IntegrityError

    from polignac.server.base.clock import ManualClock
    from polignac.server.store.db import transact_once_more

    engine = create_engine(f"sqlite:///{tmp_path}/race.db")
    calls: list[float] = []

    def fn(conn: Any, now: float) -> str:
        calls.append(now)
        if len(calls) == 1:
            raise IntegrityError("INSERT", {}, Exception("UNIQUE constraint failed"))
        return "found"

    assert asyncio.run(transact_once_more(engine, ManualClock(5.0), fn)) == "found"
    assert calls == [5.0, 5.0]

    def always(conn: Any, now: float) -> str:
        raise IntegrityError("INSERT", {}, Exception("UNIQUE constraint failed"))

    with pytest.raises(IntegrityError):
        asyncio.run(transact_once_more(engine, ManualClock(5.0), always))
