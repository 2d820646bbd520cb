"""POST /api/replay: a record replayed server-side, step by step; bad records get a 400."""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

from starlette.testclient import TestClient

from polignac.core import Match, get_rules, to_record


def _record(preset: str = "polignac", threshold: int = 5, seed: int = 3) -> dict[str, Any]:
    rng = random.Random(seed)
    m = Match.new(get_rules(preset, {"threshold": threshold}), 4, first_dealer=rng.randrange(4))
    while not m.finished:
        m = m.deal_random(rng) if m.needs_deal else m.apply(rng.choice(m.legal_actions()))
    return to_record(m)


def _all_deals(client: TestClient, record: dict[str, Any], count: int = 2
               ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The first answer and every deal, asked for ``count`` at a time."""
    first: dict[str, Any] = {}
    deals: list[dict[str, Any]] = []
    while not first or len(deals) < first["deal_count"]:
        r = client.post(f"/api/replay?from={len(deals) + 1}&count={count}", json=record)
        assert r.status_code == 200, r.text
        page = r.json()
        assert page["from"] == len(deals) + 1 and 0 < len(page["deals"]) <= count
        assert [d["number"] for d in page["deals"]] == list(
            range(len(deals) + 1, len(deals) + 1 + len(page["deals"])))
        first = first or page
        deals += page["deals"]
    return first, deals


def test_replay_steps_every_action(client: TestClient) -> None:
    record = _record()
    data, deals = _all_deals(client, record)
    assert data["preset"] == "polignac" and data["finished"] is True
    assert len(deals) == len(record["deals"]) == len(data["summary"]["deals"]) \
        == data["deal_count"]
    for deal, entry in zip(deals, record["deals"], strict=True):
        assert deal["hands"] == entry["hands"]
        steps = deal["steps"]
        assert len(steps) == len(entry["actions"]) + 1
        assert steps[0]["action"] is None and steps[0]["hands"] == entry["hands"]
        assert [s["action"] for s in steps[1:]] == entry["actions"]
        assert sum(len(h) for h in steps[-1]["hands"]) == 0  # polignac plays every card
        assert deal["complete"] and deal["scores"] is not None
        assert "score" in steps[-1]
        # A card played by a seat leaves that seat's hand.
        for before, after in itertools.pairwise(steps):
            if len(after["action"]) == 2:
                p = deal["seats"].index(after["seat"])
                assert after["action"] in before["hands"][p]
                assert after["action"] not in after["hands"][p]
        assert steps[-1]["last_trick"]["winner"] in deal["seats"]
    assert data["winners"] or data["losers"]


def test_replay_answers_a_page_of_deals(client: TestClient) -> None:
    record = _record(threshold=30, seed=4)
    n = len(record["deals"])
    assert n > 9
    whole = client.post("/api/replay", json=record).json()  # no query: the first 8 deals
    assert whole["deal_count"] == n and [d["number"] for d in whole["deals"]] == list(
        range(1, 9))
    assert len(whole["summary"]["deals"]) == n  # the scores of every deal, always
    tail = client.post(f"/api/replay?from={n}&count=32", json=record).json()
    assert [d["number"] for d in tail["deals"]] == [n]
    assert client.post(f"/api/replay?from={n + 5}", json=record).json()["deals"] == []
    for query in ("from=0", "count=0", "count=33", "from=%C2%B2", "count=%D9%A1", "from=-1",
                  "from=1e3", "count=" + "9" * 40, "from="):
        r = client.post(f"/api/replay?{query}", json=record)
        assert r.status_code == 400 and r.json()["rule"] == "bad-page", (query, r.text)


def test_replay_german_and_running_record(client: TestClient) -> None:
    record = _record("eichelobern", threshold=3, seed=5)
    record["deals"][-1]["actions"] = record["deals"][-1]["actions"][:5]  # a deal in progress
    data = client.post("/api/replay?count=32", json=record).json()
    assert data["suits"] == "german"
    assert data["deals"][-1]["complete"] is False and data["deals"][-1]["scores"] is None
    assert data["finished"] is False


def test_bad_records_get_the_cores_message(client: TestClient) -> None:
    record = _record()
    bad = copy.deepcopy(record)
    actions = bad["deals"][0]["actions"]
    i = next(k for k, a in enumerate(actions) if len(a) == 2)
    actions[i + 1] = actions[i]  # the same card twice
    r = client.post("/api/replay", json=bad)
    assert r.status_code == 400
    body = r.json()
    assert body["rule"] == "bad-record" and body["deal"] == 1 and body["action"] == i + 2
    assert "deal 1, action" in body["error"] and "[rule:" in body["error"]

    r = client.post("/api/replay", content=b"{not json",
                    headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["rule"] == "bad-json"
    r = client.post("/api/replay", json={"players": ["a"]})
    assert r.status_code == 400 and "preset" in r.json()["error"]
    r = client.post("/api/replay", json=[1, 2])
    assert r.status_code == 400
    r = client.post("/api/replay", json=record, headers={"origin": "http://evil.example"})
    assert r.status_code == 403


def test_replay_pages(client: TestClient) -> None:
    r = client.get("/replay")
    assert r.status_code == 200 and "replay.js" in r.text
    assert "content-security-policy" in r.headers
    url = client.post("/api/play-now", json={}).json()["url"]
    assert client.get(url + "/replay").status_code == 200
    assert client.get("/tables/nope/replay").status_code == 404
