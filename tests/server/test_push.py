"""Web Push (``players/push.py``, ``web/push_routes.py``): a browser subscribes for its
account; when it becomes that account's move at a correspondence table, or a table it
waits for starts, while the person is away, a push reaches the local receiver
(``push_receiver.py``: VAPID checked, body decrypted as a browser does); bad
subscriptions are refused, a withdrawn one is forgotten."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from starlette.testclient import TestClient

from polignac.server import ServerConfig, create_app
from polignac.server.jobs.botmoves import PoolBackend
from polignac.server.players import push

from . import push_receiver
from .helpers import hello, move_and_wait_for_my_turn, sibling
from .test_accounts import post, signup
from .waiting import wait_until

DAYS = {"kind": "days", "days": 1}


@pytest.fixture
def local(config: ServerConfig, bot_backend: PoolBackend) -> Iterator[TestClient]:
    """An app that may push to a receiver on loopback."""
    app = create_app(replace(config, push_local_endpoints=True), bot_backend)
    with TestClient(app, base_url="http://testserver") as c:
        yield c


@pytest.fixture
def receiver() -> Iterator[push_receiver.Receiver]:
    with push_receiver.running() as r:
        yield r


def _subscribe(client: TestClient, receiver: push_receiver.Receiver, name: str = "browser",
               lang: str = "en") -> Any:
    r = post(client, "/api/push/subscribe", {"subscription": receiver.subscription(name),
                                             "lang": lang})
    assert r.status_code == 200, r.text
    return r.json()


def test_your_move_at_a_correspondence_table_is_pushed(
        local: TestClient, receiver: push_receiver.Receiver) -> None:
    signup(local, "Anna")
    assert _subscribe(local, receiver, lang="fr") == {"subscriptions": 1}
    key = local.get("/api/push/key").json()["key"]
    r = post(local, "/api/tables", {"time_control": DAYS, "seats": [
        {"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3})
    url = r.json()["url"]
    # nobody at the table: the deal, the bots at once, then Anna's clock starts: a push
    got = receiver.next()
    assert got.vapid_key == key and got.claims["sub"] == "mailto:polignac@localhost"
    assert got.message["kind"] == "turn" and got.message["url"] == url
    assert got.message["title"] == "À vous de jouer"
    assert got.message["body"].startswith("Polignac")
    assert got.headers["urgency"] == "high" and int(got.headers["ttl"]) == 24 * 3600
    assert not receiver.refused
    hub = local.app.state.hub  # type: ignore[attr-defined]
    wait_until(lambda: hub.push.sent == 1 and hub.push.pending == 0)
    # at the table (the page open), her turns come to the page, not as pushes
    with local.websocket_connect(url + "/ws") as ws:
        move_and_wait_for_my_turn(ws, hello(ws))
    wait_until(lambda: hub.push.pending == 0)
    assert hub.push.sent == 1 and receiver.pushes.empty()


def test_a_table_you_wait_for_starts(local: TestClient,
                                     receiver: push_receiver.Receiver) -> None:
    signup(local, "Anna")
    _subscribe(local, receiver)
    r = post(local, "/api/tables", {"seats": [{"kind": "you"}, {"kind": "open"}] + [
        {"kind": "bot", "level": "random"}] * 2})
    url = r.json()["url"]
    assert receiver.pushes.empty()
    bea = sibling(local)
    assert bea.post(url + "/seats/1/sit", json={"name": "Bea"}).status_code == 200
    got = receiver.next()
    assert got.message["kind"] == "started" and got.message["url"] == url
    assert got.message["title"] == "Your table has started"


def test_a_withdrawn_subscription_is_forgotten(local: TestClient,
                                               receiver: push_receiver.Receiver) -> None:
    signup(local, "Anna")
    _subscribe(local, receiver, "gone")
    assert len(local.get("/api/push/subscriptions").json()["subscriptions"]) == 1
    post(local, "/api/tables", {"time_control": DAYS, "seats": [
        {"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3})
    hub = local.app.state.hub  # type: ignore[attr-defined]
    wait_until(lambda: hub.push.failed == 1 and hub.push.pending == 0)
    assert local.get("/api/push/subscriptions").json()["subscriptions"] == []


def test_subscriptions_are_bounded_and_can_be_turned_off(
        local: TestClient, receiver: push_receiver.Receiver) -> None:
    assert post(local, "/api/push/subscribe", {
        "subscription": receiver.subscription()}).status_code == 401
    signup(local, "Anna")
    for i in range(push.MAX_SUBSCRIPTIONS + 2):
        count = _subscribe(local, receiver, f"b{i}")["subscriptions"]
    assert count == push.MAX_SUBSCRIPTIONS
    listed = local.get("/api/push/subscriptions").json()["subscriptions"]
    assert [s["endpoint"].rsplit("/", 1)[1] for s in listed][:2] == ["b11", "b10"]
    assert listed[0]["service"] == "127.0.0.1" and listed[0]["lang"] == "en"
    gone = post(local, "/api/push/unsubscribe", {"endpoint": listed[0]["endpoint"]})
    assert gone.json() == {"removed": True}
    again = post(local, "/api/push/unsubscribe", {"endpoint": listed[0]["endpoint"]})
    assert again.json() == {"removed": False}
    assert len(local.get("/api/push/subscriptions").json()["subscriptions"]) == 9


@pytest.mark.parametrize("endpoint", [
    "http://push.example.com/x",  # not https
    "https://10.1.2.3/x", "https://192.168.0.1/x", "https://[::1]/x", "https://127.0.0.1/x",
    "https://169.254.169.254/latest", "https://localhost/x", "https://router.local/x",
    "https://intranet/x", "https://user:pw@push.example.com/x", "ftp://push.example.com/x",
    "https://push.example.com:99999/x", "https:///x", "https://" + "a" * 1100 + ".com/",
    "", 7, None,
])
def test_an_endpoint_the_server_must_not_post_to_is_refused(client: TestClient,
                                                            endpoint: Any) -> None:
    signup(client, "Anna")
    sub = push_receiver.Receiver().subscription()
    sub["endpoint"] = endpoint
    r = post(client, "/api/push/subscribe", {"subscription": sub})
    assert r.status_code == 400 and r.json()["rule"] == "bad-subscription", r.text
    assert client.get("/api/push/subscriptions").json()["subscriptions"] == []


@pytest.mark.parametrize("keys", [
    {}, {"p256dh": "x", "auth": "y"}, {"p256dh": "A" * 87, "auth": "A" * 22},
    {"p256dh": push_receiver.b64(b"\x04" + b"\x01" * 64), "auth": "A" * 22},  # off the curve
    {"p256dh": 5, "auth": []},
])
def test_bad_keys_are_refused(client: TestClient, keys: Any) -> None:
    signup(client, "Anna")
    sub = {"endpoint": "https://push.example.com/abc", "keys": keys}
    r = post(client, "/api/push/subscribe", {"subscription": sub})
    assert r.status_code == 400 and r.json()["rule"] == "bad-subscription", r.text


def test_a_public_endpoint_is_taken(client: TestClient) -> None:
    signup(client, "Anna")
    sub = push_receiver.Receiver().subscription()
    sub["endpoint"] = "https://fcm.googleapis.com/fcm/send/abc:def"
    r = post(client, "/api/push/subscribe", {"subscription": sub})
    assert r.json() == {"subscriptions": 1}


def test_the_vapid_key_is_the_sites_and_kept(config: ServerConfig,
                                             bot_backend: PoolBackend) -> None:
    keys = []
    for _ in range(2):  # a restart keeps it (it is in the database)
        with TestClient(create_app(config, bot_backend), base_url="http://testserver") as c:
            keys.append(c.get("/api/push/key").json()["key"])
    assert keys[0] == keys[1] and len(push_receiver.unb64(keys[0])) == 65


def test_the_service_worker_is_served_at_the_root(client: TestClient) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200 and "showNotification" in r.text
    assert r.headers["content-type"].startswith("text/javascript")
