"""No route answers 500, whatever it is sent (issue 22): every route of the app,
enumerated from its Starlette route list (a route added later is covered too),
with Unicode digits (``²``, ``١``) and other odd values in its path parameters
and query string, malformed seat and identity cookies, and the fuzzer's bodies;
the WebSocket route's handshake with the same cookies.  Runs the real app
in-process (``fuzzing.Harness``)."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.routing import Mount, Route, WebSocketRoute

from . import fuzzing

ODD = ["²", "١", "٣٢", "%C2%B2", "-1", "0", "9" * 30, "x", "", " 1", "1.5", "\u00a0"]
"""Values tried in every path parameter and query field (Unicode digits first)."""
GOOD = {"seat": "1", "n": "1", "lang": "en", "preset": "polignac", "path": "replay.js"}
QUERY_FIELDS = ["samples", "from", "count", "window", "seat", "token", "lang", "deal", "n",
                "after", "until", "limit"]


def _cookies(harness: fuzzing.Harness, table: str) -> list[str]:
    """The session's cookies, then malformed seat and identity cookies."""
    seat = f"polignac_{table}"
    return [harness._cookie_header("seat"),
            f"{seat}=²", f"{seat}=²0.{'x' * 43}", f"{seat}=¹.{'x' * 43}", f"{seat}=³",
            f"{seat}=١.{'x' * 43}",
            f"{seat}=99999999999999999999999.{'x' * 43}", f"{seat}=-1.x",
            "polignac_id=²", "polignac_id=!!", "polignac_id=" + "١" * 43,
            f"{seat}=²; polignac_id=²", "polignac_id", "=;;==; x"]


def _queries() -> list[str]:
    out = [""]
    for value in ODD[:4] + ["nan", "-1", "9" * 30]:
        out.append("?" + "&".join(f"{k}={value}" for k in QUERY_FIELDS))
    return out


def _bodies(path: str) -> list[bytes]:
    """Bodies for a POST route: empty, ``{}``, odd values in likely fields, and the
    fuzzer's candidates for that route."""
    out = [b"", b"{}", json.dumps({k: "²" for k in ("name", "seat", "samples", "deal",
                                                    "preset", "players")}).encode(),
           json.dumps({"pad": {"preset": "polignac", "names": ["a", "b", "c", "d"],
                               "entries": [{"taken": {"JS": "²"}}]},
                       "entry": {"taken": {"JS": "١"}}}).encode()]
    for endpoint in fuzzing.ENDPOINTS:
        if endpoint.method == "POST" and endpoint.path.split("?")[0].replace(
                "{table}", "{table_id}") == path:
            for i in range(3):
                fields = {k: v[i % len(v)] for k, v in endpoint.fields.items()
                          if not isinstance(v[i % len(v)], fuzzing.Slot)}
                out.append(json.dumps(fields).encode())
    return out


def _paths(template: str, table: str) -> Iterator[str]:
    """``template`` with its parameters filled: all good, then each one odd in turn."""
    params = re.findall(r"{(\w+)(?::\w+)?}", template)
    good = {p: (table if p == "table_id" else GOOD.get(p, "x")) for p in params}

    def fill(values: dict[str, str]) -> str:
        return re.sub(r"{(\w+)(?::\w+)?}", lambda m: values[m.group(1)], template)

    yield fill(good)
    for p in params:
        for value in ODD + (["nope"] if p == "table_id" else []):
            yield fill({**good, p: value})


def _routes(app: Any) -> Iterator[tuple[str, str]]:
    """(method, path template) of every HTTP route; ``WS`` for WebSocket routes."""
    for route in app.routes:
        if isinstance(route, Route):
            for method in sorted(route.methods or ["GET"]):
                yield method, route.path
        elif isinstance(route, WebSocketRoute):
            yield "WS", route.path
        elif isinstance(route, Mount):
            yield "GET", route.path + "/{path}"
        else:  # pragma: no cover - a new kind of route: cover it here first
            raise AssertionError(f"unknown route {route!r}")


async def _run(data_dir: Path) -> tuple[int, dict[str, list[str]], set[str]]:
    harness = fuzzing.Harness(fuzzing.fuzz_config(data_dir), random.Random(1))
    await harness.start()
    answers = 0
    problems: dict[str, list[str]] = {}
    covered: set[str] = set()
    try:
        await harness.new_table()
        table = harness.table_id
        for method, template in _routes(harness.app):
            route = f"{method} {template}"
            covered.add(route)
            found = problems.setdefault(route, [])
            for path in _paths(template, table):
                if method == "WS":
                    for cookie in _cookies(harness, table):
                        answers += 1
                        found += await _socket(harness, path, cookie)
                    continue
                bodies = _bodies(template) if method == "POST" else [b""]
                for i, (query, cookie) in enumerate(
                        (q, c) for q in _queries() for c in _cookies(harness, table)):
                    body = bodies[i % len(bodies)]
                    headers = _headers(cookie, body)
                    answers += 1
                    try:
                        status, data, _ = await harness.request(method, path + query, body,
                                                                headers)
                    except fuzzing.AppCrash as exc:
                        found.append(f"{path}{query} [{cookie}]: {str(exc)[-150:]}")
                        continue
                    if status >= 500:
                        found.append(f"{path}{query} [{cookie}] -> {status} {data[:120]!r}")
                if len(harness.hub.tables) > harness.config.max_tables - 20:
                    await fuzzing._forget_tables(harness)
            harness.check_log()
            found += harness.stats.problems
            harness.stats.problems.clear()
    finally:
        await harness.stop()
    return answers, problems, covered


def _headers(cookie: str, body: bytes) -> list[tuple[bytes, bytes]]:
    """Request headers with ``cookie`` (Latin-1 bytes: ``²`` arrives as ``²``)."""
    return fuzzing._headers(fuzzing.HOST, None, cookie, "application/json" if body else None)


async def _socket(harness: fuzzing.Harness, path: str, cookie: str) -> list[str]:
    """Open the WebSocket at ``path`` with ``cookie``; what went wrong (a 500 at the
    handshake, a crash), if anything."""
    table_id = path.split("/")[2]
    session = fuzzing.Session(harness, table_id, cookie, None)
    try:
        accepted = await session.open()
        if session.denied is not None and session.denied >= 500:
            return [f"WS {path} [{cookie}] -> {session.denied}"]
        if accepted:
            await session.send(json.dumps({"type": "hello", "last_seq": 0}))
            await session.close()
    except fuzzing.AppCrash as exc:
        return [f"WS {path} [{cookie}]: {exc}"]
    await asyncio.wait({session.task}, timeout=5)
    return []


@pytest.mark.timeout(900)
def test_no_route_answers_500(tmp_path: Path) -> None:
    answers, problems, covered = asyncio.run(_run(tmp_path))
    assert len(covered) >= 30 and answers > 5000, (len(covered), answers)
    bad = {route: found for route, found in problems.items() if found}
    assert not bad, "\n".join(f"{route}: {len(found)} problems, e.g. {found[0]}"
                              for route, found in bad.items())
