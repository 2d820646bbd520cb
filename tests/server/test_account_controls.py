"""The account controls (issue 31, docs/server.md, "Accounts and sessions"): a passkey
is named after its browser, renamed (a bounded, trimmed, printable name) and removed by
its owner only, never the account's last way to sign in; the password changes with the
current one (counted by the sign-in's guessing limits), ending the other sessions; the
passkey ceremonies on an IP address say to open the site's name."""

from __future__ import annotations

import dataclasses
import os
from typing import Any

import pytest
from sqlalchemy import select, update
from starlette.testclient import TestClient

from polignac.server import ServerConfig, create_app
from polignac.server.base.clock import ManualClock
from polignac.server.jobs.botmoves import PoolBackend
from polignac.server.players import accounts
from polignac.server.store.schema import accounts_t, passkeys_t

from .helpers import sibling
from .test_accounts import PASSWORD, post, signup
from .test_passkeys import register

CHROME = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
          "Chrome/131.0.0.0 Safari/537.36")
NEW_PASSWORD = "a brand new secret"


def keys(client: TestClient) -> list[dict[str, Any]]:
    answer = client.get("/api/account/passkeys")
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["passkeys"]
    return found


def _engine(client: TestClient) -> Any:
    return client.app.state.hub.store.engine  # type: ignore[attr-defined]


def test_a_passkey_is_named_after_its_browser_and_renamed(client: TestClient) -> None:
    signup(client, "nina_keys")
    client.headers["user-agent"] = CHROME
    assert register(client).json() == {"passkeys": 1}
    [key] = keys(client)
    assert key["name"] == "Chrome 131 · Linux"
    r = post(client, "/api/account/passkeys/rename", {"id": key["id"], "name": "  Laptop 💻 "})
    assert r.status_code == 200, r.text
    assert r.json()["passkeys"][0]["name"] == "Laptop 💻"
    # Unicode: composed (NFC), joiners of an emoji sequence kept, 64 characters at most
    for name, stored in (("Cafe\u0301", "Café"), ("👩\u200d💻 work", "👩\u200d💻 work"),
                         ("é" * 64, "é" * 64), ("Schlüssel", "Schlüssel")):
        r = post(client, "/api/account/passkeys/rename", {"id": key["id"], "name": name})
        assert r.status_code == 200 and r.json()["passkeys"][0]["name"] == stored, name


@pytest.mark.parametrize("name", ["", "   ", "x" * 65, "e\u0301" * 65, "a\nb", "tab\there",
                                  "\u202eevil", "nul\x00", "\ue000private", 12, None, ["x"],
                                  "x" * 3000])
def test_a_bad_name_is_refused_and_changes_nothing(client: TestClient, name: Any) -> None:
    signup(client, "olga_keys")
    register(client)
    before = keys(client)
    r = post(client, "/api/account/passkeys/rename", {"id": before[0]["id"], "name": name})
    assert r.status_code == 400, r.text
    assert r.json()["rule"] == "bad-passkey-name"
    assert "1 to 64 characters" in r.json()["error"]
    assert keys(client) == before


def test_an_unknown_browser_leaves_the_name_empty(client: TestClient) -> None:
    """The test client's User-Agent names no browser: no name (the page shows the date)."""
    signup(client, "pia_keys")
    register(client)
    assert keys(client)[0]["name"] is None


def test_only_the_owner_renames_or_removes(client: TestClient) -> None:
    signup(client, "quinn_keys")
    register(client)
    theirs = keys(client)
    bob = sibling(client)
    signup(bob, "bob_other")
    register(bob)
    for url, body in (("/api/account/passkeys/rename", {"id": theirs[0]["id"], "name": "mine"}),
                      ("/api/account/passkeys/remove", {"id": theirs[0]["id"]})):
        r = post(bob, url, body)
        assert r.status_code == 404 and r.json()["rule"] == "no-passkey", r.text
        # signed out: 401; from another site: 403 (the body policy, before the route)
        stranger = sibling(client)
        assert post(stranger, url, body).status_code == 401
        r = client.post(url, json=body, headers={"origin": "http://evil.example"})
        assert r.status_code == 403 and r.json()["rule"] == "bad-origin"
    assert keys(client) == theirs
    for bad in ("zz", "A" * 17, "../../../../etc", 5, None, "%" * 16):
        r = post(client, "/api/account/passkeys/remove", {"id": bad})
        assert r.status_code == 400 and r.json()["rule"] == "bad-field", bad
    r = post(client, "/api/account/passkeys/remove", {"id": "A" * 16})
    assert r.status_code == 404 and r.json()["rule"] == "no-passkey"
    assert keys(client) == theirs


