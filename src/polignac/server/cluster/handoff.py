"""A table's connections go to its owner: a connection that reaches another process
of the same machine is handed over as its request arrives.

Each process of a cluster (``polignac serve --workers N``, or several ``polignac
serve`` on one machine) binds a Unix datagram socket in Linux's abstract namespace,
named after its process id.  When a connection arrives, the process reads its
first bytes, up to the end of the request line; for a ``/tables/{id}/...`` path
whose table another live process owns (its lease), it sends the connection's file
descriptor to that process (``SCM_RIGHTS``) with the bytes already read, and
forgets it.  The owner serves it as if it had accepted it: uvicorn's own
protocol, fed those bytes first, the client's real address; nothing is copied
after that, no tunnel, no bus.  A connection that cannot be handed (the owner is
on another machine, or gone: its socket no longer exists) is served where it
arrived, as before (``relay.py`` forwards it); a handed connection is never handed again.

A process sends to each other process on a socket connected to that process's
address, so that when the owner's queue of datagrams is full (Linux keeps
``net.unix.max_dgram_qlen`` of them, 10 by default: a burst of connections while
the owner's loop is busy) the sender waits until it drains, up to
:data:`SEND_WAIT` seconds, instead of keeping the connection, whose every frame
would then cross the bus for as long as it lives.
WebSockets (one request a connection) thus always land on the owner; a
kept-alive HTTP connection is routed by its first request.

Only a process of the same user may hand a connection over (the kernel's
credentials of each datagram are checked).  Linux only; elsewhere nothing is
handed and every connection is served where it arrives.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import hashlib
import logging
import os
import socket
import struct
import sys
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("polignac.server")

HEAD_BYTES = 8192
"""Bytes of a connection read before it is handed over, at most (the request line
must fit; a connection whose first read is larger stays where it arrived)."""
SEND_WAIT = 5.0
"""Seconds a connection waits for room in its owner's queue at most before it is
served where it arrived (the owner's loop is that late)."""
MAX_PEERS = 64
"""Sockets to other processes kept open at most (more: all are closed, and opened
again as needed)."""
_MAGIC = b"polignac-handoff/1"
_CREDS = struct.Struct("3i")  # struct ucred: pid, uid, gid
SUPPORTED = sys.platform.startswith("linux") and hasattr(socket, "SCM_CREDENTIALS")

Lookup = Callable[[str], Awaitable[str | None]]
"""A table id -> its owner's process id (None: nobody, or this process)."""


def address(site: str, process: str) -> bytes:
    """The abstract socket address of ``process`` of the site ``site``."""
    digest = hashlib.sha256(f"{site}\n{process}".encode()).hexdigest()[:40]
    return b"\0polignac-" + digest.encode()


def request_path(head: bytes) -> str | None:
    """The path of a request line (``GET /tables/x/ws?y HTTP/1.1``), or None when
    ``head`` does not start with a whole one."""
    line, sep, _ = head.partition(b"\r\n")
    if not sep:
        return None
    parts = line.split(b" ")
    if len(parts) != 3 or not parts[2].startswith(b"HTTP/"):
        return None
    try:
        return parts[1].split(b"?", 1)[0].decode("ascii")
    except UnicodeDecodeError:
        return None


class Handoff:
    """This process's end of the hand-over (see the module): :meth:`route` decides
    where an arriving connection is served; :meth:`listen` takes connections others
    hand over.

    ``site``: what the processes of one site share (the database URL and the bus
    secret), so that two sites on one machine never hand each other connections.
    """

    def __init__(self, site: str, process: str, lookup: Lookup,
                 table_of: Callable[[str], str | None], timeout: float = 10.0) -> None:
        self.site = site
        self.process = process
        self.lookup = lookup
        self.table_of = table_of
        self.timeout = timeout
        self.factory: Callable[[], asyncio.Protocol] | None = None
        self.sock: socket.socket | None = None
        self.sent = 0
        """Connections handed to another process."""
        self.received = 0
        """Connections another process handed to this one."""
        self.kept = 0
        """Connections for a table another process owns, served here anyway (that
        process is on another machine, or gone, or too late to take them)."""
        self.waited = 0
        """Connections that found their owner's queue full, and waited for room."""
        self._peers: dict[str, socket.socket] = {}
        self._rooms: dict[str, asyncio.Future[None]] = {}

    # ------------------------------------------------------------ receiving

    def listen(self, factory: Callable[[], asyncio.Protocol]) -> None:
        """Take connections handed to this process, each served by a new
        ``factory()`` protocol (uvicorn's, made as its server makes them).

        Raises:
            OSError: the address is taken (another process with this id).
        """
        self.factory = factory
        if not SUPPORTED or self.sock is not None:
            return
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        sock.setblocking(False)
        sock.bind(address(self.site, self.process))
        self.sock = sock
        asyncio.get_running_loop().add_reader(sock.fileno(), self._take)

    def close(self) -> None:
        """Stop taking connections (senders then serve theirs themselves)."""
        sock, self.sock = self.sock, None
        if sock is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(sock.fileno())
            sock.close()
        for peer in list(self._peers):
            self._forget(peer)

    def _take(self) -> None:
        """Every connection waiting on the socket, each served here."""
        sock = self.sock
        while sock is not None:
            try:
                data, ancillary, _flags, _addr = sock.recvmsg(
                    len(_MAGIC) + HEAD_BYTES,
                    socket.CMSG_SPACE(4) + socket.CMSG_SPACE(_CREDS.size))
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                log.exception("process %s: the hand-over socket failed", self.process)
                return
            fds: list[int] = []
            uid = -1
            for level, kind, payload in ancillary:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    arr = array.array("i")
                    arr.frombytes(payload[:len(payload) - len(payload) % arr.itemsize])
                    fds.extend(arr)
                elif level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                    _pid, uid, _gid = _CREDS.unpack(payload[:_CREDS.size])
            if not data and not fds:  # a probe (:meth:`local`)
                continue
            if not data.startswith(_MAGIC) or uid != os.getuid() or len(fds) != 1:
                for fd in fds:
                    os.close(fd)
                log.warning("process %s: refused a hand-over (uid %d, %d descriptors)",
                            self.process, uid, len(fds))
                continue
            self._serve(fds[0], data[len(_MAGIC):])

    def _serve(self, fd: int, head: bytes) -> None:
        """Serve the connection ``fd`` here, of which ``head`` was read elsewhere."""
        try:
            conn = socket.socket(fileno=fd)
        except OSError:
            os.close(fd)
            return
        if self.factory is None:  # not serving yet: the client tries again
            conn.close()
            return
        conn.setblocking(False)
        self.received += 1
        factory = self.factory

        def handed() -> asyncio.Protocol:
            protocol = factory()
            protocol._polignac_handed = head  # type: ignore[attr-defined]
            return protocol

        loop = asyncio.get_running_loop()
        task = loop.create_task(loop.connect_accepted_socket(handed, conn))
        task.add_done_callback(_log_failure)

    # ------------------------------------------------------------ sending

    def local(self, process: str) -> bool:
        """Whether ``process`` takes handed-over connections on this machine now."""
        if self.sock is None:
            return False
        try:
            self.sock.sendto(b"", address(self.site, process))
        except BlockingIOError:  # there, with its queue full
            return True
        except OSError:
            return False
        return True

    async def route(self, fd: int, head: bytes) -> bool:
        """Hand the connection ``fd``, of which ``head`` was read (the request line at
        least), to its table's owner when that is another process of this machine.
        True when it was handed (close this process's end then, without a word: the
        owner has the connection); False: serve it here.
        """
        path = request_path(head)
        table = self.table_of(path) if path else None
        if table is None or self.sock is None or len(head) > HEAD_BYTES:
            return False
        try:
            owner = await self.lookup(table)
        except Exception:  # the database: the connection is served here
            log.exception("process %s: who owns table %s?", self.process, table)
            return False
        if owner is None or owner == self.process or self.sock is None:
            return False
        try:
            await self._send(owner, _MAGIC + head, fd)
        except OSError:  # not on this machine, gone, or too late to take it
            self.kept += 1
            return False
        self.sent += 1
        return True

    async def _send(self, owner: str, data: bytes, fd: int) -> None:
        """Send ``data`` and the descriptor ``fd`` to ``owner``'s socket, waiting for
        room in its queue up to :data:`SEND_WAIT` seconds.

        Raises:
            OSError: ``owner`` takes no connections on this machine (or no longer), or
                its queue stayed full.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SEND_WAIT
        waited = False
        while True:
            sock = self._peer(owner)
            try:
                sock.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
                                       array.array("i", [fd]))])
                return
            except BlockingIOError:  # its queue is full: wait until it reads
                left = deadline - loop.time()
                if left <= 0:
                    raise
                if not waited:
                    waited = True
                    self.waited += 1
                try:
                    await asyncio.wait_for(asyncio.shield(self._room(owner, sock)), left)
                except TimeoutError:
                    raise BlockingIOError(f"process {owner} took no connection for "
                                          f"{SEND_WAIT:g} s") from None
            except OSError:
                self._forget(owner)
                raise

    def _room(self, owner: str, sock: socket.socket) -> asyncio.Future[None]:
        """A future resolved once ``sock`` (to ``owner``) may send again: one for all
        the connections waiting for that process."""
        room = self._rooms.get(owner)
        if room is None or room.done():
            loop = asyncio.get_running_loop()
            room = self._rooms[owner] = loop.create_future()

            def ready() -> None:
                loop.remove_writer(sock.fileno())
                self._rooms.pop(owner, None)
                if not room.done():
                    room.set_result(None)

            loop.add_writer(sock.fileno(), ready)
        return room

    def _peer(self, owner: str) -> socket.socket:
        """A socket connected to ``owner``'s address (kept for the next connection).

        Raises:
            OSError: ``owner`` does not listen on this machine.
        """
        sock = self._peers.get(owner)
        if sock is not None:
            return sock
        if len(self._peers) >= MAX_PEERS:
            for peer in list(self._peers):
                self._forget(peer)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            sock.setblocking(False)
            sock.connect(address(self.site, owner))
        except OSError:
            sock.close()
            raise
        self._peers[owner] = sock
        return sock

    def _forget(self, owner: str) -> None:
        """Close the socket to ``owner`` (gone, or too many kept)."""
        sock = self._peers.pop(owner, None)
        room = self._rooms.pop(owner, None)
        if sock is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_writer(sock.fileno())
            sock.close()
        if room is not None and not room.done():
            room.set_result(None)  # its waiters try again, and find it gone


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("a handed-over connection could not be served: %s", task.exception())


_current: Handoff | None = None


def current() -> Handoff | None:
    """This process's :class:`Handoff`, once its cluster has started."""
    return _current


def install(handoff: Handoff | None) -> None:
    """Make ``handoff`` this process's (None: nothing is handed any more)."""
    global _current
    if _current is not None and _current is not handoff:
        _current.close()
    _current = handoff


def routed(base: type) -> type:
    """``base`` (one of uvicorn's HTTP protocol classes) whose connections are first
    handed to their table's owner (:meth:`Handoff.route`) when that is another
    process of this machine."""

    class Routed(base):  # type: ignore[misc]
        _polignac_handed: bytes | None = None
        """What another process read of this connection before handing it here."""
        _polignac_state = "here"  # deciding, routing, here, handed, lost

        def connection_made(self, transport: Any) -> None:
            handoff = current()
            head = self._polignac_handed
            if head is not None or handoff is None or handoff.sock is None:
                super().connection_made(transport)
                if head:  # before anything more is read
                    super().data_received(head)
                return
            self._polignac_state = "deciding"
            self._polignac_transport = transport
            self._polignac_head = b""
            self._polignac_timer = asyncio.get_running_loop().call_later(
                handoff.timeout, self._polignac_serve_here)

        def data_received(self, data: bytes) -> None:
            if self._polignac_state == "here":
                super().data_received(data)
                return
            self._polignac_head += data
            head = self._polignac_head
            if self._polignac_state != "deciding" or (
                    b"\r\n" not in head and len(head) < HEAD_BYTES):
                return  # the request line is not whole yet (or a decision is coming)
            handoff = current()
            if handoff is None:
                self._polignac_serve_here()
                return
            self._polignac_state = "routing"
            self._polignac_timer.cancel()
            transport = self._polignac_transport
            transport.pause_reading()
            task = asyncio.get_running_loop().create_task(self._polignac_route(
                handoff, transport, head))
            task.add_done_callback(_log_failure)
            self._polignac_task = task  # kept: a task nobody holds may be collected

        async def _polignac_route(self, handoff: Handoff, transport: Any, head: bytes
                                  ) -> None:
            handed = False
            try:
                sock = transport.get_extra_info("socket")
                if sock is not None and not transport.is_closing():
                    handed = await handoff.route(sock.fileno(), head)
            finally:
                if self._polignac_state != "routing" or head != self._polignac_head:
                    handed = False  # lost meanwhile, or more came (cannot happen: paused)
                if self._polignac_state == "lost":
                    pass
                elif handed:
                    self._polignac_state = "handed"
                    transport.abort()  # closes this process's descriptor only
                else:
                    self._polignac_serve_here()
                    if not transport.is_closing():
                        transport.resume_reading()

        def _polignac_serve_here(self) -> None:
            """Serve the connection here, with what was read of it."""
            if self._polignac_state not in ("deciding", "routing"):
                return
            self._polignac_state = "here"
            self._polignac_timer.cancel()
            super().connection_made(self._polignac_transport)
            if self._polignac_head:
                super().data_received(self._polignac_head)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._polignac_state == "here":
                super().connection_lost(exc)
                return
            if self._polignac_state == "deciding":
                self._polignac_timer.cancel()
            self._polignac_state = "lost"

        def eof_received(self) -> bool | None:
            if self._polignac_state == "here":
                result: bool | None = super().eof_received()
                return result
            return None

    Routed.__name__ = Routed.__qualname__ = f"Routed{base.__name__}"
    return Routed
