"""The one place where a person's name from a request is decided (docs/server.md,
"Accounts and sessions"): the lobby's Play now, Learn and Create table, an invite's
join, a request for a bot's seat, and Find players all ask :func:`person_name`.

A signed-in person plays under the account's username, whatever the form said; a
guest under the name typed (``http.py:clean_name``) or the server's default, and a
name typed that is reserved, an account's, or looks like either (Unicode skeletons,
``players/names.py``) is refused.
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request

from ..players.names import check_person_name
from ..tables.hub import hub_of
from .account_routes import signed_in
from .http import clean_name


async def person_name(request: Request, value: object, default: str) -> tuple[str, str | None]:
    """(the name to seat or list, the account's username or None for a guest).

    Raises:
        ApiError: 409 ``name-reserved``: a guest typed a reserved name, an account's,
            or one like either (nothing changed).
    """
    account = await signed_in(request)
    if account is not None:
        return account.username, account.username
    name = clean_name(value, default)
    if name == default:  # the server's own (``You``, ``Guest 3``)
        return name, None
    store = hub_of(request).store
    assert store is not None  # the app has started

    def check() -> None:
        with store.engine.connect() as conn:
            check_person_name(conn, name, None)
    await asyncio.to_thread(check)
    return name, None
