"""Invitations between accounts (``players/invites.py``, ``web/invite_routes.py``): a
seated account invites another to its table's open seat; the invitee sees it, takes
the seat from its page, or declines it; it expires; a push reaches the invitee's
browser; every refusal, and a block that is not revealed to the inviter."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from starlette.testclient import TestClient

from polignac.server import ServerConfig, create_app
from polignac.server.base.clock import ManualClock
from polignac.server.jobs.botmoves import PoolBackend
from polignac.server.web import invite_routes

from . import push_receiver
from .helpers import hello, sibling
from .test_accounts import post, signup
from .waiting import wait_until

OPEN_TABLE = {"preset": "polignac", "seats": [
    {"kind": "you"}, {"kind": "open"}, {"kind": "bot", "level": "easy"},
    {"kind": "bot", "level": "easy"}]}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def app(config: ServerConfig, bot_backend: PoolBackend,
        clock: ManualClock) -> Iterator[TestClient]:
    """An app on a held clock that may push to a receiver on loopback."""
    made = create_app(replace(config, clock=clock, push_local_endpoints=True), bot_backend)
    with TestClient(made, base_url="http://testserver") as c:
        yield c


def _person(client: TestClient, name: str) -> TestClient:
    other = sibling(client)
    signup(other, name)
    return other


def _table(client: TestClient, body: dict[str, Any] = OPEN_TABLE) -> str:
    r = post(client, "/api/tables", body)
    assert r.status_code == 200, r.text
    return str(r.json()["url"])


def _invite(client: TestClient, url: str, name: str) -> Any:
    return post(client, f"{url}/invite", {"name": name})


def test_invite_then_take_the_seat(app: TestClient) -> None:
    signup(app, "Anna")
    url = _table(app, {**OPEN_TABLE, "private": True, "seats": [
        {"kind": "you"}, {"kind": "open"}, {"kind": "open"}, {"kind": "bot"}]})
    bert = _person(app, "Bert")
    r = _invite(app, url, "bert")
    assert r.status_code == 200, r.text
    assert r.json()["invited"] == "Bert"
    listed = bert.get("/api/invites").json()["invites"]
    assert [(i["from"], i["table"], i["preset"]) for i in listed] == [
        ("Anna", url.rsplit("/", 1)[1], "polignac")]
    assert app.get("/api/invites").json()["invites"] == []  # the inviter's list
    assert [t["url"] for t in app.get("/api/invites/tables").json()["tables"]] == [url]
    assert bert.get("/api/invites/tables").json() == {"tables": []}
    page = bert.get(listed[0]["url"])
    assert page.status_code == 200 and "Anna" in page.text and 'value="Bert"' in page.text
    assert sibling(app).get(listed[0]["url"]).status_code == 401  # signed out
    other = _person(app, "Cleo")  # another account: not hers
    assert other.get(listed[0]["url"]).status_code == 403
    took = post(bert, listed[0]["url"], {"name": "x"}, follow_redirects=False)
    assert took.status_code == 303 and took.headers["location"] == url
    with bert.websocket_connect(url + "/ws") as ws:
        state = hello(ws)
        assert state["you"] == 1 and state["table"]["seats"][1]["name"] == "Bert"
    assert bert.get("/api/invites").json()["invites"] == []  # spent
    r = _invite(app, url, "Bert")  # he sits there now
    assert r.status_code == 409 and r.json()["rule"] == "invitee-seated"
    assert [t["open"] for t in app.get("/api/invites/tables").json()["tables"]] == [1]


def test_invitation_refusals(app: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    url = _table(app)  # a guest's table
    bert = _person(app, "Bert")
    r = _invite(bert, url, "Anna")  # Bert is not seated there
    assert r.status_code == 403 and r.json()["rule"] == "not-seated"
    assert _invite(sibling(app), url, "Bert").status_code == 401  # signed out
    signup(app, "Anna")
    url = _table(app)
    for name, status, rule in (("Nobody", 404, "no-player"), ("Anna", 400, "invite-self"),
                               ("", 400, "bad-field"), ("x" * 33, 400, "bad-field")):
        r = _invite(app, url, name)
        assert (r.status_code, r.json()["rule"]) == (status, rule), name
    assert post(app, f"{url}/invite", {"name": 3}).json()["rule"] == "bad-field"
    assert app.post(f"{url}/invite", json={"name": "Bert"},
                    headers={"origin": "https://evil.example"}).status_code == 403
    full = _table(app, {**OPEN_TABLE, "seats": [{"kind": "you"}] + [
        {"kind": "bot", "level": "easy"}] * 3})
    r = _invite(app, full, "Bert")
    assert r.status_code == 409 and r.json()["rule"] == "no-open-seat"
    assert bert.get("/api/invites").json()["invites"] == []
    # one pending invitation per (inviter, invitee, table): again, the same answer
    first = _invite(app, url, "Bert").json()
    assert _invite(app, url, "Bert").json() == first
    assert len(bert.get("/api/invites").json()["invites"]) == 1
    # at most 10 a minute
    monkeypatch.setattr(invite_routes, "INVITES_PER_MINUTE", 2)
    del app.app.state.invite_limit  # type: ignore[attr-defined]
    codes = [_invite(app, url, "Bert").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    assert _invite(app, url, "Bert").json()["rule"] == "invite-rate"


def test_blocks_and_invitations(app: TestClient) -> None:
    signup(app, "Anna")
    url = _table(app)
    bert, cleo = _person(app, "Bert"), _person(app, "Cleo")
    # the inviter blocked the invitee: told so
    assert post(app, "/api/blocks", {"name": "Bert", "block": True}).status_code == 200
    r = _invite(app, url, "Bert")
    assert r.status_code == 409 and r.json()["rule"] == "you-blocked"
    # the invitee blocked the inviter: the same answer as one sent, and nothing sent
    assert post(cleo, "/api/blocks", {"name": "Anna", "block": True}).status_code == 200
    sent_to_blocker = _invite(app, url, "Cleo")
    assert sent_to_blocker.status_code == 200 and sent_to_blocker.json()["invited"] == "Cleo"
    assert cleo.get("/api/invites").json()["invites"] == []
    # a block removes the invitations waiting between the two
    assert post(app, "/api/blocks", {"name": "Bert", "block": False}).status_code == 200
    assert _invite(app, url, "Bert").status_code == 200
    link = bert.get("/api/invites").json()["invites"][0]["url"]
    assert post(bert, "/api/blocks", {"name": "Anna", "block": True}).status_code == 200
    assert bert.get("/api/invites").json()["invites"] == []
    assert post(bert, link, {}, follow_redirects=False).status_code == 403


def test_someone_seated_who_blocked_the_invitee(app: TestClient) -> None:
    signup(app, "Anna")
    url = _table(app, {**OPEN_TABLE, "seats": [{"kind": "you"}, {"kind": "open"},
                                               {"kind": "open"}, {"kind": "bot"}]})
    bert, cleo = _person(app, "Bert"), _person(app, "Cleo")
    assert post(cleo, f"{url}/seats/1/sit", {}).status_code == 200
    assert post(cleo, "/api/blocks", {"name": "Bert", "block": True}).status_code == 200
    assert _invite(app, url, "Bert").status_code == 200
    link = bert.get("/api/invites").json()["invites"][0]["url"]
    r = post(bert, link, {}, follow_redirects=False)
    assert r.status_code == 403 and "blocked" in r.text


def test_invitations_expire_and_may_be_declined(app: TestClient, clock: ManualClock) -> None:
    signup(app, "Anna")
    url = _table(app)
    bert = _person(app, "Bert")
    assert _invite(app, url, "Bert").status_code == 200
    invite = bert.get("/api/invites").json()["invites"][0]
    assert invite["expires_at"] == pytest.approx(clock.time() + 600)
    app.portal.call(clock.advance, 601)  # type: ignore[union-attr]
    assert bert.get("/api/invites").json()["invites"] == []
    assert bert.get(invite["url"]).status_code == 403
    assert _invite(app, url, "Bert").status_code == 200  # a new one (the old expired)
    fresh = bert.get("/api/invites").json()["invites"]
    assert len(fresh) == 1 and fresh[0]["id"] != invite["id"]
    assert post(bert, "/api/invites/decline", {"id": fresh[0]["id"]}).json() == {
        "declined": True}
    assert post(bert, "/api/invites/decline", {"id": fresh[0]["id"]}).json() == {
        "declined": False}
    assert post(bert, "/api/invites/decline", {"id": 5}).json()["rule"] == "bad-field"
    assert bert.get("/api/invites").json()["invites"] == []
    assert sibling(app).get("/api/invites").json()["invites"] == []  # a guest: none


def test_the_invitee_is_told_by_push(app: TestClient) -> None:
    signup(app, "Anna")
    url = _table(app)
    bert = _person(app, "Bert")
    with push_receiver.running() as receiver:
        r = post(bert, "/api/push/subscribe", {"subscription": receiver.subscription("b"),
                                               "lang": "fr"})
        assert r.status_code == 200, r.text
        assert _invite(app, url, "Bert").status_code == 200
        got = receiver.next()
        invite = bert.get("/api/invites").json()["invites"][0]
        assert got.message["kind"] == "invite" and got.message["url"] == invite["url"]
        assert "Anna" in got.message["title"] and int(got.headers["ttl"]) == 600
        hub = app.app.state.hub  # type: ignore[attr-defined]
        wait_until(lambda: hub.push.pending == 0)
        assert _invite(app, url, "Bert").status_code == 200  # again: no second push
        wait_until(lambda: hub.push.pending == 0)
        assert receiver.pushes.empty() and hub.push.sent == 1


def test_an_invitation_made_on_one_process_is_seen_on_another(
        backend_config: ServerConfig, bot_backend: PoolBackend) -> None:
    """Two apps on one database (SQLite, then PostgreSQL), as two server processes:
    Anna's table and her invitation are on the first; Bert's lobby polls the second and
    lists it; his Join goes to the table's owner (the router sends ``/tables/{id}/...``
    there) and seats him; he declines a second one on the second app."""
    with TestClient(create_app(backend_config, bot_backend),
                    base_url="http://testserver") as one, \
            TestClient(create_app(backend_config, bot_backend),
                       base_url="http://testserver") as two:
        signup(one, "Anna_2p")
        bert_one, bert_two = sibling(one), sibling(two)
        signup(bert_two, "Bert_2p")
        bert_one.cookies.update(bert_two.cookies)  # one browser: its cookies go to both
        url = _table(one, {**OPEN_TABLE, "seats": [
            {"kind": "you"}, {"kind": "open"}, {"kind": "open"}, {"kind": "bot"}]})
        assert _invite(one, url, "bert_2p").status_code == 200
        [listed] = bert_two.get("/api/invites").json()["invites"]
        assert listed["from"] == "Anna_2p" and listed["table"] == url.rsplit("/", 1)[1]
        took = post(bert_one, listed["url"], {}, follow_redirects=False)
        assert took.status_code == 303 and took.headers["location"] == url
        assert bert_two.get("/api/invites").json()["invites"] == []  # spent, everywhere
        cleo = sibling(one)
        signup(cleo, "Cleo_2p")
        assert _invite(one, url, "Cleo_2p").status_code == 200
        cleo_two = sibling(two)
        cleo_two.cookies.update(cleo.cookies)
        [invite] = cleo_two.get("/api/invites").json()["invites"]
        assert post(cleo_two, "/api/invites/decline", {"id": invite["id"]}).status_code == 200
        assert cleo.get("/api/invites").json()["invites"] == []
