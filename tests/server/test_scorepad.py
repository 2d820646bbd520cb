"""The score pad's page and JSON API (stateless: the pad travels with each request)."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

NAMES = ["Ann", "Bob", "Cy", "Di"]
JACKS = {"JS": 0, "JC": 1, "JD": 1, "JH": 2}


def score(client: TestClient, pad: dict[str, Any], entry: Any = None,
          **extra: Any) -> Any:
    return client.post("/api/scorepad/score", json={"pad": pad, "entry": entry, **extra})


def test_page_presets_and_lobby_link(client: TestClient) -> None:
    r = client.get("/scorepad")
    assert r.status_code == 200 and "scorepad.js" in r.text
    assert "content-security-policy" in r.headers
    for name in ("scorepad.js", "scorepad.css"):
        assert client.get(f"/static/{name}").status_code == 200
    presets = {p["name"]: p for p in client.get("/api/scorepad/presets").json()["presets"]}
    assert presets["polignac-rounds"]["revoke_penalty"] == 3
    assert presets["polignac"]["revoke_penalty"] is None
    assert 'href="/scorepad"' in client.get("/").text


def test_a_match_to_its_end(client: TestClient) -> None:
    pad: dict[str, Any] = {"preset": "polignac", "overrides": {"threshold": 10},
                           "names": NAMES, "entries": []}
    r = score(client, pad)
    assert r.status_code == 200
    state = r.json()["pad"]
    assert state["next"]["point_cards"] == ["JC", "JD", "JH", "JS"]
    assert state["next"]["dealer"] == 0 and state["totals"] == [0, 0, 0, 0]
    state = score(client, state, {"taken": JACKS}).json()["pad"]
    assert state["totals"] == [2, 2, 1, 0] and state["next"]["dealer"] == 1
    state = score(client, state, {"taken": dict.fromkeys(JACKS, 3)}).json()["pad"]
    state = score(client, state, {"taken": dict.fromkeys(JACKS, 3)}).json()["pad"]
    assert state["totals"] == [2, 2, 1, 10]
    assert state["finished"] and state["losers"] == [3] and state["winners"] == [0, 1, 2]
    assert state["next"] is None
    # undo reopens the match
    undone = score(client, state, undo=True).json()["pad"]
    assert undone["totals"] == [2, 2, 1, 5] and not undone["finished"]
    r = score(client, state, {"taken": JACKS})
    assert r.status_code == 400 and r.json()["field"] == "entry"


def test_the_sheet_words_come_from_the_family(client: TestClient) -> None:
    words = {}
    for preset in ("polignac", "pollack", "bassadewitz", "black-lady"):
        r = score(client, {"preset": preset, "names": NAMES, "entries": []})
        assert r.status_code == 200, r.text
        words[preset] = r.json()["pad"]["words"]
    assert words == {
        "polignac": {"total": "total", "side_reasons": [], "higher_better": False},
        "pollack": {"total": "partie", "side_reasons": ["card-points"], "higher_better": True},
        "bassadewitz": {"total": "chips", "side_reasons": [], "higher_better": True},
        "black-lady": {"total": "total", "side_reasons": [], "higher_better": False}}


def test_errors_name_the_field(client: TestClient) -> None:
    pad = {"preset": "polignac", "names": NAMES, "entries": []}
    cases: list[tuple[dict[str, Any], Any, str]] = [
        (pad, {"taken": {"JS": 0, "JC": 1, "JD": 2}}, "taken.JH"),
        (pad, {"taken": {**JACKS, "JS": 9}}, "taken.JS"),
        (pad, {"taken": JACKS, "tricks": [1, 1, 1]}, "tricks"),
        (pad, {"taken": JACKS, "revokes": [1]}, "revokes"),
        ({**pad, "entries": [{"taken": {"JS": 5}}]}, None, "entries[0].taken.JS"),
        ({**pad, "preset": "nope"}, None, "preset"),
        ({**pad, "names": ["A", "B"]}, None, "names"),
        ({**pad, "overrides": {"threshold": "x"}}, None, "overrides"),
        ({"preset": "bassadewitz", "names": NAMES},
         {"card_points": [30, 30, 30, 20], "tricks": [2, 2, 2, 2]}, "card_points"),
    ]
    for setup, entry, field in cases:
        r = score(client, setup, entry)
        assert r.status_code == 400, (setup, entry)
        body = r.json()
        assert body["rule"] == "bad-entry" and body["field"] == field, body
        assert field in body["error"]


def test_bad_requests(client: TestClient) -> None:
    r = client.post("/api/scorepad/score", content=b"not json",
                    headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["rule"] == "bad-json"
    r = client.post("/api/scorepad/score", json={"entry": {}})
    assert r.status_code == 400 and r.json()["field"] == "pad"
    r = client.post("/api/scorepad/score", json={"pad": {"names": NAMES}},
                    headers={"origin": "https://evil.example"})
    assert r.status_code == 403
    r = client.post("/api/scorepad/score", content=b"x" * (600 * 1024),
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
