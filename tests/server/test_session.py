"""``session.py``: the one frame parser (``FrameReader``) and the dispatch table
(``HANDLERS``) of the table's socket."""

from __future__ import annotations

from dataclasses import replace

import pytest
from starlette.testclient import TestClient

from polignac.server import ServerConfig, create_app
from polignac.server.tables.session import HANDLERS, MAX_REFUSED, FrameReader, FrameRefused

from .helpers import hello, play_now


def _refused(reader: FrameReader, message: dict[str, object]) -> FrameRefused:
    with pytest.raises(FrameRefused) as exc:
        reader.read(message)  # type: ignore[arg-type]
    return exc.value


def test_the_reader_refuses_what_is_not_a_small_json_object(config: ServerConfig) -> None:
    reader = FrameReader(replace(config, max_frame=100))
    assert reader.read({"type": "websocket.receive", "text": '{"type": "ping"}'}) == \
        {"type": "ping"}
    assert _refused(reader, {"type": "websocket.receive", "bytes": b"x"}).rule == "bad-frame"
    big = _refused(reader, {"type": "websocket.receive", "text": "é" * 60})  # 120 bytes
    assert big.rule == "too-large" and big.close
    assert _refused(reader, {"type": "websocket.receive", "text": "[1]"}).rule == "bad-json"
    assert _refused(reader, {"type": "websocket.receive", "text": "{"}).rule == "bad-json"
    deep = _refused(reader, {"type": "websocket.receive", "text": "[" * 40 + "]" * 40})
    assert deep.rule == "too-deep"


def test_the_reader_limits_the_rate_then_closes(config: ServerConfig) -> None:
    reader = FrameReader(replace(config, rate_per_second=0.001, rate_burst=1))
    frame = {"type": "websocket.receive", "text": "{}"}
    assert reader.read(frame) == {}  # type: ignore[arg-type]
    for _ in range(MAX_REFUSED):
        refused = _refused(reader, frame)
        assert refused.rule == "rate-limit" and not refused.close
    assert _refused(reader, frame).close


def test_every_frame_type_has_its_handler_and_others_are_named(config: ServerConfig) -> None:
    assert list(HANDLERS) == ["hello", "act", "cut", "say", "back", "ping"]
    with TestClient(create_app(config)) as client:
        url = play_now(client)
        with client.websocket_connect(url + "/ws") as ws:
            ws.send_json({"type": "act", "action": "7C"})
            assert ws.receive_json() == {"type": "error", "rule": "hello-first",
                                         "message": "send hello first"}
            state = hello(ws)
            ws.send_json({"type": "dance"})
            frame = ws.receive_json()
            while frame["type"] != "error":
                frame = ws.receive_json()
            assert frame["rule"] == "unknown-type"
            assert frame["message"] == ("unknown message type 'dance': expected hello, act, "
                                        "cut, say, back or ping")
            ws.send_json({"type": "ping"})
            while (frame := ws.receive_json())["type"] != "pong":
                pass
            assert state["you"] == 0
