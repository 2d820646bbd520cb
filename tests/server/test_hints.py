"""``POST /tables/{id}/hint``: the table setting, who may ask, and what the answer holds."""

from __future__ import annotations

import random
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from polignac.bots.analysis import evaluate_view
from polignac.bots.base import SeatView
from polignac.core import action_name
from polignac.server.web.hint_routes import NODES, SAMPLES, hint_seed

from .helpers import hello, play_now, play_until, sibling
from .waiting import wait_until


def _info(client: TestClient, url: str) -> dict[str, Any]:
    with client.websocket_connect(url + "/ws") as ws:
        table: dict[str, Any] = hello(ws)["table"]
        return table


def _my_choice(view: dict[str, Any]) -> bool:
    """My turn in the play of the cards, with at least two cards to choose from and a
    small hand (a quick evaluation)."""
    deal = view.get("deal")
    return bool(deal and deal.get("phase") == "play" and len(deal.get("legal") or []) >= 2
                and len(deal["hand"]) <= 5)


def _to_my_choice(ws: WebSocketTestSession, seed: int) -> dict[str, Any]:
    _seq, view = play_until(ws, hello(ws), random.Random(seed), _my_choice)
    deal: dict[str, Any] = view["deal"]
    return deal


def test_hints_default_follows_the_seats(client: TestClient) -> None:
    assert _info(client, play_now(client))["hints"] is True
    bots = client.post("/api/tables", json={"seats": [{"kind": "you"}] + [
        {"kind": "bot", "level": "random"}] * 3})
    assert bots.json()["hints"] is True and _info(client, bots.json()["url"])["hints"] is True
    people = client.post("/api/tables", json={"seats": [{"kind": "you"}, {"kind": "open"}] + [
        {"kind": "bot", "level": "random"}] * 2})
    assert people.json()["hints"] is False
    assert _info(client, people.json()["url"])["hints"] is False
    chosen = client.post("/api/tables", json={"hints": True, "seats": [
        {"kind": "you"}, {"kind": "open"}] + [{"kind": "bot", "level": "random"}] * 2})
    assert _info(client, chosen.json()["url"])["hints"] is True
    learn = client.post("/api/learn", json={})
    assert _info(client, learn.json()["url"])["hints"] is True
    bad = client.post("/api/tables", json={"hints": "yes", "seats": [{"kind": "you"}] + [
        {"kind": "bot", "level": "random"}] * 3})
    assert bad.status_code == 400 and bad.json()["rule"] == "bad-field"


def test_hint_off_no_seat_and_not_your_turn(client: TestClient) -> None:
    r = client.post("/api/tables", json={"hints": False, "seats": [{"kind": "you"}] + [
        {"kind": "bot", "level": "random"}] * 3})
    url = r.json()["url"]
    with client.websocket_connect(url + "/ws") as ws:
        _to_my_choice(ws, 1)
        off = client.post(url + "/hint")
        assert off.status_code == 403 and off.json()["rule"] == "hints-off"
    on = play_now(client, level="easy")
    spectator = sibling(client).post(on + "/hint")
    assert spectator.status_code == 403 and spectator.json()["rule"] == "no-seat"
    assert client.post("/tables/nope/hint").json()["rule"] == "no-table"
    # not my turn: the seat to act is a person who does not move (a bot's turn would
    # end whenever its move came)
    r = client.post("/api/tables", json={"hints": True, "seats": [
        {"kind": "you"}, {"kind": "open"}, {"kind": "bot", "level": "random"},
        {"kind": "bot", "level": "random"}]})
    url, invite = r.json()["url"], r.json()["invites"][0]["url"]
    guest = sibling(client)
    assert guest.post(invite, follow_redirects=False).status_code in (302, 303)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    table = hub.tables[url.rsplit("/", 1)[1]]
    with client.websocket_connect(url + "/ws") as ws, guest.websocket_connect(url + "/ws") as g:
        hello(g)
        first = hello(ws)
        seq, view, acted = first["seq"], first["view"], -1
        while table.match.to_act() != 1:
            deal = view.get("deal")
            if deal and deal.get("legal") and acted != seq:
                ws.send_json({"type": "act", "action": deal["legal"][0], "seq": seq})
                acted = seq
            frame = ws.receive_json()
            if frame["type"] == "event":
                seq, view = frame["seq"], frame.get("view", view)
        late = client.post(url + "/hint")
        assert late.status_code == 409 and late.json()["rule"] == "not-your-turn"


def test_hint_is_the_seat_view_evaluation_computed_in_the_pool(client: TestClient) -> None:
    url = play_now(client, level="easy")
    table_id = url.rsplit("/", 1)[1]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with client.websocket_connect(url + "/ws") as ws:
        deal_view = _to_my_choice(ws, 3)
        table = hub.tables[table_id]
        match = table.match
        deal = match.current
        done = hub.workers.done
        r = client.post(url + "/hint")
        assert r.status_code == 200, r.text
        assert hub.workers.done == done + 1  # computed by a worker process
        answer = r.json()
        assert set(answer) == {"actions", "samples", "exact", "unit", "deal", "seq"}
        assert answer["unit"] == "penalty" and answer["seq"] == table.seq
        names = [a["action"] for a in answer["actions"]]
        assert sorted(names) == sorted(deal_view["legal"])  # only my legal cards
        assert set(names) <= set(deal_view["hand"])
        for entry in answer["actions"]:
            assert set(entry) == {"action", "expected", "cost", "best"}
        view = SeatView.of(deal, deal.to_act, match)
        ev = evaluate_view(view, samples=SAMPLES, nodes=NODES,
                           seed=hint_seed(table_id, len(match.results) + 1, len(deal.history)))
        assert ev is not None and answer["samples"] == ev.samples
        for entry in answer["actions"]:
            a = next(x for x in ev.values if action_name(x) == entry["action"])
            assert entry["expected"] == round(ev.values[a], 3)
            assert entry["cost"] == round(ev.costs[a], 3)
            assert entry["best"] == (a == ev.best)
        assert sum(e["best"] for e in answer["actions"]) == 1
        again = client.post(url + "/hint")  # the same position: kept, not computed again
        assert again.json() == answer and hub.workers.done == done + 1


