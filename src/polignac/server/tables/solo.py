"""Who owns the tables of this process: the hub asks an :class:`Ownership`, which is a
:class:`Solo` for one process and ``cluster/cluster.py:Cluster`` for several (the app
hands the hub the right one, so that this room never imports the cluster's).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from typing import Any, Protocol


class Ownership(Protocol):
    """What the hub and the routes ask of the processes that share the tables."""

    id: str
    """This process's id."""
    loads_all: bool
    """True when the hub loads every table in play at start (nobody else could)."""

    async def start(self) -> None: ...
    def halt(self) -> None: ...
    async def close(self) -> None: ...
    def serve(self, app: Any, lister: Callable[[], list[dict[str, Any]]]) -> None: ...
    def claim_new(self, conn: Any, table_id: str) -> None: ...
    async def acquire(self, table_id: str) -> bool: ...
    async def release(self, table_id: str) -> None: ...
    async def gather(self, mine: list[dict[str, Any]], wait: float = 0.5
                     ) -> list[dict[str, Any]]: ...
    async def ready(self) -> bool: ...
    def stats(self) -> Any: ...


class Solo:
    """The one-process stand-in for :class:`Cluster` (``memory://``): the hub calls it
    as it calls a cluster, and nothing happens: no bus, no lease, nothing forwarded,
    every table this process's."""

    loads_all = True
    """The hub loads every table in play at start (nobody else could)."""

    def __init__(self) -> None:
        self.id = f"{socket.gethostname()}-{os.getpid()}"

    async def start(self) -> None:
        """Nothing to join."""

    def halt(self) -> None:
        """Nothing to stop."""

    async def close(self) -> None:
        """Nothing to give up."""

    def serve(self, app: Any, lister: Callable[[], list[dict[str, Any]]]) -> None:
        """Nothing to route: every table is here."""

    def claim_new(self, conn: Any, table_id: str) -> None:
        """No lease to write."""

    async def acquire(self, table_id: str) -> bool:
        """Every table is this process's."""
        return True

    async def release(self, table_id: str) -> None:
        """No lease to give up."""

    async def gather(self, mine: list[dict[str, Any]], wait: float = 0.5
                     ) -> list[dict[str, Any]]:
        """The lobby's list: this process's entries are all of them."""
        return mine

    async def ready(self) -> bool:
        """No bus to wait for."""
        return True

    def stats(self) -> None:
        """Nothing crosses between processes (``GET /health``'s ``cluster``: null)."""
        return None
