"""The one error style of the HTTP routes: a handler raises :class:`ApiError`, and
:func:`api_error_response` (the app's one exception handler for it) answers.

The answer is ``{"error": message, "rule": rule, ...extra}`` with the error's
status and headers; a page route (marked by :func:`html_errors`) answers the
same error as a page in the site's style (``pages.py:error_page``).  A table's
own refusals are :class:`ProtocolError` (the socket answers them with an
``error`` frame).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ...core import PolignacError, RulesError
from .pages import error_page

F = TypeVar("F", bound=Callable[..., Any])


class ApiError(Exception):
    """A refused request: answered with ``status`` and ``{"error", "rule", ...extra}``."""

    def __init__(self, message: str, rule: str, status: int = 400,
                 headers: dict[str, str] | None = None,
                 extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.status = status
        self.headers = headers
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        """The JSON answer's body."""
        return {"error": str(self), "rule": self.rule, **self.extra}


def rules_refused(exc: PolignacError) -> ApiError:
    """The 400 ``bad-rules`` answer for rules that do not make a match: the English
    message, and for a :class:`RulesError` with a code its catalog ``key``
    (``rulesError.<code>``) and ``params``, which the pages say in their language
    (``labels.js:serverReason``)."""
    extra: dict[str, Any] = {}
    if isinstance(exc, RulesError) and exc.code is not None:
        extra = {"code": exc.code, "key": f"rulesError.{exc.code}", "params": exc.params}
    return ApiError(str(exc), "bad-rules", extra=extra)


class ProtocolError(ValueError):
    """A request a table refuses (``tables.py``); ``rule`` is a stable word, the state
    is unchanged.  The socket answers it with an ``error`` frame; a route turns it
    into an :class:`ApiError`."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


def html_errors(endpoint: F) -> F:
    """Mark a page route: its :class:`ApiError` answers as an HTML page."""
    endpoint.html_errors = True  # type: ignore[attr-defined]
    return endpoint


async def api_error_response(request: Request, exc: Exception) -> Response:
    """The app's handler for :class:`ApiError`: JSON, or a page for a page route (unless
    the page's own script asked for JSON: ``Accept: application/json``)."""
    assert isinstance(exc, ApiError)
    endpoint = request.scope.get("endpoint")
    wants_json = request.headers.get("accept", "").startswith("application/json")
    if getattr(endpoint, "html_errors", False) and not wants_json:
        page = error_page(str(exc), exc.rule, exc.status)
        page.headers.update(exc.headers or {})
        return page
    return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)
