"""Reading a request body and JSON the way every endpoint of the app must.

One body policy for every route that may change something (:class:`BodyPolicy`,
the app's middleware, before any route runs): a foreign or ``null`` ``Origin`` is
``403 bad-origin``, a body that is not ``Content-Type: application/json`` is ``415
not-json``.  Every JSON text a client sends (an HTTP body, a WebSocket frame) goes
through :func:`parse_json`: at most :data:`MAX_DEPTH` levels of nesting (checked
before parsing), whole numbers of at most :data:`MAX_INT_DIGITS` digits (checked
as they are read, before Python builds them), no ``NaN`` or ``Infinity``.  A
body is read at most ``limit`` bytes far (:func:`read_body`): a larger one is
refused without being held in memory.  Refusals raise ``errors.py:ApiError``.
"""

from __future__ import annotations

import array
import itertools
import json
import re
from typing import Any

from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from .errors import ApiError
from .inputs import ascii_int
from .security import origin_allowed

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects accepted in any JSON a client sends."""
MAX_INT_DIGITS = 20
"""Most digits of a whole number in any JSON a client sends (a 64-bit number has 19)."""

CHUNK = 256 * 1024
"""A worker's answer larger than this is sent in pieces of this size."""

_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")


class JsonInputError(ValueError):
    """JSON a client sent that is refused: ``rule`` is ``bad-json``, ``too-deep`` or
    ``too-large-number``; the message says what was wrong (and names ``what``)."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """True when arrays and objects in ``text`` nest deeper than ``limit`` (brackets
    inside strings do not count).

    Free when the text has few brackets; else at C speed (regular expressions drop
    the strings and everything but brackets, ``itertools.accumulate`` sums +1 and
    -1 per bracket): about 1 ms for a 64 KiB frame of brackets.
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    steps = array.array("b", brackets.encode("ascii").translate(_STEPS))
    return max(itertools.accumulate(steps), default=0) > limit


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _NumberTooLarge(len(text.lstrip("-")))
    return int(text)


class _NumberTooLarge(ValueError):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _no_constant(name: str) -> Any:
    raise json.JSONDecodeError(f"{name} is not JSON", name, 0)


def parse_json(data: str | bytes, what: str = "the body") -> Any:
    """Parse JSON text a client sent, within the limits above.

    Raises:
        JsonInputError: not UTF-8 or not JSON (``bad-json``), nested deeper than
            :data:`MAX_DEPTH` (``too-deep``), a number of more than
            :data:`MAX_INT_DIGITS` digits (``too-large-number``); the message
            names ``what``.
    """
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise JsonInputError(f"{what} is not JSON (not UTF-8 text)", "bad-json") from None
    else:
        text = data
    if too_deep(text):
        raise JsonInputError(f"{what} nests arrays and objects more than {MAX_DEPTH} deep",
                             "too-deep")
    try:
        return json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except _NumberTooLarge as exc:
        raise JsonInputError(f"{what} holds a number of {exc.digits} digits; at most "
                             f"{MAX_INT_DIGITS}", "too-large-number") from None
    except RecursionError:  # pragma: no cover - too_deep refuses it first
        raise JsonInputError(f"{what} nests too deep", "too-deep") from None
    except ValueError:
        raise JsonInputError(f"{what} is not JSON", "bad-json") from None


async def read_body(request: Request, limit: int, what: str) -> bytes:
    """The request's body, at most ``limit`` bytes; ``what`` names it in the messages.

    Its origin and type were checked before the route ran (:class:`BodyPolicy`).

    Raises:
        ApiError: a body over ``limit`` bytes (413 ``too-large``, by its
            ``Content-Length`` or as soon as more arrives: the rest is never read),
            the client went away (400 ``bad-request``).
    """
    too_large = ApiError(f"{what} is too large: at most {limit} bytes", "too-large", 413)
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and ascii_int(declared, 0, limit) is None:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise too_large
            chunks.append(chunk)
    except ClientDisconnect:
        raise ApiError("the client went away", "bad-request") from None
    return b"".join(chunks)


async def read_json(request: Request, limit: int, what: str) -> Any:
    """The request's JSON body.

    Parses on the event loop: for small bodies only (large ones go to a worker,
    see ``workers.py``).

    Raises:
        ApiError: as :func:`read_body`, and 400 for JSON refused by
            :func:`parse_json` (rule ``bad-json``, ``too-deep`` or
            ``too-large-number``).
    """
    body = await read_body(request, limit, what)
    try:
        return parse_json(body, what)
    except JsonInputError as exc:
        raise ApiError(str(exc), exc.rule) from None


UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods that may change something: :class:`BodyPolicy` checks them."""


def body_refusal(headers: Headers, allowed_origins: tuple[str, ...]) -> ApiError | None:
    """Why :class:`BodyPolicy` refuses a request with these headers, or None.

    - ``403 bad-origin``: an ``Origin`` that is neither the page's own (scheme and
      ``Host``) nor one of ``allowed_origins``; ``null`` (a sandboxed frame, a page
      that hides its origin) included.  A request without ``Origin`` does not come
      from a browser page (a cross-site page always sends one) and passes.
    - ``415 not-json``: a ``Content-Type`` other than ``application/json`` (with
      or without parameters), or a body without one.  A cross-site form sends only
      form encodings or text, and a cross-site ``fetch`` of JSON needs a CORS
      preflight this server never grants.  No body and no type (a bare ``fetch``
      POST) passes.
    """
    if not origin_allowed(headers.get("origin"), headers.get("host"), allowed_origins):
        return ApiError("cross-site request refused", "bad-origin", 403)
    kind = headers.get("content-type")
    if kind is None:
        length = headers.get("content-length", "").strip()
        has_body = "transfer-encoding" in headers or length not in ("", "0")
        if not has_body:
            return None
    elif kind.split(";", 1)[0].strip().lower() == "application/json":
        return None
    return ApiError("send JSON (Content-Type: application/json)", "not-json", 415)


class BodyPolicy:
    """ASGI middleware: every request of an unsafe method (:data:`UNSAFE_METHODS`) passes
    :func:`body_refusal` before any route runs, or is answered ``{"error", "rule"}``
    with its status.  The one place where the app checks a request's origin and type
    (WebSockets check their ``Origin`` at the handshake: ``session.py``)."""

    def __init__(self, app: ASGIApp, allowed_origins: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed_origins = allowed_origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE_METHODS:
            refused = body_refusal(Headers(scope=scope), self.allowed_origins)
            if refused is not None:
                response = JSONResponse(refused.body(), status_code=refused.status)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