def test_only_the_seat_to_act_gets_a_hint(client: TestClient) -> None:
    """Two people and two bots, hints on: the person not to act is refused, and before
    the first deal nobody is to act."""
    r = client.post("/api/tables", json={"hints": True, "seats": [
        {"kind": "you"}, {"kind": "open"}] + [{"kind": "bot", "level": "random"}] * 2})
    url, invite = r.json()["url"], r.json()["invites"][0]["url"]
    early = client.post(url + "/hint")
    assert early.status_code == 409 and early.json()["rule"] == "not-your-turn"
    guest = sibling(client)
    with client.websocket_connect(url + "/ws") as ws:
        hello(ws)
        assert guest.post(invite, json={"name": "Bea"},
                          follow_redirects=False).status_code == 303
        with guest.websocket_connect(url + "/ws") as guest_ws:
            hello(guest_ws)
            table = client.app.state.hub.tables[url.rsplit("/", 1)[1]]  # type: ignore[attr-defined]
            wait_until(lambda: table.match.to_act() in (0, 1),  # the bots act at once
                       what="a person to act", interval=0.02)
            waiting = guest if table.match.to_act() == 0 else client
            refused = waiting.post(url + "/hint")
            assert refused.status_code == 409 and refused.json()["rule"] == "not-your-turn"


def test_hints_per_deal_are_bounded(client: TestClient, monkeypatch: Any) -> None:
    from polignac.server.web import hint_routes

    monkeypatch.setattr(hint_routes, "PER_DEAL", 0)
    url = play_now(client, level="easy")
    with client.websocket_connect(url + "/ws") as ws:
        _to_my_choice(ws, 5)
        r = client.post(url + "/hint")
        assert r.status_code == 429 and r.json()["rule"] == "hint-limit"


class _Pool:
    """The heavy pool as a worker answers it: ``outcome`` is the job's result (None: a
    solve went over its node budget) or the exception the pool raises."""

    def __init__(self, outcome: Any) -> None:
        self.outcome = outcome
        self.calls: list[dict[str, Any]] = []

    async def run(self, fn: Any, *args: Any, **options: Any) -> Any:
        self.calls.append(options)
        if isinstance(self.outcome, Exception):
            raise self.outcome
        return self.outcome


def test_refused_hints_count_against_the_limit_and_are_remembered(
        client: TestClient, monkeypatch: Any) -> None:
    from polignac.server.jobs.workers import JobTimeout, PoolBusy
    from polignac.server.web import hint_routes

    hub = client.app.state.hub  # type: ignore[attr-defined]
    for seed, outcome, status, rule, remembered in (
            (6, None, 409, "hint-too-deep", True),
            (7, JobTimeout("late"), 503, "job-timeout", True),
            (8, PoolBusy("full"), 503, "busy", False)):
        url = play_now(client, level="easy")
        table_id = url.rsplit("/", 1)[1]
        with client.websocket_connect(url + "/ws") as ws:
            _to_my_choice(ws, seed)
            counted = (table_id, 0, len(hub.tables[table_id].match.results) + 1)
            pool = _Pool(outcome)
            monkeypatch.setattr(hub, "heavy", pool)
            r = client.post(url + "/hint")
            assert (r.status_code, r.json()["rule"]) == (status, rule)
            assert hint_routes._counts[counted] == 1  # refused: counted all the same
            assert pool.calls[0]["heavy"] is True and pool.calls[0]["client"] == "testclient"
            if remembered:  # the same answer again, without a job or a count
                assert client.post(url + "/hint").json() == r.json()
                assert len(pool.calls) == 1 and hint_routes._counts[counted] == 1
            else:  # asked again: it counts again, up to the limit
                monkeypatch.setattr(hint_routes, "PER_DEAL", 1)
                again = client.post(url + "/hint")
                assert (again.status_code, again.json()["rule"]) == (429, "hint-limit")
                assert len(pool.calls) == 1


def test_no_hint_while_passing_cards(client: TestClient) -> None:
    r = client.post("/api/tables", json={"preset": "black-lady", "seats": [{"kind": "you"}] + [
        {"kind": "bot", "level": "random"}] * 3})
    assert r.status_code == 200, r.text
    url = r.json()["url"]
    with client.websocket_connect(url + "/ws") as ws:
        play_until(ws, hello(ws), random.Random(1), lambda v: bool(
            v.get("deal") and v["deal"].get("phase") == "pass" and v["deal"].get("legal")))
        refused = client.post(url + "/hint")
        assert refused.status_code == 409 and refused.json()["rule"] == "hint-passing"
        assert "passing" in refused.json()["error"]
