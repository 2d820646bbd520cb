"""``POST /tables/{id}/seats/{seat}/sit``: a stranger takes an open seat of a public
table from the lobby; private tables, bots' seats, taken seats and a second seat are
refused, and the last open seat taken starts the first deal."""

from __future__ import annotations

from starlette.testclient import TestClient

from .helpers import hello, next_of, sibling

OPEN_TABLE = {"preset": "polignac", "name": "Ann", "seats": [
    {"kind": "you"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}, {"kind": "open"}]}


def test_a_stranger_sits_at_an_open_seat_of_a_public_table(client: TestClient) -> None:
    r = client.post("/api/tables", json=OPEN_TABLE)
    url = r.json()["url"]
    table_id = url.rsplit("/", 1)[1]
    listed = client.get("/api/tables").json()["tables"]
    assert [t["open_seats"] for t in listed if t["id"] == table_id] == [[1, 3]]
    with client.websocket_connect(url + "/ws") as ws:
        assert hello(ws)["table"]["status"] == "waiting"
        bea = sibling(client)
        took = bea.post(f"{url}/seats/1/sit", json={"name": "Bea"})
        assert took.status_code == 200, took.text
        assert took.json() == {"url": url, "id": table_id, "seat": 1}
        assert f"polignac_{table_id}" in took.headers["set-cookie"]
        with bea.websocket_connect(url + "/ws") as bws:
            state = hello(bws)
            assert state["you"] == 1 and state["table"]["seats"][1]["name"] == "Bea"
        # one seat a person; a taken seat, a bot's seat, a seat out of range
        again = bea.post(f"{url}/seats/3/sit", json={"name": "Bea"})
        assert again.status_code == 409 and again.json()["rule"] == "already-seated"
        cy = sibling(client)
        taken = cy.post(f"{url}/seats/1/sit", json={"name": "Cy"})
        assert taken.status_code == 409 and taken.json()["rule"] == "not-open"
        bot = cy.post(f"{url}/seats/2/sit", json={"name": "Cy"})
        assert bot.status_code == 409 and bot.json()["rule"] == "not-open"
        assert cy.post(f"{url}/seats/9/sit", json={}).status_code == 404
        assert client.get("/api/tables").json()["tables"][0]["open_seats"] == [3]
        # the last open seat taken: the first deal
        assert cy.post(f"{url}/seats/3/sit", json={"name": "Cy"}).status_code == 200
        deal = next_of(ws, "event")
        assert deal["seq"] == 1 and deal["event"]["kind"] == "deal"
        late = sibling(client).post(f"{url}/seats/3/sit", json={"name": "Dee"})
        assert late.status_code == 409 and late.json()["rule"] == "not-open"


def test_a_private_tables_open_seat_needs_its_invite(client: TestClient) -> None:
    r = client.post("/api/tables", json={**OPEN_TABLE, "private": True})
    url = r.json()["url"]
    refused = sibling(client).post(f"{url}/seats/1/sit", json={"name": "Bea"})
    assert refused.status_code == 403 and refused.json()["rule"] == "private-table"
    assert client.get("/api/tables").json()["tables"] == []


def test_sitting_is_rate_limited_per_address(client: TestClient) -> None:
    burst = client.app.state.hub.config.take_burst  # type: ignore[attr-defined]
    answers = []
    for _ in range(burst + 2):  # each stranger a new browser; the same address
        r = client.post("/api/tables", json=OPEN_TABLE)
        answers.append(sibling(client).post(r.json()["url"] + "/seats/1/sit",
                                            json={"name": "Bea"}).status_code)
    assert answers.count(200) == burst and answers[-1] == 429