def test_a_passkey_is_removed_but_never_the_last_way_in(client: TestClient) -> None:
    me = signup(client, "rita_keys")
    first, second = os.urandom(16), os.urandom(16)
    register(client, first)
    register(client, second)
    listed = keys(client)
    r = post(client, "/api/account/passkeys/remove", {"id": listed[0]["id"]})
    assert r.status_code == 200 and r.json()["passkeys"] == listed[1:], r.text
    # with a password, the last passkey goes too
    register(client)
    engine = _engine(client)
    # an account without a password (none can be made yet: the rule holds for when it can)
    with engine.begin() as conn:
        conn.execute(update(accounts_t).where(accounts_t.c.id == me["id"])
                     .values(password_hash=None))
    listed = keys(client)
    assert len(listed) == 2
    assert post(client, "/api/account/passkeys/remove", {"id": listed[0]["id"]}).status_code \
        == 200
    r = post(client, "/api/account/passkeys/remove", {"id": listed[1]["id"]})
    assert r.status_code == 409 and r.json()["rule"] == "last-sign-in", r.text
    assert "only way to sign in" in r.json()["error"]
    assert keys(client) == listed[1:]
    with engine.connect() as conn:
        assert conn.execute(select(passkeys_t.c.credential_id)).all() != []


def test_the_password_changes_and_the_other_sessions_end(client: TestClient) -> None:
    signup(client, "sam_pw")
    others = [sibling(client) for _ in range(2)]
    for other in others:
        r = post(other, "/api/account/signin", {"username": "sam_pw", "password": PASSWORD})
        assert r.status_code == 200
    # the new password follows the sign-up's rules, checked first (no try counted)
    for bad in ("short", "x" * 257, 12345678, None):
        r = post(client, "/api/account/password", {"password": PASSWORD, "new_password": bad})
        assert r.status_code == 400 and r.json()["rule"] == "bad-password", bad
    r = post(client, "/api/account/password", {"password": PASSWORD,
                                               "new_password": NEW_PASSWORD})
    assert r.status_code == 200 and r.json() == {"changed": True, "ended": 2}, r.text
    assert client.get("/api/account").json()["username"] == "sam_pw"
    assert [s["current"] for s in client.get("/api/account/sessions").json()["sessions"]] \
        == [True]
    for other in others:
        assert other.get("/api/account").json() == {"signed_in": False}
    fresh = sibling(client)
    r = post(fresh, "/api/account/signin", {"username": "sam_pw", "password": PASSWORD})
    assert r.status_code == 401
    r = post(fresh, "/api/account/signin", {"username": "sam_pw", "password": NEW_PASSWORD})
    assert r.status_code == 200
    assert post(sibling(client), "/api/account/password",
                {"password": NEW_PASSWORD, "new_password": PASSWORD}).status_code == 401


def test_a_wrong_current_password_is_refused_and_throttled(client: TestClient) -> None:
    """Counted by the sign-in's limits: this browser (its device cookie) has 10 tries at
    once; then the change and the sign-in wait alike.  The limits' clock is held."""
    client.app.state.limits.clock = ManualClock()  # type: ignore[attr-defined]
    me = signup(client, "tess_pw")
    wrong = {"password": "not my password", "new_password": NEW_PASSWORD}
    answers = [post(client, "/api/account/password", wrong) for _ in range(11)]
    assert [a.status_code for a in answers] == [401] * 10 + [429]
    assert answers[0].json() == {"error": "wrong password", "rule": "wrong-password"}
    assert answers[10].json()["rule"] == "signin-rate"
    assert int(answers[10].headers["retry-after"]) >= 1
    r = post(client, "/api/account/password", {"password": PASSWORD,
                                               "new_password": NEW_PASSWORD})
    assert r.status_code == 429  # throttled, even with the right one
    r = post(client, "/api/account/signin", {"username": "tess_pw", "password": PASSWORD})
    assert r.status_code == 429  # the same bucket as the sign-in
    with _engine(client).connect() as conn:
        stored = conn.execute(select(accounts_t.c.password_hash).where(
            accounts_t.c.id == me["id"])).scalar_one()
    assert accounts.verify_password(stored, PASSWORD)  # unchanged
    assert client.get("/api/account").json()["signed_in"] is True


