"""Who may join an arena (``web/tournament_routes.py``, ``events/store.py:join``): a
guest never (``arena-sign-in``, its message in the three languages), an account banned
from rated play (``players/conduct.py``) no rated arena (``play-ban``, until when)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import insert
from starlette.testclient import TestClient

from polignac.i18n import catalog
from polignac.server import ServerConfig, create_app
from polignac.server.base.clock import ManualClock
from polignac.server.jobs.botmoves import PoolBackend
from polignac.server.store.db import writing
from polignac.server.store.schema import abandons_t

from .helpers import sibling

ORIGIN = {"origin": "http://testserver"}
START = 1_700_000_000.0


@pytest.fixture
def app_client(config: ServerConfig, bot_backend: PoolBackend) -> Iterator[TestClient]:
    quick = replace(config, clock=ManualClock(START))
    with TestClient(create_app(quick, bot_backend), base_url="http://testserver") as c:
        yield c


def post(client: TestClient, url: str, body: dict[str, Any] | None = None) -> Any:
    return client.post(url, json=body or {}, headers=ORIGIN)


def account(client: TestClient, name: str) -> tuple[TestClient, int]:
    other = sibling(client)
    r = post(other, "/api/account/signup", {"username": name,
                                            "password": "correct horse battery"})
    assert r.status_code == 200, r.text
    return other, int(other.get("/api/account").json()["id"])


def arena(client: TestClient, rated: bool) -> str:
    r = post(client, "/api/tournaments", {
        "preset": "polignac", "seats": 4,
        "time_control": {"kind": "realtime", "base": 180, "increment": 2},
        "starts_at": START + 600, "minutes": 30, "rated": rated, "bot_wait": 30})
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def test_a_guest_is_told_to_sign_in_to_join(app_client: TestClient) -> None:
    alice, _ = account(app_client, "Alice_9")
    for rated in (False, True):
        tid = arena(alice, rated)
        r = post(sibling(app_client), f"/api/tournaments/{tid}/join")
        assert r.status_code == 401
        assert r.json()["rule"] == "arena-sign-in"
        assert r.json()["error"].startswith("sign in to join")
        shown = app_client.get(f"/api/tournaments/{tid}").json()
        assert shown["me"] is None and shown["players"] == 0
    for lang in ("en", "fr", "de"):
        assert catalog(lang)["error.arena-sign-in"]


def test_an_account_banned_from_rated_play_joins_no_rated_arena(
        app_client: TestClient) -> None:
    alice, _ = account(app_client, "Alice_9")
    bob, bob_id = account(app_client, "Bob_9")
    rated, casual = arena(alice, True), arena(alice, False)
    hub = app_client.app.state.hub  # type: ignore[attr-defined]
    with writing(hub.store.engine) as conn:  # two rated matches left: banned 15 minutes
        for n in range(2):
            conn.execute(insert(abandons_t).values(account_id=bob_id, table_id=f"t{n}",
                                                   at=START - 60 + n))
    r = post(bob, f"/api/tournaments/{rated}/join")
    assert (r.status_code, r.json()["rule"]) == (403, "play-ban")
    assert r.json()["until"] == START - 59 + 15 * 60
    assert r.json()["when"] == "2023-11-14 22:27 UTC"
    assert app_client.get(f"/api/tournaments/{rated}").json()["players"] == 0
    assert post(bob, f"/api/tournaments/{casual}/join").json() == {"state": "joined"}
    assert post(alice, f"/api/tournaments/{rated}/join").json() == {"state": "joined"}
    for lang in ("en", "fr", "de"):
        assert "{when}" in catalog(lang)["error.play-ban"]
