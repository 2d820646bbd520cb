"""Pages built on the server: ``static/`` files with ``{{key}}`` placeholders, and the
error page in the site's style."""

from __future__ import annotations

import functools
import html
from pathlib import Path
from typing import Any

from starlette.responses import HTMLResponse

STATIC = Path(__file__).parent.parent / "static"


@functools.cache
def _template(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def render(name: str, status: int = 200, **values: Any) -> HTMLResponse:
    """The page ``static/name`` with each ``{{key}}`` replaced by its value, HTML-escaped."""
    text = _template(name)
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", html.escape(str(value)))
    return HTMLResponse(text, status_code=status)


def error_page(message: str, rule: str, status: int) -> HTMLResponse:
    """An error as a page in the site's style (``static/error.html``), status kept: the
    status, the message (in the reader's language when the catalog has ``rule``), a
    link to the lobby."""
    return render("error.html", status, message=message, rule=rule, code=status)
