"""Names that pass for someone else's (``players/names.py``, ``base/skeletons.py``,
``web/person_names.py``; docs/server.md, "Accounts and sessions"): a guest cannot
take an account's name, a reserved one, or one that looks like either (Unicode
skeletons, UTS #39); a signed-in person plays under the username; a sign-up like a
live account's name is refused; the frames mark guests and link accounts."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from polignac.server.base.skeletons import name_keys, skeleton
from polignac.server.players import accounts
from polignac.server.players.names import is_reserved

from .helpers import hello
from .test_accounts import PASSWORD, post
from .test_signin_limits import at

CYRILLIC_ALICE = "\u0430lice"  # a Cyrillic a, then Latin "lice"


def test_skeletons_are_unicodes() -> None:
    assert skeleton(CYRILLIC_ALICE) == skeleton("alice") == "alice"
    assert skeleton("\u0440\u0430\u0443\u0440\u0430l") == "paypal"  # Cyrillic р а у р а
    assert skeleton("\uff41\uff4c\uff49\uff43\uff45") == "alice"  # fullwidth
    assert skeleton("m") == skeleton("rn")  # a prototype of several characters
    assert skeleton("alice") != skeleton("alicia")


@pytest.mark.parametrize("a, b", [
    ("alice", "ALICE"), ("alice", CYRILLIC_ALICE), ("alice", "aIice"),  # capital I
    ("alice", "Al\u0131ce"), ("bob_1", "BOB_l")])
def test_names_alike_share_a_key(a: str, b: str) -> None:
    assert set(name_keys(a)) & set(name_keys(b))


@pytest.mark.parametrize("name", ["admin", "ADMIN", "\u0430dmin", "adrnin", "Guest", "Hard"])
def test_reserved_words_and_their_lookalikes(name: str) -> None:
    assert is_reserved(name)


@pytest.mark.parametrize("name", ["alicia", "Bob", "Guest 12", "Zo\u00eb", "administrators"])
def test_other_names_are_not_reserved(name: str) -> None:
    assert not is_reserved(name)


def test_a_username_like_a_reserved_word_is_refused() -> None:
    with pytest.raises(accounts.AccountError) as err:
        accounts.check_username("adrnin")
    assert err.value.rule == "reserved-username"


def _signed_up(client: TestClient, name: str = "alice") -> TestClient:
    """A browser (an address of its own) signed up as ``name``."""
    browser = at(client, "192.0.2.50")
    r = post(browser, "/api/account/signup", {"username": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return browser


def test_a_signup_like_a_live_account_is_refused(client: TestClient) -> None:
    _signed_up(client)
    for name, rule in (("ALICE", "username-taken"), ("aIice", "username-confusable"),
                       ("Al1ce", None)):
        r = post(at(client, "198.51.100.9"), "/api/account/signup",
                 {"username": name, "password": PASSWORD})
        if rule is None:
            assert r.status_code == 200, r.text  # 1 and i do not look alike
        else:
            assert r.status_code == 409 and r.json()["rule"] == rule, r.text


def test_a_deleted_accounts_name_is_free_again(client: TestClient) -> None:
    alice = _signed_up(client)
    r = post(alice, "/api/account/delete", {"password": PASSWORD})
    assert r.status_code == 200, r.text
    guest = at(client, "198.51.100.10")
    r = post(guest, "/api/tables", {"seats": _SEATS, "name": "Alice"})
    assert r.status_code == 200, r.text


_SEATS = [{"kind": "you"}, {"kind": "open"}, {"kind": "bot", "level": "easy"},
          {"kind": "bot", "level": "easy"}]


@pytest.mark.parametrize("name", ["alice", "ALICE", CYRILLIC_ALICE, "admin", "\u0430dmin"])
def test_a_guest_cannot_take_an_accounts_or_a_reserved_name(client: TestClient,
                                                            name: str) -> None:
    """Every way a guest names themself: create a table, Play now, the guided deal,
    an invite, asking for a bot's seat, Find players."""
    _signed_up(client)
    guest = at(client, "198.51.100.11")
    refused: list[Any] = [
        post(guest, "/api/tables", {"seats": _SEATS, "name": name}),
        post(guest, "/api/play-now", {"name": name}),
        post(guest, "/api/learn", {"name": name}),
        post(guest, "/api/seeks", {"preset": "polignac", "players": 3, "name": name}),
    ]
    r = post(at(client, "198.51.100.12"), "/api/tables", {"seats": _SEATS, "name": "Carol"})
    assert r.status_code == 200, r.text
    table, invite = r.json()["id"], r.json()["invites"][0]["url"]
    refused.append(post(guest, invite, {"name": name}, follow_redirects=False))
    assert guest.get(f"/tables/{table}").status_code == 200  # its identity cookie
    refused.append(post(guest, f"/tables/{table}/seats/2/take", {"name": name}))
    for r in refused:
        assert r.status_code == 409, (r.request.url, r.status_code, r.text[:200])
    for r in refused[:4]:
        assert r.json()["rule"] == "name-reserved"
    assert guest.get("/api/seeks").json()["seeks"] == []  # nothing stored
    assert post(guest, invite, {"name": "Bob"}, follow_redirects=False).status_code == 303


