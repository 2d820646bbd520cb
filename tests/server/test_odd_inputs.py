"""No 500 for Unicode digits or malformed cookies in the lobby's, the seats' and the
socket's routes (issue 22, items 2 and 4): each is refused with a clear 4xx (or, on
the socket, a close code), and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from polignac.server import ServerConfig, create_app
from polignac.server.base.seating import IDENTITY_COOKIE

from .helpers import hello, sibling

ORIGIN = {"origin": "http://testserver"}
ODD = [b"\xb2", b"\xb2.tok", b"\xb9\xb3." + b"a" * 40, b'"\\262.tok"', b'"1\\271.t"',
       b"-1.abc", b"1.", b".", b"9" * 30 + b".t", b"0x1.t", b"1 .t", b"\xa0", b"\xff\xfe"]
"""Cookie values as raw header bytes (Starlette reads them as Latin-1, so ``\\xb2`` is
``\u00b2``, a Unicode digit; a quoted ``\\262`` is unquoted to it as well)."""


def _table(client: TestClient) -> tuple[str, str, int]:
    r = client.post("/api/tables", headers=ORIGIN, json={
        "seats": [{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]})
    assert r.status_code == 200, r.text
    return r.json()["url"], r.json()["id"], len(r.json()["invites"])


def test_unicode_digits_in_seat_numbers_get_4xx(config: ServerConfig) -> None:
    with TestClient(create_app(config)) as client:
        url, _, _ = _table(client)
        friend = sibling(client)
        for seat in ["²", "١", "𝟙", "-1", "99", "1.0", "0x1", "9" * 40]:
            for verb in ("take", "approve", "refuse"):
                r = client.post(f"{url}/seats/{seat}/{verb}", headers=ORIGIN, json={})
                assert r.status_code == 404 and r.json()["rule"] == "bad-seat", (seat, r.text)
            r = friend.get(f"{url}/join", params={"seat": seat, "token": "x"})
            assert r.status_code == 403, (seat, r.text)


@pytest.mark.parametrize("value", ODD)
def test_malformed_seat_cookies_get_4xx_everywhere(config: ServerConfig, value: bytes) -> None:
    with TestClient(create_app(config)) as client:
        url, table_id, _ = _table(client)
        odd = sibling(client)
        cookie = b"polignac_%s=%s; %s=%s" % (table_id.encode(), value,
                                              IDENTITY_COOKIE.encode(), value)
        h: dict[str, Any] = {**ORIGIN, "cookie": cookie}
        answers = {
            "page": odd.get(url, headers=h), "invites": odd.get(f"{url}/invites", headers=h),
            "request": odd.get(f"{url}/request", headers=h),
            "record": odd.get(f"{url}/record.json", headers=h),
            "rematch": odd.post(f"{url}/rematch", headers=h),
            "start": odd.post(f"{url}/start", headers=h),
            "take": odd.post(f"{url}/seats/2/take", headers=h, json={"name": "X"}),
            "approve": odd.post(f"{url}/seats/2/approve", headers=h),
            "join": odd.get(f"{url}/join", params={"seat": "1", "token": "x"}, headers=h),
            "join-post": odd.post(f"{url}/join", params={"seat": "1", "token": "x"},
                                  json={"name": "X"}, headers=h),
            "lobby": odd.get("/", headers=h), "tables": odd.get("/api/tables", headers=h),
            "play-now": odd.post("/api/play-now", headers=h, json={}),
        }
        for route, r in answers.items():
            assert r.status_code < 500, (route, value, r.status_code, r.text)
        assert answers["rematch"].status_code == 403 and answers["invites"].status_code == 403
        assert answers["request"].json() == {"seat": None}
        try:
            with odd.websocket_connect(url + "/ws", headers=h) as ws:
                assert hello(ws)["you"] is None  # a cookie that names no seat: a spectator
        except WebSocketDisconnect as exc:
            assert exc.code == 4401  # or refused as a cookie that is not valid
        assert _table_unchanged(client, table_id)


def _table_unchanged(client: TestClient, table_id: str) -> bool:
    table = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
    return [s.kind for s in table.seats] == ["human", "human", "bot", "bot"] and \
        table.seats[1].token_hash is None and table.seats[2].take_hash is None
