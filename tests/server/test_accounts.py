"""Accounts and sessions (docs/server.md, "Accounts and sessions"): sign-up, sign-in,
rotation, expiry of sessions, rate limits, CSRF guards, recovery, export, deletion;
a guest's finished games becoming the account's."""

from __future__ import annotations

import logging
import random
import time
from typing import Any

import pytest
from sqlalchemy import update
from starlette.testclient import TestClient

from polignac.server.players import accounts
from polignac.server.players.accounts import check_username

from .helpers import hello, play_until, sibling
from .waiting import wait_until

ORIGIN = {"origin": "http://testserver"}
PASSWORD = "correct horse battery"


def post(client: TestClient, url: str, body: dict[str, Any] | None = None, **kw: Any) -> Any:
    """A POST from the site's own page (Origin and JSON)."""
    return client.post(url, json=body or {}, headers=ORIGIN, **kw)


def signup(client: TestClient, name: str = "Alice_1", password: str = PASSWORD) -> Any:
    r = post(client, "/api/account/signup", {"username": name, "password": password})
    assert r.status_code == 200, r.text
    return r.json()


def account(client: TestClient, name: str) -> TestClient:
    """Another browser on ``client``'s app (``helpers.sibling``), signed up as ``name``."""
    other = sibling(client)
    signup(other, name)
    return other


def finish_table(client: TestClient, rated: bool = False, seed: int = 1) -> str:
    """Create a table (you and three easy bots, threshold 1) and play it to its end."""
    r = post(client, "/api/tables", {
        "preset": "polignac", "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * 3,
        "overrides": {"threshold": 1}, "rated": rated})
    assert r.status_code == 200, r.text
    table_id = r.json()["id"]
    with client.websocket_connect(f"/tables/{table_id}/ws") as ws:
        play_until(ws, hello(ws), random.Random(seed), lambda v: v["finished"])
    return str(table_id)


def wait_for(check: Any, timeout: float = 30.0) -> Any:
    return wait_until(check, timeout, what="the account's state", interval=0.02)


@pytest.mark.parametrize("name", ["ab", "a" * 21, "bad name", "é-accent", "", "x/y"])
def test_usernames_refused(name: str) -> None:
    with pytest.raises(accounts.AccountError) as err:
        check_username(name)
    assert err.value.rule == "bad-username"


@pytest.mark.parametrize("name", ["admin", "ADMIN", "Deleted", "polignac", "Hard"])
def test_reserved_usernames(name: str) -> None:
    with pytest.raises(accounts.AccountError) as err:
        check_username(name)
    assert err.value.rule == "reserved-username"


def test_password_hash_is_argon2id() -> None:
    h = accounts.hash_password(PASSWORD)
    assert h.startswith("$argon2id$")
    assert accounts.verify_password(h, PASSWORD)
    assert not accounts.verify_password(h, PASSWORD + "!")
    assert not accounts.verify_password(None, PASSWORD)