def test_names_are_marked_guest_or_linked_to_their_account(client: TestClient) -> None:
    """A signed-in person plays under the username (whatever the form said), linked
    to the profile; a guest's name is marked as a guest's, in the table's frames, the
    list of tables and Find players' list."""
    alice = _signed_up(client)
    r = post(alice, "/api/tables", {"seats": _SEATS, "name": "Someone else"})
    assert r.status_code == 200, r.text
    table, invite = r.json()["id"], r.json()["invites"][0]["url"]
    guest = at(client, "198.51.100.13")
    assert post(guest, invite, {"name": "Bob"}, follow_redirects=False).status_code == 303
    with alice.websocket_connect(f"/tables/{table}/ws") as ws:
        seats = hello(ws)["table"]["seats"]
    assert seats[0]["name"] == "alice" and seats[0]["profile"] == "/players/alice"
    assert "guest" not in seats[0]
    assert seats[1]["name"] == "Bob" and seats[1]["guest"] is True and "profile" not in seats[1]
    assert "guest" not in seats[2] and "profile" not in seats[2]  # a bot
    listed = next(t for t in client.get("/api/tables").json()["tables"] if t["id"] == table)
    assert listed["seats"][0]["profile"] == "/players/alice"
    assert listed["seats"][1]["guest"] is True
    r = post(alice, "/api/seeks", {"preset": "polignac", "players": 3, "name": "Mallory"})
    assert r.status_code == 200 and r.json()["seek"]["name"] == "alice", r.text
    assert post(guest, "/api/seeks", {"preset": "polignac", "players": 4,
                                      "name": "Bob"}).status_code == 200
    people = [p for g in guest.get("/api/seeks").json()["seeks"] for p in g["people"]]
    assert {"name": "alice", "profile": "/players/alice"} in people
    assert {"name": "Bob", "guest": True} in people


@pytest.mark.postgres
def test_two_confusable_sign_ups_at_once_on_postgresql_store_one(pg_server: Any) -> None:
    """``alice`` is being stored (its transaction open, the name checked and inserted)
    while ``аlice`` (Cyrillic a) signs up: the second waits for the first and is then
    refused as confusable.  Without the name-key lock both were stored: read committed
    let each check see no clash."""
    import threading

    from sqlalchemy import insert, select, text

    from polignac.server.players.names import account_like, lock_name_keys
    from polignac.server.store.db import make_engine, migrate, writing
    from polignac.server.store.schema import accounts_t

    from .waiting import wait_until

    engine = make_engine(pg_server.new_database())
    migrate(engine)
    store = accounts.AccountStore(engine)
    outcome: list[object] = []

    def second() -> None:
        try:
            outcome.append(store.create("\u0430lice", "x", None, ["AAAA-BBBB"]))
        except accounts.AccountError as exc:
            outcome.append(exc.rule)

    def second_waits() -> bool:
        with engine.connect() as watch:
            return bool(watch.execute(text(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database()")).scalar())

    worker = threading.Thread(target=second)
    try:
        with writing(engine) as conn:
            lock_name_keys(conn, "alice")
            assert account_like(conn, "alice") is None
            key, key2 = name_keys("alice")
            conn.execute(insert(accounts_t).values(
                username="alice", username_key="alice", password_hash="x", created_at=0.0,
                name_key=key, name_key2=key2))
            worker.start()
            wait_until(lambda: outcome or second_waits(), 60,
                       what="the second sign-up to finish or wait for the first")
    finally:
        worker.join(60)
    assert outcome == ["username-confusable"]
    with engine.connect() as conn:
        assert conn.execute(select(accounts_t.c.username)).scalars().all() == ["alice"]
    engine.dispose()
