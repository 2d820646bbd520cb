"""The other server processes of a cluster, as this one hears them on the bus:
who is alive (heartbeats), the lobby's list gathered from all of them, and the
bus's round trip that ``/ready`` waits for.

Each process says it is alive on :data:`ALIVE` every second (a quarter of the
lease when shorter); a process heard within ``lease_seconds`` counts as alive.
The lobby's question goes to :data:`EVERYONE`; every live process answers on the
asker's own channel with its public tables.  ``cluster.py`` owns the bus and
hands this module the messages meant for it (:meth:`Peers.deliver`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import re
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("polignac.server")

ALIVE = "polignac_alive"
"""The channel every process says it is alive on."""
EVERYONE = "polignac_all"
"""The channel every process listens to for questions to all (the lobby's list)."""
FORGET_AFTER = 600.0
"""Seconds after which a silent process is forgotten."""
MAX_ANSWERS = 1024
"""Answers kept for one question at most (a question to all, answered by each)."""



def process_id(name: str | None) -> str:
    """A new process id: ``NAME-PID-RANDOM`` (NAME: the host name by default); unique
    at each start, so that a restarted process never takes its old leases for its own."""
    base = re.sub(r"[^A-Za-z0-9_.\-]", "", name or socket.gethostname())[:64] or "polignac"
    return f"{base}-{os.getpid()}-{secrets.token_hex(3)}"


def channel_of(process: str) -> str:
    """The bus channel of process ``process`` (an identifier PostgreSQL takes)."""
    return "polignac_" + hashlib.sha256(process.encode()).hexdigest()[:24]


Publish = Callable[[str, dict[str, Any]], Awaitable[None]]
"""Publish a JSON object on a channel (the cluster's signed bus)."""


class Peers:
    """This process's view of the others: heartbeats, the lobby's list, ``/ready``'s
    round trip.  ``publish`` sends on the bus; ``channel`` is this process's own."""

    def __init__(self, process: str, channel: str, seconds: float, publish: Publish,
                 send_alive: Callable[[str], Awaitable[None]]) -> None:
        self.id = process
        self.channel = channel
        self.seconds = seconds
        self.publish = publish
        self.send_alive = send_alive
        self.seen: dict[str, float] = {}
        """When each other process was last heard (monotonic seconds)."""
        self.started_at = time.monotonic()
        self.lister: Callable[[], list[dict[str, Any]]] = list
        """This process's entries of the lobby's list (set by the app)."""
        self._waiting: dict[str, asyncio.Queue[dict[str, Any]]] = {}

    def alive(self, process: str) -> bool:
        """Whether ``process`` said it was alive within ``lease_seconds`` (a process
        never heard of counts as alive for ``lease_seconds`` after this one started)."""
        if process == self.id:
            return True
        return self.seen.get(process, self.started_at) > time.monotonic() - self.seconds

    async def heartbeat(self) -> None:
        """Say this process is alive, every second (a quarter of the lease when
        shorter), until cancelled."""
        beat = json.dumps({"p": self.id})
        while True:
            with contextlib.suppress(Exception):
                await self.send_alive(beat)
            await asyncio.sleep(min(1.0, self.seconds / 4))

    def on_alive(self, text: str) -> None:
        """A heartbeat heard on :data:`ALIVE`."""
        try:
            process = json.loads(text)["p"]
        except (ValueError, KeyError, TypeError):
            return
        if isinstance(process, str) and len(process) <= 128:
            self.seen[process] = time.monotonic()

    def forget_silent(self) -> None:
        """Forget the processes silent for :data:`FORGET_AFTER` seconds."""
        old = time.monotonic() - FORGET_AFTER
        for process in [p for p, at in self.seen.items() if at < old]:
            del self.seen[process]

    def deliver(self, msg: dict[str, Any]) -> bool:
        """Hand an answer (``pong``, ``listed``) to the question waiting for it; False
        when nobody waits for it (too late), or too many came."""
        queue = self._waiting.get(msg.get("r", ""))
        if queue is None or queue.qsize() >= MAX_ANSWERS:
            return False
        queue.put_nowait(msg)
        return True

    async def answer_list(self, msg: dict[str, Any]) -> None:
        """Answer another process's ``list`` with this process's public tables."""
        if msg.get("p") == self.id or not isinstance(msg.get("o"), str):
            return
        with contextlib.suppress(Exception):
            await self.publish(msg["o"], {"t": "listed", "r": msg["r"], "p": self.id,
                                          "e": self.lister()})

    async def answer_ping(self, msg: dict[str, Any]) -> None:
        """Answer a ``ping`` (this process's own, from :meth:`ready`)."""
        if isinstance(msg.get("o"), str):
            await self.publish(msg["o"], {"t": "pong", "r": msg["r"]})

    async def ready(self) -> bool:
        """Whether the bus carries a message to this process and back within 2 s."""
        rid = secrets.token_hex(8)
        queue = self._waiting[rid] = asyncio.Queue()
        try:
            await self.publish(self.channel, {"t": "ping", "r": rid, "o": self.channel})
            msg = await asyncio.wait_for(queue.get(), 2.0)
            return msg.get("t") == "pong"
        except (TimeoutError, OSError, RuntimeError, ConnectionError):
            return False
        except Exception:  # the bus library's own errors (redis, asyncpg)
            log.exception("process %s: the bus does not answer", self.id)
            return False
        finally:
            self._waiting.pop(rid, None)

    async def gather(self, mine: list[dict[str, Any]], wait: float = 0.5
                     ) -> list[dict[str, Any]]:
        """``mine`` and every other live process's entries of the lobby's list, as
        many as answer within ``wait`` seconds (each table once: its owner's)."""
        rid = secrets.token_hex(8)
        queue = self._waiting[rid] = asyncio.Queue()
        expected = {p for p in self.seen if p != self.id and self.alive(p)}
        out = {e["id"]: e for e in mine}
        try:
            await self.publish(EVERYONE, {"t": "list", "r": rid, "o": self.channel,
                                          "p": self.id})
            deadline = time.monotonic() + wait
            while expected and (left := deadline - time.monotonic()) > 0:
                try:
                    msg = await asyncio.wait_for(queue.get(), left)
                except TimeoutError:
                    break
                if msg.get("t") == "listed":
                    expected.discard(msg.get("p"))
                    for entry in msg.get("e") or []:
                        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                            out.setdefault(entry["id"], entry)
        except Exception:  # the bus: this process's own tables only
            log.exception("process %s: could not gather the lobby's list", self.id)
        finally:
            self._waiting.pop(rid, None)
        return list(out.values())
