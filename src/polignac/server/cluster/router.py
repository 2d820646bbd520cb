"""The cluster's router: the ASGI middleware in front of the app that sends a socket
or request for a table another process owns to that process (``relay.py:Relay``),
and answers 503 (or closes a socket with 1012) when the owner cannot be reached.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

from sqlalchemy.exc import SQLAlchemyError
from starlette.types import ASGIApp, Receive, Scope, Send

from .tunnel import _SOCKET_PATH, FORWARDED, STICKY, OwnerGone, _answer, table_of

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("polignac.server")


class ClusterRouter:
    """ASGI middleware: a socket or request for a table another process owns goes to
    that process (:class:`Relay`); everything else, and every forwarded request, is
    served here."""

    def __init__(self, app: ASGIApp, cluster: Cluster) -> None:
        self.app = app
        self.cluster = cluster
        cluster.relay.entry = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or scope.get(FORWARDED) is not None:
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        table_id = table_of(path)
        websocket = scope["type"] == "websocket"
        if table_id is None or (websocket and not _SOCKET_PATH.match(path)):
            await self.app(scope, receive, send)
            return
        sticky = any(k == STICKY for k, _ in scope.get("headers") or ())
        relay = self.cluster.relay
        for attempt in range(3):
            try:
                owner = await self.cluster.route(table_id)
                if owner is None:
                    await self.app(scope, receive, send)
                    return
                if sticky and attempt == 0 and self.cluster.may_claim(table_id, owner):
                    # the proxy sends this table to this machine: its lease follows
                    await self.cluster.claim(table_id, owner)
                    continue
                if websocket:
                    done = await relay.forward_socket(scope, receive, send, owner, table_id)
                else:
                    done = await relay.forward_http(scope, receive, send, owner)
                if done == "done":
                    return
            except (OwnerGone, SQLAlchemyError) as exc:
                log.warning("table %s: its owner cannot be reached (%s)", table_id, exc)
                break
        await _unavailable(scope, send)


async def _unavailable(scope: Scope, send: Send) -> None:
    """503 (HTTP), or a WebSocket closed with 1012: the client tries again."""
    if scope["type"] == "websocket":
        with contextlib.suppress(Exception):
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 1012})
        return
    await _answer(send, 503, {"error": "the table's server process is not reachable now; "
                                       "try again in a moment", "rule": "owner-gone"},
                  ((b"retry-after", b"1"),))
