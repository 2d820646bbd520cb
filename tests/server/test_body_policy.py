"""One body policy for every route that may change something (docs/server.md,
"Security choices"; ``requests.py:BodyPolicy``): JSON only, from the site's own pages.
The routes are read from the app itself, so that a route added later is walked too."""

from __future__ import annotations

from pathlib import Path

from starlette.routing import Route
from starlette.testclient import TestClient

from .helpers import play_now, sibling

SERVER = Path(__file__).resolve().parents[2] / "src" / "polignac" / "server"
SITE = "http://testserver"


def unsafe_paths(client: TestClient, table_id: str) -> list[str]:
    """Every route of the app that takes POST (or another unsafe method), its path
    filled with a real table and seat."""
    out = []
    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, Route) and route.methods and \
                route.methods & {"POST", "PUT", "PATCH", "DELETE"}:
            out.append(route.path.replace("{table_id}", table_id).replace("{seat}", "1"))
    return out


def test_every_post_route_takes_json_from_the_site_only(client: TestClient) -> None:
    url = play_now(client)
    paths = unsafe_paths(client, url.rsplit("/", 1)[1])
    assert len(paths) >= 25 and "/api/seeks" in paths and "/tables/{table_id}/join" not in paths
    stranger = sibling(client)
    body = b'{"preset": "polignac", "name": "X"}'
    refusals = {
        "text/plain": ({"content-type": "text/plain"}, 415, "not-json"),
        "text/plain from the site": ({"content-type": "text/plain;charset=UTF-8",
                                      "origin": SITE}, 415, "not-json"),
        "a form": ({"content-type": "application/x-www-form-urlencoded", "origin": SITE}, 415,
                   "not-json"),
        "multipart": ({"content-type": "multipart/form-data; boundary=x"}, 415, "not-json"),
        "a body without a type": ({}, 415, "not-json"),
        "a foreign origin": ({"content-type": "application/json",
                              "origin": "http://evil.example"}, 403, "bad-origin"),
        "a null origin": ({"content-type": "application/json", "origin": "null"}, 403,
                          "bad-origin"),
        "another port": ({"content-type": "application/json",
                          "origin": "http://testserver:8080"}, 403, "bad-origin"),
    }
    for path in paths:
        for what, (headers, status, rule) in refusals.items():
            r = stranger.post(path, content=body, headers=headers)
            assert (r.status_code, r.json().get("rule")) == (status, rule), (path, what, r.text)
        # a bare POST (no body, no type) and JSON from the site reach the route
        for headers, content in (({}, b""), ({"content-type": "application/json",
                                              "origin": SITE}, body)):
            r = stranger.post(path, content=content, headers=headers)
            assert r.headers["content-type"].startswith(("application/json", "text/html",
                                                         "application/x-ndjson")), path
            if r.headers["content-type"].startswith("application/json"):
                assert r.json().get("rule") not in ("bad-origin", "not-json"), (path, r.text)


def test_the_seek_routes_refuse_text_plain(client: TestClient) -> None:
    """The hostile tester's break: a request to play sent as text/plain, no Origin."""
    r = client.post("/api/seeks", content=b'{"preset": "polignac"}',
                    headers={"content-type": "text/plain"})
    assert r.status_code == 415 and r.json()["rule"] == "not-json"
    assert client.get("/api/seeks").json()["mine"] is None
    r = client.post("/api/seeks", json={"preset": "polignac"})
    assert r.status_code == 200 and client.get("/api/seeks").json()["mine"] is not None


def test_the_origin_is_checked_in_one_place() -> None:
    """No route module checks a request's origin or body type itself: the policy does,
    before any route (the WebSockets check their Origin at the handshake)."""
    calls = sorted(str(p.relative_to(SERVER)) for p in SERVER.rglob("*.py")
                   if "origin_allowed(" in p.read_text())
    assert calls == ["base/requests.py", "base/security.py", "cluster/relay.py",
                     "tables/session.py", "web/tournament_routes.py"]
    assert not [p.name for p in (SERVER / "web").glob("*.py")
                if 'headers.get("content-type"' in p.read_text()]
