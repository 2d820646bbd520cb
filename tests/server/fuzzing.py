"""A fuzzer of the table protocol and the HTTP API, shared by ``test_fuzz.py``
(Hypothesis, short) and ``benchmarks/bench_fuzz.py`` (a seeded generator, long).

Messages are *templates*: JSON-like values in which :class:`Slot` placeholders
stand for what only the live table knows (a legal action, the table's last
event number, the open deal's commitment, a table id...).  Both generators
draw templates from the same pools (:data:`FRAME_FIELDS`, :data:`ENDPOINTS`):
:func:`random_frame` / :func:`random_request` with a ``random.Random``,
:func:`frame_templates` / :func:`request_templates` as Hypothesis strategies.

:class:`Harness` runs the real app (``create_app``, its middlewares, routes and
handlers, SQLite in a folder) in-process: it calls the ASGI app directly on
one event loop, as Starlette's TestClient does but without its thread and
HTTP client, which makes a million messages affordable.  After every frame it
sends a frame of an unknown type that names itself and reads until its
error, so each frame's answers are known; it checks that a refused frame or request changed nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import sqlite3
import string
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from hypothesis import strategies as st

from polignac.server import ServerConfig, create_app
from polignac.server.tables.tables import GameTable
from polignac.server.web.app import Hub

from .waiting import until

HOST = "testserver"
REQUEST_SECONDS = 120
"""A request not answered within this long is a crash (a hang)."""

# ------------------------------------------------------------------ value pools


@dataclass(frozen=True)
class Slot:
    """A value the live table supplies: ``legal`` (a legal action of the table's
    view, ``n`` picks which), ``seq`` (the last event number plus ``n``), ``deal``
    (the open cut window's deal number plus ``n``), ``commitment`` (the open
    deal's), ``hex`` (``n`` random hex digits), ``table`` (the session's table
    id), ``record`` (the table's record), ``pad`` (a score pad), ``tournament`` (the
    last arena the fuzzer created), ``now`` (the server's clock plus ``n`` seconds)."""

    what: str
    n: int = 0


WEIRD: list[Any] = [
    None, True, False, 0, 1, -1, 2, 3, 7, 255, 2**31, 2**53 + 1, 2**64, -2**63, 10**40,
    0.5, -0.0, 1e308, -1e-308, "", " ", "0", "1", "-1", "null", "true", "NaN", "a" * 41,
    "é", "\u0000", "\ud800", "\u202e", "<script>alert(1)</script>", "x" * 300,
    "../../etc/passwd", "%00", "JS\n", [], {}, [1, 2], {"a": None}, [[[]]],
    {"type": "hello"}, ["hello"], "ff" * 33,
]
ACTIONS: list[Any] = [
    "JS", "10h", "TS", "7D", "QC", "AH", "KS", "9C", "pass", "capot", "general", "generale",
    "claim", "announce:four-tens", "announce:", "announce:x", "declare", "js", "J S", "JSJS",
    "X", "0", "1", "deal", "cut", "Play", "take:JS", "♠J", "A" * 40, "A" * 41,
]
TYPES: list[Any] = ["hello", "act", "cut", "ping", "pong", "Hello", "HELLO", "hello ",
                    "state", "event", "error", "chat", "", None, 0, [], {}, "x" * 100]
HEX = string.hexdigits.lower()[:16]

FRAME_FIELDS: dict[str, dict[str, list[Any]]] = {
    "hello": {"last_seq": [Slot("seq"), Slot("seq", -1), Slot("seq", -3), Slot("seq", 1),
                           Slot("seq", -250), 0, -1, 10**9, None, *WEIRD[:14]]},
    "act": {"action": [Slot("legal", 0), Slot("legal", 1), Slot("legal", 2), Slot("legal", 3),
                       *ACTIONS, *WEIRD[:20]],
            "seq": [Slot("seq"), Slot("seq"), Slot("seq", -1), Slot("seq", 1), None,
                    *WEIRD[:12]]},
    "cut": {"deal": [Slot("deal"), Slot("deal", 1), Slot("deal", -1), 0, -1, 1, 1_000_001,
                     *WEIRD[:12]],
            "value": [Slot("hex", 2), Slot("hex", 16), Slot("hex", 64), Slot("hex", 1),
                      Slot("hex", 3), Slot("hex", 66), Slot("hex", 0), "zz", "0x00", "GG",
                      *WEIRD[14:30]],
            "commitment": [Slot("commitment"), Slot("hex", 64), Slot("hex", 63), "",
                           *WEIRD[:8]]},
    "ping": {"nonce": [*WEIRD[:10]]},
    "back": {"seat": [*WEIRD[:6]]},
}
"""Per message type of the table protocol, each field's candidate values."""

RAW_FRAMES: list[str | bytes] = [
    "", " ", "{", "}", "[", "null", "true", "1", "\"hello\"", "[]", "[{\"type\":\"hello\"}]",
    "{\"type\":\"hello\"", "{\"type\": \"ping\"} trailing", "{'type': 'ping'}",
    "{\"type\":\"ping\",\"type\":\"hello\"}", "\ufeff{\"type\":\"ping\"}", "NaN",
    "{\"type\":\"hello\",\"last_seq\":1e999}", "{\"type\":\"hello\",\"last_seq\":NaN}",
    "{\"type\":\"act\",\"action\":\"JS\",\"seq\":-Infinity}",
    "{\"type\":\"hello\",\"last_seq\":" + "9" * 5000 + "}",
    "{\"type\":\"act\",\"action\":" + "[" * 200 + "]" * 200 + "}",
    "{\"type\":\"cut\",\"deal\":1,\"value\":\"" + "0" * 70_000 + "\"}",  # over 64 KiB
    "\x00\x01\x02", b"", b"\x00\xff", b"{\"type\":\"ping\"}",
]
"""Frames that are not a JSON object of the protocol (text, or bytes: a binary frame)."""

HUGE_FRAMES: list[str | bytes] = [
    "{\"type\":\"act\",\"action\":" + "[" * 5000 + "]" * 5000 + "}",
    "[" * 30000, "{\"a\":" * 3000 + "1" + "}" * 3000,
]
"""Frames nested deeper than Python's ``json`` can parse (RecursionError): the JSON
bounds of issue 10's input part (branch h-inputs) refuse them, and the bodies below."""
HUGE_BODIES: list[bytes] = [b"[" * 5000, b"{\"seats\":" + b"[" * 5000 + b"]" * 5000 + b"}",
                            b"{\"name\":" + b"9" * 5000 + b"}"]
"""Request bodies nested as deep, or with a number of more digits than Python's
``int`` reads (ValueError outside ``json``'s own errors)."""
VALID_FRAMES: list[dict[str, Any]] = [
    {"type": "hello", "last_seq": Slot("seq")}, {"type": "hello", "last_seq": Slot("seq", -2)},
    {"type": "act", "action": Slot("legal", 0), "seq": Slot("seq")},
    {"type": "act", "action": Slot("legal", 1), "seq": Slot("seq")},
    {"type": "act", "action": Slot("legal", 2)},
    {"type": "cut", "deal": Slot("deal"), "value": Slot("hex", 32),
     "commitment": Slot("commitment")},
    {"type": "ping"},
]
"""Frames the protocol accepts (when the table is in the right state)."""


def _pad_template() -> dict[str, Any]:
    return {"pad": Slot("pad"), "entry": {"taken": {"JS": 0, "JC": 1, "JD": 1, "JH": 2}}}


@dataclass(frozen=True)
class Endpoint:
    """A route: ``method``, ``path`` (``{table}`` and ``{seat}`` filled in), body fields
    and their candidate values (a JSON object)."""

    method: str
    path: str
    fields: dict[str, list[Any]] = field(default_factory=dict)


SEATS: list[Any] = [0, 1, 2, 3, 4, 5, -1, 999, 1000, "a", "", "00", "0x1", "%30"]
NAMES: list[Any] = ["Ann", "", "a" * 24, "a" * 200, "Zoë", "<b>x</b>", "'; DROP TABLE", *WEIRD]
PRESET_NAMES: list[Any] = ["polignac", "polignac-fr", "slobberhannes", "knaves",
                           "bassadewitz", "pollack", "hearts", "", "POLIGNAC", *WEIRD[:10]]
SEAT_LISTS: list[Any] = [
    [{"kind": "you"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "random"},
     {"kind": "open"}],
    [{"kind": "you"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}],
    [{"kind": "you"}] * 4, [{"kind": "bot"}] * 4, [{"kind": "you"}],
    [{"kind": "you"}, {"kind": "bot", "level": "expert"}, {"kind": "bot"}, {"kind": "bot"}],
    [{"kind": "you"}, {"kind": "bot", "level": 3}, {"kind": "bot"}, {"kind": "bot"}],
    [{"kind": "you"}] + [{"kind": "bot"}] * 200, [], [None], ["you"], *WEIRD[:8],
]
OVERRIDES: list[Any] = [
    {}, {"threshold": 10}, {"threshold": 0}, {"threshold": 10**9}, {"threshold": "10"},
    {"direction": "counter-clockwise"}, {"direction": "up"}, {"declaration": "none"},
    {"contract_points": 5}, {"contract_points": -1}, {"nope": 1}, {"threshold": None},
    *WEIRD[:8],
]
USERNAMES: list[Any] = ["fuzzer", "FUZZER", "ab", "a" * 21, "admin", "a b", "ü" * 5, "",
                       *WEIRD[:8]]
PASSWORDS: list[Any] = ["password1", "short", "x" * 257, "x" * 5000, "", *WEIRD[:8]]
CODES: list[Any] = ["AAAA-BBBB-CCCC-DDDD", "", "0123456789abcdef", "x" * 200, *WEIRD[:8]]
CREDENTIALS: list[Any] = [
    {}, {"id": "AAAA", "rawId": "AAAA", "type": "public-key",
         "response": {"clientDataJSON": "e30", "authenticatorData": "AAAA", "signature": ""}},
    {"response": {"clientDataJSON": "x" * 5000}}, {"response": None}, *WEIRD[:8]]
NUMS: list[Any] = ["1", "2", "8", "32", "0", "-1", "²", "١", "٣٢", "¹", "9" * 30, "1.5", "x",
                   "", " 1", "\u00a0"]
"""Numbers as a client writes them in a path or query: good ones, then Unicode digits
(``str.isdigit()`` takes them, ``int()`` does not, or reads another number) and others."""
CONTROLS: list[Any] = [
    {"kind": "realtime", "base": 180, "increment": 2}, {"kind": "move", "seconds": 30},
    {"kind": "realtime", "base": 180, "increment": 2}, {"kind": "days", "days": 3},
    {"kind": "none"}, {"kind": "realtime", "base": 10**9, "increment": -1},
    {"kind": "move", "seconds": "30"}, {"kind": "x"}, {"base": 180}, "3+2", "", None, 5]
"""Time controls as a client writes them (``TimeControl.parse``)."""
SUBSCRIPTIONS: list[Any] = [
    {"endpoint": "https://push.example.com/send/abc",
     "keys": {"p256dh": "B" + "A" * 86, "auth": "A" * 22}},
    {"endpoint": "http://127.0.0.1/x", "keys": {"p256dh": "x", "auth": "y"}},
    {"endpoint": "https://10.0.0.1/x", "keys": {"p256dh": "B" + "A" * 86, "auth": "A" * 22}},
    {"endpoint": "https://push.example.com/" + "a" * 3000, "keys": {}},
    {}, None, "x", *WEIRD[:4]]
"""Push subscriptions: one a browser could send, and ones the server must refuse."""
TOURNAMENT_IDS: list[Any] = [Slot("tournament"), Slot("tournament"), "nope", "", "a" * 33,
                             "..", "ü", "x" * 500, "1"]
ODD_NUMS: list[Any] = [n for n in NUMS if n not in ("1", "2", "8", "32")] + ["99"]
"""The same, without numbers a route could take for real work (a deal's analysis)."""

ENDPOINTS: list[Endpoint] = [
    Endpoint("POST", "/api/play-now", {"preset": PRESET_NAMES, "name": NAMES}),
    Endpoint("POST", "/api/learn", {"name": NAMES}),
    # Find players (seek_routes.py): a request may be stored, replaced, cancelled
    Endpoint("POST", "/api/seeks", {"preset": PRESET_NAMES, "players": [3, 4, 5, 0, -1, 99,
                                                                       "4", 4.5, True, None],
                                    "rated": [True, False, None, 1, "no"],
                                    "bots_after": [None, 30, 60, 120, 0, 45, -30, "30", True,
                                                   10**12],
                                    "deals": [None, 1, 2, 0, "1", True],
                                    "level": ["easy", "hard", "expert", "", "nope", 3, None],
                                    "name": NAMES}),
    Endpoint("POST", "/api/seeks/cancel"),
    Endpoint("POST", "/api/tables", {"preset": PRESET_NAMES, "players": [None, 3, 4, 5, 6, 0,
                                                                         -1, 99, "4", 4.5],
                                     "seats": SEAT_LISTS, "overrides": OVERRIDES,
                                     "name": NAMES, "private": [True, False, None, 1, "no"],
                                     "hints": [True, False, None, 0, "yes"]}),
    Endpoint("POST", "/tables/{table}/join?seat={seat}&token={token}", {"name": NAMES}),
    Endpoint("POST", "/tables/{table}/seats/{seat}/take", {"name": NAMES}),
    Endpoint("POST", "/tables/{table}/seats/{seat}/approve"),
    Endpoint("POST", "/tables/{table}/seats/{seat}/refuse"),
    Endpoint("POST", "/tables/{table}/start"),
    Endpoint("POST", "/tables/{table}/rematch"),
    Endpoint("POST", "/tables/{table}/hint"),
    Endpoint("POST", "/api/replay", {"format": [Slot("record")], "deals": [[], None, 1]}),
    Endpoint("POST", "/api/replay?from={num}&count={num}", {"format": [Slot("record")]}),
    Endpoint("POST", "/api/analyze?samples={odd}", {"players": [None, ["a"]]}),
    Endpoint("GET", "/tables/{table}/deals/{odd}/analysis?samples={num}"),
    Endpoint("GET", "/health?window={num}"), Endpoint("GET", "/rules/{preset}?lang={num}"),
    Endpoint("POST", "/api/scorepad/score", {"pad": [Slot("pad"), {}, None, *WEIRD[:6]],
                                             "entry": [{"taken": {"JS": 0, "JC": 1, "JD": 1,
                                                                  "JH": 2}},
                                                       {"taken": {}}, None, {}, *WEIRD[:6]],
                                             "undo": [True, False, None, 1]}),
    Endpoint("GET", "/tables/{table}"), Endpoint("GET", "/tables/{table}/record.json"),
    Endpoint("GET", "/tables/{table}/invites"), Endpoint("GET", "/tables/{table}/request"),
    Endpoint("GET", "/tables/{table}/join?seat={seat}&token={token}"),
    Endpoint("GET", "/tables/{table}/replay"), Endpoint("GET", "/tables/{table}/rules"),
    Endpoint("GET", "/api/tables"), Endpoint("GET", "/api/presets"),
    Endpoint("GET", "/api/seeks"),
    Endpoint("GET", "/api/scorepad/presets"), Endpoint("GET", "/rules/{preset}"),
    Endpoint("GET", "/i18n/{lang}.json"), Endpoint("GET", "/"),
    # accounts (issue 20): sign-up may succeed; every refusal leaves the tables alone
    Endpoint("POST", "/api/account/signup", {"username": USERNAMES, "password": PASSWORDS}),
    Endpoint("POST", "/api/account/signin", {"username": USERNAMES, "password": PASSWORDS}),
    Endpoint("POST", "/api/account/recover", {"username": USERNAMES, "code": CODES,
                                              "password": PASSWORDS}),
    Endpoint("POST", "/api/account/signout"),
    Endpoint("POST", "/api/account/sessions/end", {"id": CODES, "all": [True, False, 1, None]}),
    Endpoint("POST", "/api/account/delete", {"password": PASSWORDS}),
    Endpoint("POST", "/api/account/password", {"password": PASSWORDS,
                                               "new_password": PASSWORDS}),
    Endpoint("POST", "/api/account/passkeys/rename", {"id": CODES, "name": [
        "Laptop", "", " ", "x" * 65, "\u202e", "\x00", None, 1, ["x"]]}),
    Endpoint("POST", "/api/account/passkeys/remove", {"id": CODES}),
    Endpoint("POST", "/api/account/passkeys/signin/options"),
    Endpoint("POST", "/api/account/passkeys/signin", {"credential": CREDENTIALS}),
    Endpoint("POST", "/api/account/passkeys/register/options"),
    Endpoint("POST", "/api/account/passkeys/register", {"credential": CREDENTIALS}),
    Endpoint("GET", "/api/account"), Endpoint("GET", "/api/account/sessions"),
    Endpoint("GET", "/api/account/export"), Endpoint("GET", "/api/players/{lang}?page={seat}"),
    Endpoint("GET", "/api/leaderboard?pool={preset}"), Endpoint("GET", "/players/{lang}"),
    Endpoint("GET", "/api/my-turn"),
    # Arenas (tournament_routes.py): created by a signed-in fuzzer, then joined and left
    Endpoint("POST", "/api/tournaments", {"preset": PRESET_NAMES, "seats": [3, 4, 5, 10, 2, 11,
                                                                          "4", 4.5, None],
                                          "time_control": CONTROLS,
                                          "starts_at": [Slot("now"), Slot("now", 600),
                                                        Slot("now", -3600), 0, -1, 1e308,
                                                        "now", None, True],
                                          "minutes": [10, 60, 720, 9, 721, 0, "60", None],
                                          "rated": [True, False, None, 1, "no"],
                                          "bot_wait": [None, 10, 600, 9, 601, "30", True]}),
    Endpoint("POST", "/api/tournaments/{tid}/join"),
    Endpoint("POST", "/api/tournaments/{tid}/pause"),
    Endpoint("POST", "/api/tournaments/{tid}/leave"),
    Endpoint("GET", "/api/tournaments"), Endpoint("GET", "/api/tournaments/{tid}"),
    Endpoint("GET", "/tournaments/{tid}"),
    # Web Push (push_routes.py): only https endpoints of public hosts are kept
    Endpoint("POST", "/api/push/subscribe", {"subscription": SUBSCRIPTIONS,
                                             "lang": ["en", "fr", "de", "xx", "", None, 5]}),
    Endpoint("POST", "/api/push/unsubscribe", {"endpoint": [
        "https://push.example.com/a", "", None, 5, "x" * 5000]}),
    Endpoint("GET", "/api/push/key"), Endpoint("GET", "/api/push/subscriptions"),
    # People (follow_routes.py, block_routes.py, invite_routes.py)
    Endpoint("POST", "/api/follows/{person}"), Endpoint("DELETE", "/api/follows/{person}"),
    Endpoint("GET", "/api/follows"), Endpoint("GET", "/api/online"),
    Endpoint("GET", "/api/account/presence"),
    Endpoint("POST", "/api/account/presence", {"visible": [True, False, None, 1, "no"]}),
    Endpoint("GET", "/api/blocks"),
    Endpoint("POST", "/api/blocks", {"name": USERNAMES, "block": [True, False, None, 1, "x"]}),
    Endpoint("POST", "/tables/{table}/invite", {"name": USERNAMES}),
    Endpoint("GET", "/api/invites"), Endpoint("GET", "/api/invites/tables"),
    Endpoint("POST", "/api/invites/decline", {"id": CODES}),
    Endpoint("GET", "/tables/{table}/invited/{token}"),
    Endpoint("POST", "/tables/{table}/invited/{token}", {"name": NAMES}),
    # A stranger sits in a public open seat (seat_routes.py)
    Endpoint("POST", "/tables/{table}/seats/{seat}/sit", {"name": NAMES}),
    Endpoint("GET", "/api/commitments?after={num}&limit={odd}"),
    Endpoint("GET", "/tables/{table}/commitments?after={odd}&limit={num}"),
]
"""Every POST route with its body's fields, and the GET routes that read input."""

TABLE_IDS: list[Any] = [Slot("table"), Slot("table"), Slot("table"), "nope", "", "a" * 33,
                        "..", "%2e%2e", "a b", "ü", "x" * 500]
TOKENS: list[Any] = ["", "x", "A" * 43, "A" * 300, Slot("hex", 64)]
LANGS: list[Any] = ["en", "fr", "de", "xx", "", "..", "en/../fr"]
ORIGINS: list[str | None] = [None, None, None, f"http://{HOST}", "http://evil.example", "null",
                             "", "file://", f"https://{HOST}"]
HOSTS: list[str] = [HOST] * 12 + ["evil.example", "", f"{HOST}:80", f"{HOST}:99999",
                                  "localhost:8000"]
CONTENT_TYPES: list[str | None] = ["application/json"] * 4 + [
    None, "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded",
    "multipart/form-data"]
"""Mostly JSON, which the app takes (anything else with a body is ``415 not-json``)."""
BODY_MUTATIONS: list[bytes] = [b"", b"{", b"[]", b"null", b"\"x\"", b"{\"a\":", b"\xff\xfe",
                               b"{}" * 9000, b"[" * 100 + b"]" * 100, b"a=b&c", b"{\"preset\":NaN}"]


# ------------------------------------------------------------------ templates


@dataclass(frozen=True)
class FrameTemplate:
    """One frame to send: a message (dict with slots), or raw text/bytes."""

    message: dict[str, Any] | None = None
    raw: str | bytes | None = None


@dataclass(frozen=True)
class RequestTemplate:
    """One request: ``endpoint``, path parts, body fields (``fields``; slots allowed) or a
    raw ``body``, headers."""

    endpoint: Endpoint
    parts: dict[str, Any]
    fields: dict[str, Any] | None
    body: bytes | None
    origin: str | None
    host: str
    content_type: str | None
    cookies: str  # "seat" (the session's cookies), "none", "other" (a stranger's), "bad",
    # "digits" (seat and identity cookies that start with Unicode digits)


def _fields_of(kind: Any) -> list[tuple[str, list[Any]]]:
    return list(FRAME_FIELDS.get(kind, {}).items()) if isinstance(kind, str) else []


def random_frame(rng: random.Random, huge: bool = True) -> FrameTemplate:
    """A frame template drawn with ``rng`` from the pools (``huge``: with
    :data:`HUGE_FRAMES` among them)."""
    r = rng.random()
    if r < 0.04:
        if huge and rng.random() < 0.05:
            return FrameTemplate(raw=rng.choice(HUGE_FRAMES))
        return FrameTemplate(raw=rng.choice(RAW_FRAMES))
    if r < 0.2:
        return FrameTemplate(message=rng.choice(VALID_FRAMES))
    kind = rng.choice(list(FRAME_FIELDS)) if r < 0.95 else rng.choice(TYPES)
    message: dict[str, Any] = {"type": kind}
    for name, pool in _fields_of(kind):
        if rng.random() < 0.9:
            message[name] = rng.choice(pool)
    if rng.random() < 0.08:
        message[rng.choice(["extra", "type", "seat", "__proto__", "x" * 50])] = \
            rng.choice(WEIRD)
    if rng.random() < 0.03:
        del message["type"]
    return FrameTemplate(message=message)


def random_request(rng: random.Random, huge: bool = True) -> RequestTemplate:
    """A request template drawn with ``rng`` from the pools (``huge``: with
    :data:`HUGE_BODIES` among them)."""
    endpoint = rng.choice(ENDPOINTS)
    parts = {"table": rng.choice(TABLE_IDS), "seat": rng.choice(SEATS + NUMS[4:10]),
             "token": rng.choice(TOKENS), "preset": rng.choice(PRESET_NAMES[:8]),
             "lang": rng.choice(LANGS), "num": rng.choice(NUMS), "odd": rng.choice(ODD_NUMS),
             "tid": rng.choice(TOURNAMENT_IDS), "person": rng.choice(USERNAMES)}
    fields: dict[str, Any] | None = {name: rng.choice(pool) for name, pool
                                     in endpoint.fields.items() if rng.random() < 0.85}
    body = None
    if rng.random() < 0.06:
        body, fields = rng.choice(BODY_MUTATIONS + (HUGE_BODIES if huge else [])), None
    return RequestTemplate(endpoint, parts, fields, body, rng.choice(ORIGINS), rng.choice(HOSTS),
                           rng.choice(CONTENT_TYPES),
                           rng.choice(["seat", "seat", "seat", "none", "other", "bad",
                                       "digits"]))


def _pool(values: list[Any]) -> st.SearchStrategy[Any]:
    """Hypothesis: a value of ``values``, now and then any small JSON value."""
    anything = st.recursive(st.none() | st.booleans() | st.integers() | st.floats()
                            | st.text(max_size=20),
                            lambda inner: st.lists(inner, max_size=3)
                            | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                            max_leaves=6)
    return st.sampled_from(values) | anything


@st.composite
def frame_templates(draw: st.DrawFn, huge: bool = False) -> FrameTemplate:
    """Hypothesis strategy of frame templates, from the pools of :func:`random_frame`."""
    if draw(st.integers(0, 24)) == 0:
        raw = st.sampled_from(RAW_FRAMES) | st.text(max_size=40) | st.binary(max_size=20)
        return FrameTemplate(raw=draw(st.sampled_from(HUGE_FRAMES) if huge else raw))
    if draw(st.integers(0, 5)) == 0:
        return FrameTemplate(message=draw(st.sampled_from(VALID_FRAMES)))
    kind = draw(st.sampled_from(list(FRAME_FIELDS)) | st.sampled_from(TYPES))
    message: dict[str, Any] = {"type": kind}
    for name, pool in _fields_of(kind):
        if draw(st.integers(0, 9)):
            message[name] = draw(_pool(pool))
    extra = draw(st.dictionaries(st.text(max_size=8), _pool(WEIRD), max_size=1))
    return FrameTemplate(message={**extra, **message})


@st.composite
def request_templates(draw: st.DrawFn, huge: bool = False) -> RequestTemplate:
    """Hypothesis strategy of request templates, from the pools of :func:`random_request`."""
    endpoint = draw(st.sampled_from(ENDPOINTS))
    parts = {"table": draw(_pool(TABLE_IDS)), "seat": draw(_pool(SEATS + NUMS[4:10])),
             "token": draw(st.sampled_from(TOKENS)),
             "preset": draw(st.sampled_from(PRESET_NAMES[:8])),
             "lang": draw(st.sampled_from(LANGS)), "num": draw(st.sampled_from(NUMS)),
             "odd": draw(st.sampled_from(ODD_NUMS)), "tid": draw(_pool(TOURNAMENT_IDS)),
             "person": draw(_pool(USERNAMES))}
    fields = {name: draw(_pool(pool)) for name, pool in endpoint.fields.items()
              if draw(st.integers(0, 6))}
    bodies = st.sampled_from(HUGE_BODIES) if huge else (
        st.sampled_from(BODY_MUTATIONS) | st.binary(max_size=30))
    body = draw(bodies) if huge or draw(st.integers(0, 15)) == 0 else None
    return RequestTemplate(endpoint, parts, None if body is not None else fields, body,
                           draw(st.sampled_from(ORIGINS)), draw(st.sampled_from(HOSTS)),
                           draw(st.sampled_from(CONTENT_TYPES)),
                           draw(st.sampled_from(["seat", "none", "other", "bad", "digits"])))


# ------------------------------------------------------------------ the harness


@dataclass
class Stats:
    """What a fuzz run saw."""

    frames: int = 0
    requests: int = 0
    refused_frames: int = 0
    refused_requests: int = 0
    responses_5xx: int = 0
    """Answers 5xx, those of :attr:`busy_5xx` included."""
    busy_5xx: Counter[str] = field(default_factory=Counter)
    """Answers ``503`` whose rule says the server was too busy or too slow now (``busy``,
    ``job-timeout``): ``"RULE METHOD ROUTE"`` -> count (also in :attr:`responses_5xx`)."""
    crashes: int = 0
    state_changes: int = 0
    closed_with_error: int = 0
    tables_created: int = 0
    acts_accepted: int = 0
    cuts_accepted: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    """Frames per message type (``raw``: not a protocol object), requests per route."""
    problems: list[str] = field(default_factory=list)

    def problem(self, kind: str, what: str) -> None:
        """Count one ``kind`` (``crashes``, ``state_changes``, ``responses_5xx``)."""
        setattr(self, kind, getattr(self, kind) + 1)
        if len(self.problems) < 20:
            self.problems.append(f"{kind}: {what[:400]}")


class ErrorLog(logging.Handler):
    """Counts the server's log records at ERROR or above (an exception it caught)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(f"{record.name}: {record.getMessage()} {record.exc_text or ''}")


class AppCrash(Exception):
    """The app raised out of its ASGI call."""


def _headers(host: str, origin: str | None, cookie: str, content_type: str | None = None
             ) -> list[tuple[bytes, bytes]]:
    out = [(b"host", host.encode())]
    if origin is not None:
        out.append((b"origin", origin.encode()))
    if cookie:  # as a browser sends it: bytes the server reads as Latin-1 ("²" stays "²")
        try:
            out.append((b"cookie", cookie.encode("latin-1")))
        except UnicodeEncodeError:
            out.append((b"cookie", cookie.encode()))
    if content_type:
        out.append((b"content-type", content_type.encode()))
    return out


class Session:
    """One WebSocket connection to a table, driven frame by frame."""

    def __init__(self, harness: Harness, table_id: str, cookie: str, seat: int | None) -> None:
        self.harness = harness
        self.table_id = table_id
        self.seat = seat
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.outgoing: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.closed = False
        self.accepted = False
        self.denied: int | None = None
        self.seq = 0
        self.legal: list[str] = []
        self.deal = 0
        self.commitment = ""
        self.syncs = 0
        scope = {"type": "websocket", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "scheme": "ws", "path": f"/tables/{table_id}/ws",
                 "raw_path": f"/tables/{table_id}/ws".encode(), "query_string": b"",
                 "root_path": "", "headers": _headers(HOST, None, cookie),
                 "client": ("127.0.0.1", 50000), "server": (HOST, 80), "subprotocols": [],
                 "extensions": {"websocket.http.response": {}}, "state": {}}
        self.incoming.put_nowait({"type": "websocket.connect"})
        self.task = asyncio.get_running_loop().create_task(
            harness.app(scope, self.incoming.get, self.outgoing.put))
        self.task.add_done_callback(lambda _task: self.outgoing.put_nowait(_ENDED))

    async def _next(self, timeout: float) -> dict[str, Any] | None:
        """The app's next message, or None when the app ended.

        Raises:
            AppCrash: the app raised, or said nothing for ``timeout`` seconds.
        """
        try:
            async with asyncio.timeout(timeout):
                message = await self.outgoing.get()
        except TimeoutError:
            raise AppCrash(f"no answer in {timeout} s") from None
        if message is _ENDED:
            self._raise_if_crashed()
            return None
        return message

    def _raise_if_crashed(self) -> None:
        if self.task.done() and not self.task.cancelled() and self.task.exception() is not None:
            raise AppCrash(f"the handler raised {self.task.exception()!r}")

    async def open(self) -> bool:
        """Wait for the handshake's answer; True when accepted."""
        message = await self._next(10)
        if message is None or message["type"] == "websocket.close":
            self.closed = True
            return False
        if message["type"] == "websocket.http.response.start":
            self.denied = message["status"]
            self.closed = True
            return False
        self.accepted = message["type"] == "websocket.accept"
        return self.accepted

    def _learn(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind in ("state", "event"):
            self.seq = max(self.seq, frame.get("seq", 0))
            view = frame.get("view")
            if view is not None:
                self.legal = (view.get("deal") or {}).get("legal") or []
        elif kind == "commitment":
            self.deal, self.commitment = frame["deal"], frame["commitment"]

    async def send(self, data: str | bytes) -> tuple[list[dict[str, Any]], bool]:
        """Send one frame, then a frame of an unknown type naming itself; the frames
        answered before that one's error, and whether the connection closed meanwhile.

        Raises:
            AppCrash: the app raised, or did not answer.
        """
        if isinstance(data, bytes):
            self.incoming.put_nowait({"type": "websocket.receive", "bytes": data})
        else:
            self.incoming.put_nowait({"type": "websocket.receive", "text": data})
        self.syncs += 1
        marker = f"~sync {self.syncs}"
        self.incoming.put_nowait({"type": "websocket.receive",
                                  "text": f"{{\"type\":\"{marker}\"}}"})
        answers: list[dict[str, Any]] = []
        while True:
            message = await self._next(10)
            if message is None or message["type"] == "websocket.close":
                self.closed = True
                await asyncio.wait({self.task}, timeout=2)  # it ends after its close
                self._raise_if_crashed()
                return answers, True
            text = message["text"]
            if marker in text and '"unknown-type"' in text:
                return answers, False
            frame = json.loads(text)
            self._learn(frame)
            answers.append(frame)

    async def close(self) -> None:
        """Disconnect and wait for the handler to end.

        Raises:
            AppCrash: the app raised, or did not end.
        """
        self.incoming.put_nowait({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait({self.task}, timeout=10)
        if not self.task.done():
            raise AppCrash("the handler did not end after a disconnect")
        self._raise_if_crashed()


_ENDED: dict[str, Any] = {"type": "~ended"}
"""Put on a session's queue when its handler ends."""


class Harness:
    """The app in-process, its lifespan started; requests and sessions against it."""

    def __init__(self, config: ServerConfig, rng: random.Random) -> None:
        self.config = config
        self.app = create_app(config)
        self.hub: Hub = self.app.state.hub
        self.rng = rng
        self.stats = Stats()
        self.cookies: dict[str, str] = {}  # this browser's cookies
        self.stranger = "polignac_id=" + "s" * 43
        self.table_id = ""
        self.tournament_id = ""
        self.record: dict[str, Any] | None = None
        self.session: Session | None = None
        self.log = ErrorLog()
        self._lifespan: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._lifespan_out: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._lifespan_task: asyncio.Task[None] | None = None
        self.unloaded_tables = 0
        self.unloaded_events = 0

    async def start(self) -> None:
        """Run the app's startup (database, migrations).

        Raises:
            RuntimeError: the startup failed.
        """
        logging.getLogger().addHandler(self.log)
        self._lifespan_task = asyncio.get_running_loop().create_task(self.app(
            {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}},
            self._lifespan.get, self._lifespan_out.put))
        await self._lifespan.put({"type": "lifespan.startup"})
        message = await self._lifespan_out.get()
        if message["type"] != "lifespan.startup.complete":
            raise RuntimeError(f"startup failed: {message}")

    async def stop(self) -> None:
        """Close the session and run the app's shutdown (writes what waits)."""
        if self.session is not None and not self.session.closed:
            with contextlib.suppress(AppCrash):
                await self.session.close()
        await self._lifespan.put({"type": "lifespan.shutdown"})
        await self._lifespan_out.get()
        logging.getLogger().removeHandler(self.log)

    # --------------------------------------------------------------- HTTP

    def _cookie_header(self, which: str) -> str:
        if which == "none":
            return ""
        if which == "other":
            return self.stranger
        if which == "bad":
            return f"polignac_{self.table_id}=0.{'x' * 43}; polignac_id=!!"
        if which == "digits":
            return f"polignac_{self.table_id}=²0.{'x' * 43}; polignac_id=¹{'x' * 42}"
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    async def request(self, method: str, path: str, body: bytes = b"",
                      headers: list[tuple[bytes, bytes]] | None = None
                      ) -> tuple[int, bytes, list[tuple[bytes, bytes]]]:
        """One request to the app: its status, body and headers.

        Raises:
            AppCrash: the app raised, or did not answer.
        """
        target, _, query = path.partition("?")
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": method, "scheme": "http", "path": unquote(target),
                 "raw_path": target.encode("utf-8", "surrogatepass"),
                 "query_string": query.encode("utf-8", "surrogatepass"), "root_path": "",
                 "headers": headers if headers is not None else _headers(HOST, None, ""),
                 "client": ("127.0.0.1", 50000), "server": (HOST, 80), "state": {}}
        sent = False
        out: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.get_running_loop().create_future()  # the client stays: nothing
            return {"type": "http.disconnect"}  # more comes (the app is cancelled first)

        async def send(message: dict[str, Any]) -> None:
            out.append(message)

        try:  # above every limit of the server's own (a hint's job is stopped at 30 s,
            # after its wait in the pool's queue, which a loaded machine makes long)
            await asyncio.wait_for(self.app(scope, receive, send), REQUEST_SECONDS)
        except TimeoutError:
            raise AppCrash(f"{method} {path}: no answer in {REQUEST_SECONDS} s") from None
        except Exception as exc:
            raise AppCrash(f"{method} {path}: {exc!r}") from None
        start = next((m for m in out if m["type"] == "http.response.start"), None)
        if start is None:
            raise AppCrash(f"{method} {path}: no response")
        data = b"".join(m.get("body", b"") for m in out if m["type"] == "http.response.body")
        return start["status"], data, start.get("headers", [])

    def _take_cookies(self, headers: list[tuple[bytes, bytes]]) -> None:
        for name, value in headers:
            if name == b"set-cookie":
                pair = value.decode().split(";", 1)[0]
                key, _, val = pair.partition("=")
                if "max-age=0" in value.decode().lower() or val in ("", '""'):
                    self.cookies.pop(key, None)
                else:
                    self.cookies[key] = val

    async def new_table(self) -> None:
        """A fresh Play-now table for this browser, and a session at it.

        Raises:
            AppCrash: as :meth:`request`.
        """
        if self.session is not None and not self.session.closed:
            await self.session.close()
        self.session = None
        self.cookies = {k: v for k, v in self.cookies.items() if k == "polignac_id"}
        status, body, headers = await self.request(
            "POST", "/api/play-now", b"{}", _headers(HOST, None, self._cookie_header("seat")))
        if status != 200:
            raise AppCrash(f"Play now answered {status}: {body[:200]!r}")
        self._take_cookies(headers)
        self.table_id = json.loads(body)["id"]
        self.record = None
        await self.connect()

    async def connect(self) -> None:
        """A new session at the current table (with this browser's cookies), after hello.

        Raises:
            AppCrash: as :meth:`request`.
        """
        if self.session is not None and not self.session.closed:
            await self.session.close()
        table = self.hub.tables.get(self.table_id)
        seat = None if table is None else self.hub.seat_of(table, self.cookies)
        self.session = Session(self, self.table_id, self._cookie_header("seat"), seat)
        if await self.session.open() and self.rng.random() < 0.9:
            await self.session.send(json.dumps({"type": "hello", "last_seq": 0}))

    # --------------------------------------------------------------- filling templates

    def fill(self, value: Any) -> Any:
        """``value`` with its slots replaced by what the live table supplies."""
        if isinstance(value, Slot):
            return self._slot(value)
        if isinstance(value, dict):
            return {k: self.fill(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.fill(v) for v in value]
        return value

    def _slot(self, slot: Slot) -> Any:
        s = self.session
        if slot.what == "legal":
            legal = s.legal if s is not None else []
            return legal[slot.n % len(legal)] if legal else "pass"
        if slot.what == "seq":
            return (s.seq if s is not None else 0) + slot.n
        if slot.what == "deal":
            return (s.deal if s is not None else 1) + slot.n
        if slot.what == "commitment":
            return s.commitment if s is not None else ""
        if slot.what == "hex":
            return "".join(self.rng.choice(HEX) for _ in range(slot.n))
        if slot.what == "table":
            return self.table_id
        if slot.what == "tournament":
            return self.tournament_id or "none-yet"
        if slot.what == "now":
            return int(self.hub.clock.time()) + slot.n
        if slot.what == "record":
            return self.record if self.record is not None else {}
        if slot.what == "pad":
            return {"preset": "polignac", "overrides": {"threshold": 10},
                    "names": ["Ann", "Bob", "Cy", "Di"], "first_dealer": 0,
                    "revoke_penalty": None, "entries": []}
        raise ValueError(slot.what)

    def render_frame(self, template: FrameTemplate) -> str | bytes:
        """The frame to send for ``template``."""
        if template.raw is not None:
            return template.raw
        return json.dumps(self.fill(template.message), ensure_ascii=False)

    # --------------------------------------------------------------- checks

    def _table(self) -> GameTable | None:
        return self.hub.tables.get(self.table_id)

    @staticmethod
    def _seat_rows(table: GameTable | None) -> Any:
        if table is None:
            return None
        return tuple((s.kind, s.name, s.token_hash, s.invite_hash, s.take_hash, s.take_name,
                      s.take_approved, s.holder_hash) for s in table.seats) + (
                          table.rematch_id, table.paused and table.match.finished)

    def _tables(self) -> int:
        """The tables in memory, less those an arena made meanwhile (its runner seats the
        fuzzer with bots after the arena's wait, whatever the request being checked)."""
        return len(self.hub.tables) - self.app.state.arena.created

    async def run_frame(self, template: FrameTemplate) -> None:
        """Send one frame at the current table and check what it did."""
        stats = self.stats
        if self.session is None or self.session.closed:
            await self.connect()
        session = self.session
        assert session is not None
        if not session.accepted:  # refused at the handshake (a bad cookie): a new table
            await self.new_table()
            session = self.session
            assert session is not None
        data = self.render_frame(template)
        table = self._table()
        tables = self._tables()
        events = len(table.events) if table is not None else 0
        pending = table.pending if table is not None else None
        cut_before = pending is not None and session.seat in pending.cuts
        stats.frames += 1
        kind = template.message.get("type", "none") if template.message is not None else "raw"
        known = isinstance(kind, str) and (kind in FRAME_FIELDS or kind == "raw")
        stats.kinds[kind if known else "other type"] += 1
        try:
            answers, closed = await session.send(data)
        except AppCrash as exc:
            stats.problem("crashes", f"frame {data[:200]!r}: {exc}")
            self.session = None
            return
        errors = [a for a in answers if a.get("type") == "error"]
        if errors:
            stats.refused_frames += 1
        if closed:
            if errors:
                stats.closed_with_error += 1
            else:
                stats.problem("crashes", f"closed without an error frame after {data[:200]!r}")
        mine = [ev for ev in (table.events[events:] if table is not None else [])
                if ev.kind == "act" and ev.seat == session.seat and session.seat is not None]
        is_act = isinstance(template.message, dict) and template.message.get("type") == "act"
        if mine and (errors or not is_act or len(mine) > 1):
            stats.problem("state_changes", f"{data[:200]!r} answered {errors[:1]} but "
                                           f"committed {[ev.action for ev in mine]}")
        elif mine:
            stats.acts_accepted += 1
        if table is not None and pending is not None and table.pending is pending:
            cut_after = session.seat in pending.cuts
            accepted = any(a.get("type") == "cut" and a.get("accepted") for a in answers)
            stats.cuts_accepted += accepted
            if cut_after != cut_before and not accepted:
                stats.problem("state_changes", f"{data[:200]!r} changed the cuts, answered "
                                               f"{errors[:1]}")
        if self._tables() != tables:
            stats.problem("state_changes", f"{data[:200]!r} changed the number of tables")
        if table is not None and table.match.finished:
            await self.new_table()

    def render_request(self, template: RequestTemplate) -> tuple[str, str, bytes,
                                                                list[tuple[bytes, bytes]]]:
        """Method, path, body and headers for ``template``."""
        parts = {k: self.fill(v) for k, v in template.parts.items()}
        path = template.endpoint.path.format(**{
            k: quote(str(v), safe="", errors="surrogatepass") for k, v in parts.items()})
        if template.body is not None:
            body = template.body
        elif template.endpoint.method == "POST":
            fields = self.fill(template.fields or {})
            if "format" in fields:  # the replay endpoint: the table's record, mutated
                base = fields.pop("format")
                fields = {**(base if isinstance(base, dict) else {"format": base}), **fields}
            body = json.dumps(fields).encode()
        else:
            body = b""
        return (template.endpoint.method, path, body,
                _headers(template.host, template.origin, self._cookie_header(template.cookies),
                         template.content_type))

    async def run_request(self, template: RequestTemplate) -> None:
        """Send one request and check what it did."""
        stats = self.stats
        method, path, body, headers = self.render_request(template)
        table = self._table()
        tables = self._tables()
        rows = self._seat_rows(table)
        stats.requests += 1
        stats.kinds[f"{method} {template.endpoint.path.split('?')[0]}"] += 1
        try:
            status, data, response_headers = await self.request(method, path, body, headers)
        except AppCrash as exc:
            stats.problem("crashes", f"{method} {path} {body[:200]!r}: {exc}")
            return
        busy = busy_rule(status, data)
        if busy is not None:  # a 5xx that says "too slow now", counted apart
            stats.responses_5xx += 1
            stats.busy_5xx[f"{busy} {method} {template.endpoint.path.split('?')[0]}"] += 1
        elif status >= 500:
            stats.problem("responses_5xx", f"{method} {path} {body[:200]!r} -> {status} "
                                           f"{data[:200]!r}")
        elif status >= 400:
            stats.refused_requests += 1
            if not data:
                stats.problem("crashes", f"{method} {path}: {status} with an empty body")
            if self._tables() != tables or self._seat_rows(self._table()) != rows:
                stats.problem("state_changes", f"{method} {path} {body[:200]!r} answered "
                                               f"{status} but changed the tables or seats")
        elif method == "POST":
            self._take_cookies(response_headers)
            if self._tables() > tables:
                stats.tables_created += 1
        if status == 200 and method == "POST" and path == "/api/tournaments":
            self.tournament_id = json.loads(data).get("id", "")
        if path.endswith("/record.json") and status == 200:
            self.record = json.loads(data)
        if status == 200 and method == "POST" and path.endswith("/rematch"):
            new = json.loads(data).get("id")
            if new:
                self.table_id = new
                await self.connect()

    async def settle(self, timeout: float = 30) -> None:
        """Close the session and wait until no table's driver runs (bots wait for the
        person at each table), so that every commit is done.

        Raises:
            AppCrash: a driver still runs after ``timeout`` seconds.
        """
        if self.session is not None and not self.session.closed:
            await self.session.close()
        try:
            await until(lambda: not any(t.driver is not None and not t.driver.done()
                                        for t in self.hub.tables.values()),
                        timeout, what="every table's driver to stop", interval=0.01)
        except AssertionError:
            raise AppCrash("a table's driver never stops") from None

    def check_database(self, path: Path) -> None:
        """After :meth:`settle`: the database holds exactly the tables and events served
        (nothing was stored for refused input)."""
        with contextlib.closing(sqlite3.connect(path)) as db:
            stored_tables = db.execute("SELECT count(*) FROM tables").fetchone()[0]
            stored_events = db.execute("SELECT count(*) FROM events").fetchone()[0]
        tables = len(self.hub.tables) + self.unloaded_tables
        events = sum(len(t.events) for t in self.hub.tables.values()) + self.unloaded_events
        if stored_tables != tables or stored_events != events:
            self.stats.problem("state_changes", f"database: {stored_tables} tables and "
                                                f"{stored_events} events, served: "
                                                f"{tables} and {events}")

    def check_log(self) -> None:
        """Every ERROR record the server logged is a crash."""
        for record in self.log.records:
            self.stats.problem("crashes", f"server log: {record}")
        self.log.records.clear()


BUSY_RULES = ("busy", "job-timeout")
"""The rules of a ``503`` that says the server is too busy or too slow now."""


def busy_rule(status: int, data: bytes) -> str | None:
    """The rule of a ``503`` answer in :data:`BUSY_RULES` (its JSON body's ``rule``),
    else None (another status, another rule, or a body that is not such JSON)."""
    if status != 503:
        return None
    try:
        rule = json.loads(data).get("rule")
    except (ValueError, AttributeError):
        return None
    return rule if rule in BUSY_RULES else None


def fuzz_config(data_dir: Path) -> ServerConfig:
    """The fuzz runs' config: every limit as served, but bots that do not wait, cut
    windows of 20 ms, and rates high enough that frames reach the handlers (the
    rate limits have their tests)."""
    return ServerConfig(data_dir=data_dir, bot_delay=0.0, trick_pause=0.0, deal_delay=0.02,
                        cut_window=0.02,
                        rate_per_second=1e9, rate_burst=10**9, create_burst=10**9,
                        create_per_minute=1e9, max_tables=400, allowed_hosts=(HOST,),
                        grace_seconds=3600)


async def run(config: ServerConfig, steps: Iterator[FrameTemplate | RequestTemplate],
              rng: random.Random, progress: Callable[[Stats], None] | None = None) -> Stats:
    """Start the app, play ``steps`` (frames at the current table, requests), stop it,
    check the database and the log; the counts.

    Raises:
        RuntimeError: the app did not start.
    """
    harness = Harness(config, rng)
    await harness.start()
    try:
        await harness.new_table()
        for i, step in enumerate(steps):
            if isinstance(step, FrameTemplate):
                await harness.run_frame(step)
            else:
                await harness.run_request(step)
            if i % 5000 == 4999:
                harness.check_log()
                if progress is not None:
                    progress(harness.stats)
            if len(harness.hub.tables) >= config.max_tables - 5:  # room for new tables
                await _forget_tables(harness)
        await harness.settle()
        harness.check_database(config.data_dir / "polignac.db")
    finally:
        await harness.stop()
    harness.check_log()
    return harness.stats


async def _forget_tables(harness: Harness) -> None:
    """Take every table but the current one out of memory (``Hub.unload``: its rows
    stay), so that creating tables goes on; the database check counts them."""
    for table in list(harness.hub.tables.values()):
        if table.id != harness.table_id and not table.subscribers \
                and await harness.hub.unload(table, "closed"):  # its driver is stopped now
            harness.unloaded_tables += 1
            harness.unloaded_events += len(table.events)