def test_the_password_change_needs_a_session(client: TestClient) -> None:
    body = {"password": PASSWORD, "new_password": NEW_PASSWORD}
    r = post(client, "/api/account/password", body)
    assert r.status_code == 401 and r.json()["rule"] == "signed-out"
    signup(client, "uma_pw")
    r = client.post("/api/account/password", json=body, headers={"origin": "http://evil.example"})
    assert r.status_code == 403
    r = post(client, "/api/account/password", {"password": ["x"], "new_password": NEW_PASSWORD})
    assert r.status_code == 401 and r.json()["rule"] == "wrong-password"


@pytest.mark.parametrize(("host", "url"), [
    ("127.0.0.1:8123", "http://localhost:8123/account"),
    ("[::1]:8124", "http://localhost:8124/account"),
    ("127.0.0.2", "http://localhost/account"),
    ("192.168.1.20:8000", None),
])
def test_passkeys_on_an_ip_address_say_to_open_the_name(config: ServerConfig,
                                                        bot_backend: PoolBackend,
                                                        host: str, url: str | None) -> None:
    """A browser refuses passkeys on an IP address ("This is an invalid domain."): the
    server says so first, with the localhost address to open on loopback."""
    served = dataclasses.replace(config, allowed_hosts=("*",))
    with TestClient(create_app(served, bot_backend), base_url=f"http://{host}") as c:
        site = {"origin": f"http://{host}"}
        r = c.post("/api/account/passkeys/signin/options", json={}, headers=site)
        assert r.status_code == 400, r.text
        if url is None:
            assert r.json()["rule"] == "passkey-ip-address"
        else:
            assert r.json() == {"rule": "passkey-needs-name", "url": url, "error":
                                f"passkeys need the site's name, not an IP address: open {url}"}
        r = c.post("/api/account/signup", json={"username": "ip_user", "password": PASSWORD},
                   headers=site)
        assert r.status_code == 200
        r = c.post("/api/account/passkeys/register/options", json={}, headers=site)
        assert r.status_code == 400
        assert r.json()["rule"] in ("passkey-needs-name", "passkey-ip-address")


def test_removals_at_once_keep_a_way_in(database_url: str) -> None:
    """An account without a password removes its two passkeys at once, on SQLite and on
    PostgreSQL: one removal passes, the other is ``409 last-sign-in``."""
    from concurrent.futures import ThreadPoolExecutor

    from polignac.server.players import passkeys
    from polignac.server.players.accounts import AccountError, AccountStore
    from polignac.server.store.db import make_engine, migrate

    engine = make_engine(database_url)
    try:
        migrate(engine)
        for round_ in range(5):
            account = AccountStore(engine).create(f"two_keys_{round_}", "x", None,
                                                 [f"AAAA-BBBB-{round_}"])
            with engine.begin() as conn:
                conn.execute(update(accounts_t).where(accounts_t.c.id == account.id)
                             .values(password_hash=None))
            for n in range(2):
                passkeys.add_passkey(engine, account.id, f"k{round_}-{n}-" + "A" * 20, "key", 0)
            ids = [k["id"] for k in passkeys.listed(engine, account.id)]

            def one(key_id: str, account_id: int = account.id) -> str:
                try:
                    passkeys.remove(engine, account_id, key_id)
                except AccountError as exc:
                    return exc.rule
                return "ok"
            with ThreadPoolExecutor(2) as pool:
                answers = sorted(pool.map(one, ids))
            assert answers == ["last-sign-in", "ok"]
            assert len(passkeys.listed(engine, account.id)) == 1
    finally:
        engine.dispose()
