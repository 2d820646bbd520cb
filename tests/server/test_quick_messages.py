"""Quick messages (``quick_messages.py``, ``say``/``chat`` frames): a fixed set of ids,
sent by seated people only, rate-limited per seat, broadcast to seats and spectators, and
never stored in the game's record."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from polignac import i18n
from polignac.server.base.errors import ProtocolError
from polignac.server.tables.quick_messages import BURST, MESSAGES, WINDOW, QuickMessages

from .helpers import hello, next_of, play_now, sibling


def test_known_ids_only_and_a_rate_limit_per_seat() -> None:
    now = [100.0]
    quick = QuickMessages(clock=lambda: now[0])
    assert quick.say(1, "thanks") == {"type": "chat", "seat": 1, "message": "thanks"}
    for bad in ("Thanks!", "", 7, None, "x" * 5000):
        with pytest.raises(ProtocolError) as exc:
            quick.say(1, bad)
        assert exc.value.rule == "unknown-message"
        assert "expected one of hello, good-luck" in str(exc.value)
        assert len(str(exc.value)) < 200  # a long text is not echoed
    assert quick.refused[1] == 5
    for _ in range(BURST - 1):
        quick.say(1, "oops")
    with pytest.raises(ProtocolError) as exc:
        quick.say(1, "oops")
    assert exc.value.rule == "chat-rate"
    assert str(exc.value) == f"at most {BURST} quick messages every {WINDOW:g} seconds; wait 10 s"
    assert quick.refused[1] == 6
    assert quick.say(2, "oops")["seat"] == 2  # each seat its own limit
    now[0] += WINDOW - 1
    with pytest.raises(ProtocolError):
        quick.say(1, "oops")
    now[0] += 1.001  # the first one left the window
    assert quick.say(1, "bye")["message"] == "bye"


def test_every_message_has_its_words_in_each_language() -> None:
    for lang in ("en", "fr", "de"):
        for m in MESSAGES:
            assert i18n.t(lang, f"chat.{m}") != f"chat.{m}", (lang, m)
        for rule in ("unknown-message", "chat-rate"):
            assert i18n.t(lang, f"error.{rule}") != f"error.{rule}", (lang, rule)


def test_seats_send_spectators_hear_and_the_record_keeps_nothing(client: TestClient) -> None:
    url = play_now(client)
    with client.websocket_connect(url + "/ws") as ws, \
            sibling(client).websocket_connect(url + "/ws") as spectator:
        me = hello(ws)["you"]
        assert hello(spectator)["you"] is None
        ws.send_json({"type": "say", "message": "good-luck"})
        expected = {"type": "chat", "seat": me, "message": "good-luck"}
        assert next_of(ws, "chat") == expected
        assert next_of(spectator, "chat") == expected
        spectator.send_json({"type": "say", "message": "hello"})
        refused = next_of(spectator, "error")
        assert refused["rule"] == "spectator"
        assert refused["message"] == "spectators cannot send messages"
        ws.send_json({"type": "say", "message": "You are bad"})
        refused = next_of(ws, "error")
        assert refused["rule"] == "unknown-message"
        for _ in range(BURST - 1):
            ws.send_json({"type": "say", "message": "oops"})
            assert next_of(ws, "chat")["message"] == "oops"
        ws.send_json({"type": "say", "message": "oops"})
        refused = next_of(ws, "error")
        assert refused["rule"] == "chat-rate" and "wait" in refused["message"]
        ws.send_json({"type": "ping"})
        frame = ws.receive_json()
        while frame["type"] != "pong":
            assert frame["type"] != "chat", frame  # the refused one was not broadcast
            frame = ws.receive_json()
    record = client.get(url + "/record.json")
    assert record.status_code == 200, record.text
    text = json.dumps(record.json())
    assert "good-luck" not in text and "chat" not in text
