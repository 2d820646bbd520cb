"""Helpers for driving a table over the WebSocket in tests."""

from __future__ import annotations

import random
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession


def play_now(client: TestClient, **body: Any) -> str:
    """Create a table with ``/api/play-now``; return its URL."""
    r = client.post("/api/play-now", json=body)
    assert r.status_code == 200, r.text
    url: str = r.json()["url"]
    return url


def hello(ws: WebSocketTestSession, last_seq: int = 0) -> dict[str, Any]:
    """Send hello and return the state frame."""
    ws.send_json({"type": "hello", "last_seq": last_seq})
    frame: dict[str, Any] = ws.receive_json()
    assert frame["type"] == "state", frame
    return frame


def play_until(ws: WebSocketTestSession, first: dict[str, Any], rng: random.Random,
               stop: Any, frames: list[dict[str, Any]] | None = None,
               limit: int = 20000) -> tuple[int, dict[str, Any]]:
    """Play random legal actions until ``stop(view)``; return the last seq and view."""
    seq, view = first["seq"], first["view"]
    for _ in range(limit):
        if stop(view):
            return seq, view
        deal = view.get("deal")
        if deal and deal.get("legal"):
            ws.send_json({"type": "act", "action": rng.choice(deal["legal"]), "seq": seq})
        frame = ws.receive_json()
        if frames is not None:
            frames.append(frame)
        while frame["type"] in ("presence", "rematch", "commitment", "cut"):
            frame = ws.receive_json()
            if frames is not None:
                frames.append(frame)
        assert frame["type"] == "event", frame
        assert frame["seq"] == seq + 1
        seq = frame["seq"]
        if "view" in frame:
            view = frame["view"]
    raise AssertionError("the match did not stop")


def move_and_wait_for_my_turn(ws: WebSocketTestSession, state: dict[str, Any]) -> None:
    """Play the first legal action of the state frame ``state`` (it is this seat's move),
    then read frames until it is this seat's move again, or the match is over."""
    deal = state["view"]["deal"]
    ws.send_json({"type": "act", "action": deal["legal"][0], "seq": state["seq"]})
    while True:
        frame = ws.receive_json()
        view = frame.get("view") or {} if frame["type"] == "event" else {}
        if (view.get("deal") or {}).get("legal") or view.get("finished"):
            return


def next_non_event(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next frame that is neither an event nor presence (bots may be playing)."""
    while True:
        frame: dict[str, Any] = ws.receive_json()
        if frame["type"] not in ("event", "presence", "commitment"):
            return frame


def next_of(ws: WebSocketTestSession, kind: str, limit: int = 5000) -> dict[str, Any]:
    """The next frame of type ``kind``, skipping others (at most ``limit`` frames)."""
    for _ in range(limit):
        frame: dict[str, Any] = ws.receive_json()
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


def sibling(client: TestClient) -> TestClient:
    """Another browser (its own cookies) on ``client``'s running app and event loop.

    A bare ``TestClient(app)`` would run each request on an event loop of its
    own, apart from the tables' tasks and queues.
    """
    other = TestClient(client.app, base_url=str(client.base_url))
    other.portal = client.portal
    return other
