"""What a forwarding between processes is made of (``relay.py``): the scope key and
header that mark forwarded and sticky requests, the bounds of a forwarding, a
table's id read from a path, and :class:`_Tunnel`, one forwarding's bounded queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from starlette.types import Send

FORWARDED = "polignac.forwarded"
"""Scope key of a request run for another process (its id): never forwarded again."""
STICKY = b"x-polignac-sticky"
"""Request header of a reverse proxy that sends every request of a table to one
machine (deploy/nginx.conf: a consistent hash of the table id): the table's lease
then follows it to that machine (``cluster.py:Cluster.claim``)."""
_TABLE_PATH = re.compile(r"^/tables/([A-Za-z0-9_\-]{1,32})(?:/|$)")
_SOCKET_PATH = re.compile(r"^/tables/([A-Za-z0-9_\-]{1,32})/ws$")
MAX_RELAYED = 256
"""Messages a forwarding keeps for a reader that does not read, at most: one more
and the forwarding ends (the other side hears ``end``; what waits is dropped)."""
MAX_BATCH = 64
"""Frames of a seat sent in one bus message at most."""
MAX_BODY = 1 << 20
"""Bytes of a forwarded request's body at most (a table's requests are small)."""
MAX_RESPONSE = 32 << 20
"""Bytes of a forwarded answer's body at most (a long table's record)."""
MAX_TOKEN = 512
"""Characters of a seat cookie sent to the owner at most."""


def table_of(path: str) -> str | None:
    """The table id of a ``/tables/{id}[/...]`` path, or None."""
    found = _TABLE_PATH.match(path)
    return found.group(1) if found else None


class OwnerGone(Exception):
    """The table's owner fell silent (or nobody could take the table) in time."""


@dataclass(eq=False)
class _Tunnel:
    """One forwarding's messages, waiting for their reader, at most
    :data:`MAX_RELAYED` of them and, with ``max_bytes``, at most that many bytes of
    them as they came over the bus (None: the forwarding ends)."""

    peer: str
    max_bytes: int | None = None
    """Bytes of waiting messages at most (an edge socket's: the direct socket's
    ``max_queued_bytes``); None: counted only (an HTTP answer, one message)."""
    queue: asyncio.Queue[Any] = field(default_factory=asyncio.Queue)
    overflowed: bool = False
    """More came than the reader took: what waited was dropped, the forwarding ends."""
    waiting: int = 0
    """Bytes of the messages waiting."""
    _sizes: deque[int] = field(default_factory=deque)

    def put(self, item: Any, size: int = 0) -> bool:
        """Queue ``item`` (``size``: its bytes on the bus); False (and the queue emptied
        but for a final ``None``) when the reader has :data:`MAX_RELAYED` waiting
        already or ``max_bytes`` would be passed, or it overflowed before."""
        if self.overflowed:
            return False
        if self.queue.qsize() >= MAX_RELAYED or (
                self.max_bytes is not None and self.waiting + size > self.max_bytes):
            self.overflowed = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self._sizes.clear()
            self.waiting = 0
            self.queue.put_nowait(None)
            return False
        self.waiting += size
        self._sizes.append(size)
        self.queue.put_nowait(item)
        return True

    def _taken(self, item: Any) -> Any:
        if item is not None and self._sizes:
            self.waiting -= self._sizes.popleft()
        return item

    async def take(self) -> Any:
        """The next message (None: the forwarding ends)."""
        return self._taken(await self.queue.get())

    def take_nowait(self) -> Any:
        """The next message, if one waits.

        Raises:
            asyncio.QueueEmpty: none waits.
        """
        return self._taken(self.queue.get_nowait())

    def end(self) -> None:
        """Wake the reader: the forwarding ends."""
        self.queue.put_nowait(None)


async def _answer(send: Send, status: int, obj: dict[str, Any],
                  headers: tuple[tuple[bytes, bytes], ...] = ()) -> None:
    """A JSON answer of ``status`` (nothing if the client went away)."""
    body = json.dumps(obj).encode()
    with contextlib.suppress(Exception):
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()), *headers]})
        await send({"type": "http.response.body", "body": body})