def test_signup_signin_signout(client: TestClient) -> None:
    assert client.get("/api/account").json() == {"signed_in": False}
    data = signup(client)
    assert data["username"] == "Alice_1" and len(data["recovery_codes"]) == 8
    assert len(set(data["recovery_codes"])) == 8
    first = client.cookies.get("polignac_session")
    assert first and client.get("/api/account").json()["username"] == "Alice_1"
    # unique ignoring case
    other = sibling(client)
    r = post(other, "/api/account/signup", {"username": "alice_1", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["rule"] == "username-taken"
    # sign out: the session ends, the browser gets a fresh guest identity
    ident = client.cookies.get("polignac_id")
    r = post(client, "/api/account/signout")
    assert r.status_code == 200
    assert client.get("/api/account").json() == {"signed_in": False}
    assert client.cookies.get("polignac_id") != ident
    # the old session token is worth nothing now
    stale = sibling(client)
    assert stale.get("/api/account", headers={"cookie": f"polignac_session={first}"}
                     ).json() == {"signed_in": False}
    # sign in (another case): a new session token
    r = post(client, "/api/account/signin", {"username": "ALICE_1", "password": PASSWORD})
    assert r.status_code == 200, r.text
    assert client.cookies.get("polignac_session") not in (None, first)
    assert client.get("/api/account").json()["username"] == "Alice_1"


def test_same_answer_for_unknown_name_and_wrong_password(client: TestClient,
                                                         caplog: pytest.LogCaptureFixture
                                                         ) -> None:
    signup(client, "bob")
    caplog.set_level(logging.DEBUG)
    other = sibling(client)
    wrong = post(other, "/api/account/signin", {"username": "bob", "password": "wrong-pass-1"})
    unknown = post(other, "/api/account/signin", {"username": "nobody12",
                                                  "password": "wrong-pass-1"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"error": "wrong username or password",
                                              "rule": "bad-credentials"}
    assert "wrong-pass-1" not in caplog.text and PASSWORD not in caplog.text
    assert other.cookies.get("polignac_session") is None


def test_signin_rate_limited_per_account(client: TestClient) -> None:
    """Per name and client network (tests/server/test_signin_limits.py for the rest)."""
    signup(client, "carol")
    answers = [post(sibling(client),
                    "/api/account/signin", {"username": "carol", "password": "nope-nope"}
                    ).status_code for _ in range(12)]
    assert answers[:10] == [401] * 10 and answers[10:] == [429, 429]
    # a new browser on this network waits now, even with the right password...
    r = post(sibling(client), "/api/account/signin", {"username": "carol",
                                                      "password": PASSWORD})
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    # ...the browser that signed up (its device cookie) does not
    r = post(client, "/api/account/signin", {"username": "carol", "password": PASSWORD})
    assert r.status_code == 200, r.text


def test_csrf_guards(client: TestClient) -> None:
    body = {"username": "dave1", "password": PASSWORD}
    r = client.post("/api/account/signup", json=body, headers={"origin": "http://evil.example"})
    assert r.status_code == 403 and r.json()["rule"] == "bad-origin"
    r = client.post("/api/account/signup", content="username=dave1&password=x" * 2,
                    headers={**ORIGIN, "content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415 and r.json()["rule"] == "not-json"
    assert client.get("/api/account").json() == {"signed_in": False}
    signup(client, "dave1")
    for url in ("/api/account/signout", "/api/account/delete", "/api/account/sessions/end"):
        r = client.post(url, json={"all": True}, headers={"origin": "http://evil.example"})
        assert r.status_code == 403, url
    assert client.get("/api/account").json()["signed_in"] is True


def test_bad_inputs(client: TestClient) -> None:
    for body in ({"username": "ok_name", "password": "short"},
                 {"username": "ok_name", "password": "x" * 300},
                 {"username": ["x"], "password": PASSWORD},
                 {"username": "ok_name", "password": 12345678}):
        r = post(client, "/api/account/signup", body)
        assert r.status_code == 400, body
    r = client.post("/api/account/signup", content=b"{" * 5000,
                    headers={**ORIGIN, "content-type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/account/signup", content=b"[" * 100 + b"]" * 100,
                    headers={**ORIGIN, "content-type": "application/json"})
    assert r.status_code == 400 and r.json()["rule"] == "too-deep"
    assert client.get("/api/players/nobody_here").status_code == 404
    assert client.get("/api/players/a%20b").status_code == 404
    signup(client, "erin")
    assert client.get("/api/players/erin?page=%C2%B2").status_code == 400
    r = post(client, "/api/account/sessions/end", {"id": "zz"})
    assert r.status_code == 400 and r.json()["rule"] == "bad-field"


def test_sessions_listed_and_ended(client: TestClient) -> None:
    signup(client, "frank")
    second = sibling(client)
    assert post(second, "/api/account/signin", {"username": "frank",
                                                "password": PASSWORD}).status_code == 200
    listed = client.get("/api/account/sessions").json()["sessions"]
    assert len(listed) == 2 and sum(s["current"] for s in listed) == 1
    for s in listed:  # the test client's header: no browser recognised, nothing made up
        assert s["agent"] == "testclient"
        assert s["device"] == {"browser": "", "os": "", "device": ""}
    other = next(s for s in listed if not s["current"])
    assert post(client, "/api/account/sessions/end", {"id": other["id"]}).json() == {"ended": 1}
    assert second.get("/api/account").json() == {"signed_in": False}
    assert client.get("/api/account").json()["signed_in"] is True
    assert post(client, "/api/account/sessions/end", {"all": True}).json() == {"ended": 1}
    assert client.get("/api/account").json() == {"signed_in": False}


def test_sessions_expire(client: TestClient) -> None:
    signup(client, "gina")
    engine = client.app.state.hub.store.engine
    with engine.begin() as conn:
        conn.execute(update(accounts.sessions_t).values(expires_at=time.time() - 1))
    assert client.get("/api/account").json() == {"signed_in": False}


def test_recovery_code(client: TestClient) -> None:
    codes = signup(client, "henri")["recovery_codes"]
    stranger = sibling(client)
    r = post(stranger, "/api/account/recover", {"username": "henri", "code": "AAAA-BBBB-CCCC-DDDD",
                                                "password": "new password 1"})
    assert r.status_code == 401
    r = post(stranger, "/api/account/recover", {"username": "henri", "code": codes[0].lower(),
                                                "password": "new password 1"})
    assert r.status_code == 200 and r.json()["codes_left"] == 7
    assert client.get("/api/account").json() == {"signed_in": False}  # every session ended
    r = post(stranger, "/api/account/recover", {"username": "henri", "code": codes[0],
                                                "password": "new password 2"})
    assert r.status_code == 401  # spent
    assert post(client, "/api/account/signin", {"username": "henri",
                                                "password": "new password 1"}).status_code == 200


def test_guest_games_become_the_accounts(client: TestClient) -> None:
    table_id = finish_table(client)
    wait_for(lambda: client.app.state.hub.tables[table_id].match.finished)
    signup(client, "ivy")
    data = wait_for(lambda: client.get("/api/players/ivy").json()["games"])
    assert data[0]["table"] == table_id and data[0]["replay"] == f"/tables/{table_id}/replay"
    profile = client.get("/api/players/ivy").json()
    assert profile["stats"]["polignac"]["matches"] == 1
    assert profile["stats"]["polignac"]["deals"] >= 1
    assert profile["own"] is True and profile["unfinished"] == []
    # someone else sees the games but not the unfinished tables
    assert "unfinished" not in sibling(client).get(
        "/api/players/ivy").json()


def test_signed_in_games_and_unfinished_tables(client: TestClient) -> None:
    signup(client, "jack_2")
    r = post(client, "/api/play-now", {})
    open_id = r.json()["id"]
    assert client.get("/api/players/jack_2").json()["unfinished"][0]["table"] == open_id
    # a browser signed in elsewhere: its own fresh identity is the account's too
    other = sibling(client)
    post(other, "/api/account/signin", {"username": "jack_2", "password": PASSWORD})
    finished = finish_table(other, seed=3)
    games = wait_for(lambda: client.get("/api/players/jack_2").json()["games"])
    assert [g["table"] for g in games] == [finished]


def test_export_and_delete(client: TestClient) -> None:
    signup(client, "kim")
    table_id = finish_table(client, rated=True)
    wait_for(lambda: client.get("/api/players/kim").json()["games"])
    r = client.get("/api/account/export")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    data = r.json()
    assert data["account"]["username"] == "kim"
    assert [g["table_id"] for g in data["games"]] == [table_id]
    assert "holder_hash" not in data["games"][0]
    assert data["ratings"]["trick-avoidance"]["matches"] == 1
    r = post(client, "/api/account/delete", {"password": "wrong password"})
    assert r.status_code == 401
    r = post(client, "/api/account/delete", {"password": PASSWORD})
    assert r.status_code == 200
    assert client.get("/api/account").json() == {"signed_in": False}
    assert client.get("/api/players/kim").status_code == 404
    record = client.get(f"/tables/{table_id}/record.json")
    assert record.status_code == 200
    # the name is free again; the old games stay with the deleted account
    signup(client, "kim")
    assert client.get("/api/players/kim").json()["games"] == []
    assert client.get("/api/leaderboard").json()["players"] == []


def _client_data(challenge: str, kind: str) -> str:
    import base64
    import json

    raw = json.dumps({"type": kind, "challenge": challenge,
                      "origin": "http://testserver"}).encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def test_passkey_answers_refused(client: TestClient) -> None:
    """Malformed, unknown, replayed or forged passkey answers are refused, nothing signs in
    (the real ceremony is in tests/browser/test_accounts.py, with Chromium's virtual
    authenticator)."""
    r = post(client, "/api/account/passkeys/signin", {"credential": "nope"})
    assert r.status_code == 400 and r.json()["rule"] == "bad-passkey"
    r = post(client, "/api/account/passkeys/register/options")
    assert r.status_code == 401  # signed out
    options = post(client, "/api/account/passkeys/signin/options").json()
    forged = {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": {
        "clientDataJSON": _client_data(options["challenge"], "webauthn.get"),
        "authenticatorData": "AAAA", "signature": "AAAA"}}
    r = post(client, "/api/account/passkeys/signin", {"credential": forged})
    assert r.status_code == 401 and r.json()["rule"] == "bad-passkey"
    r = post(client, "/api/account/passkeys/signin", {"credential": forged})  # spent
    assert r.status_code == 401
    signup(client, "passkey_user")
    options = post(client, "/api/account/passkeys/register/options").json()
    assert options["authenticatorSelection"]["residentKey"] == "required"
    bad = {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": {
        "clientDataJSON": _client_data(options["challenge"], "webauthn.create"),
        "attestationObject": "AAAA"}}
    r = post(client, "/api/account/passkeys/register", {"credential": bad})
    assert r.status_code == 400 and r.json()["rule"] == "bad-passkey"
    assert client.get("/api/account/passkeys").json() == {"passkeys": []}
    r = client.post("/api/account/passkeys/signin/options", json={},
                    headers={"origin": "http://evil.example"})
    assert r.status_code == 403
