"""``errors.py``: one error style; a route raises ``ApiError`` and one handler answers
JSON (or a page, for a page route), and ``read_body`` raises instead of answering."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient

from polignac.server.base.errors import ApiError, api_error_response, html_errors
from polignac.server.base.requests import read_body, read_json


async def refuse(request: Request) -> Response:
    raise ApiError("no such thing", "no-thing", 404, {"Retry-After": "3"}, {"seat": 2})


@html_errors
async def refuse_page(request: Request) -> Response:
    raise ApiError("no such page here", "no-page", 410)


async def body(request: Request) -> Response:
    return Response(await read_body(request, 10, "the note"))


async def parsed(request: Request) -> Response:
    return Response(repr(await read_json(request, 100, "the note")))


def _client() -> TestClient:
    app = Starlette(routes=[Route("/api", refuse), Route("/page", refuse_page),
                            Route("/body", body, methods=["POST"]),
                            Route("/json", parsed, methods=["POST"])],
                    exception_handlers={ApiError: api_error_response})
    return TestClient(app)


def test_an_api_error_answers_json_with_its_status_headers_and_fields() -> None:
    r = _client().get("/api")
    assert r.status_code == 404 and r.headers["retry-after"] == "3"
    assert r.json() == {"error": "no such thing", "rule": "no-thing", "seat": 2}


def test_a_page_route_answers_the_same_error_as_a_page() -> None:
    r = _client().get("/page")
    assert r.status_code == 410 and r.headers["content-type"].startswith("text/html")
    assert "no such page here" in r.text


def test_a_page_route_answers_json_to_its_own_script() -> None:
    """The invite page's script sends its form as JSON and asks for JSON, so that it can
    say why a name was refused next to the form."""
    r = _client().get("/page", headers={"accept": "application/json"})
    assert r.status_code == 410
    assert r.json() == {"error": "no such page here", "rule": "no-page"}


def test_read_body_and_read_json_raise_api_errors() -> None:
    client = _client()
    assert client.post("/body", content=b"short").text == "short"
    big = client.post("/body", content=b"x" * 11)
    assert big.status_code == 413 and big.json()["rule"] == "too-large"
    assert "the note is too large" in big.json()["error"]
    declared = client.post("/body", content=b"x", headers={"content-length": "1"})
    assert declared.status_code == 200
    # a body's origin and type are the app's BodyPolicy's (tests/server/test_body_policy.py)
    assert client.post("/json", content=b"[1, 2]").text == "[1, 2]"
    bad = client.post("/json", content=b"{")
    assert bad.status_code == 400 and bad.json()["rule"] == "bad-json"
