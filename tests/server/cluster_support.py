"""Several ``polignac serve`` processes against one PostgreSQL database and one bus,
and people who reconnect to any of them: for test_cluster.py and
benchmarks/bench_failover.py."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

import polignac

from .waiting import wait_until

TIMEOUT = 10.0
SRC = str(Path(polignac.__file__).resolve().parents[1])
SECRET = "a-secret-the-test-processes-share"
"""The bus secret of the processes these helpers start ($POLIGNAC_BUS_SECRET)."""


class Proc:
    """One ``polignac serve`` process on ``port`` (bots and dealer without delay)."""

    def __init__(self, name: str, port: int, database_url: str, bus: str, data: Path,
                 lease_seconds: float = 2.0, machine: str = "",
                 extra: tuple[str, ...] = ()) -> None:
        """``extra``: more options of ``polignac serve`` (a later one wins)."""
        self.name = name
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.log = data / f"{name}.log"
        data.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, PYTHONPATH=SRC, POLIGNAC_BUS_SECRET=SECRET,
                   POLIGNAC_MACHINE=machine)  # another machine: nothing handed over
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "polignac", "serve", "--host", "127.0.0.1",
                 "--port", str(port), "--data", str(data), "--database-url", database_url,
                 "--bus", bus, "--lease-seconds", str(lease_seconds), "--name", name,
                 "--grace", "600", "--bot-delay", "0", "--deal-delay", "0",
                 "--trick-pause", "0", "--rate", "10000", "--job-workers", "1",
                 "--seek-per-address", "1000",  # every client is 127.0.0.1
                 "--bot-workers", "1",
                 # a connection may be handed over to the table's owner, which serves
                 # another port: each process answers to every port of 127.0.0.1
                 "--allowed-host", "127.0.0.1", *extra],
                stdout=out, stderr=subprocess.STDOUT, env=env)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def wait_ready(self, seconds: float = 180.0) -> None:
        """Wait until ``GET /ready`` answers 200.

        Raises:
            AssertionError: it exited, or was not ready in time (its log attached).
        """
        def ready() -> bool:
            if not self.alive():
                raise AssertionError(f"{self.name} exited:\n{self.tail()}")
            return httpx.get(self.base + "/ready", timeout=2, trust_env=False
                             ).status_code == 200

        wait_until(ready, seconds, what=lambda: f"{self.name} to be ready:\n{self.tail()}",
                   interval=0.1, ignoring=(httpx.HTTPError,))

    def tail(self) -> str:
        with contextlib.suppress(OSError):
            return self.log.read_text(errors="replace")[-4000:]
        return ""

    def kill(self) -> None:
        """SIGKILL, and wait for it."""
        if self.alive():
            self.proc.kill()
        self.proc.wait(timeout=10)


def owner_pid(database_url: str, table: str) -> int | None:
    """The pid of the process holding ``table``'s lease (from its process id)."""
    from sqlalchemy import text

    from polignac.server.store.db import make_engine

    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            owner = conn.execute(text("SELECT owner FROM leases WHERE table_id = :t"),
                                 {"t": table}).scalar()
    finally:
        engine.dispose()
    return None if owner is None else int(str(owner).split("-")[-2])


def stored_events(database_url: str, table: str) -> list[tuple[int, str, str, int | None]]:
    """``table``'s event log as stored: (seq, kind, action, seat)."""
    from sqlalchemy import text

    from polignac.server.store.db import make_engine

    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT seq, kind, action, seat FROM events WHERE "
                                     "table_id = :t ORDER BY seq"), {"t": table}).all()
    finally:
        engine.dispose()
    return [(r.seq, r.kind, r.action, r.seat) for r in rows]


def new_table(proc: Proc, guests: list[Proc]) -> tuple[str, list[str]]:
    """A slobberhannes table (to 12 points) of four people: created on ``proc``, each
    invite taken on one of ``guests``; the table id and the four seat cookies."""
    with httpx.Client(base_url=proc.base, timeout=TIMEOUT, trust_env=False) as http:
        r = http.post("/api/tables", json={
            "preset": "slobberhannes", "overrides": {"threshold": 12}, "name": "Ann",
            "seats": [{"kind": "you"}] + [{"kind": "open"}] * 3})
        assert r.status_code == 200, r.text
    table = r.json()["id"]
    cookies = [f"polignac_{table}={r.cookies[f'polignac_{table}']}"]
    for invite, guest in zip(r.json()["invites"], guests, strict=True):
        with httpx.Client(base_url=guest.base, timeout=TIMEOUT, trust_env=False) as http:
            j = http.post(invite["url"], follow_redirects=False)
            assert j.status_code == 303, j.text
            cookies.append(f"polignac_{table}={j.cookies[f'polignac_{table}']}")
    return table, cookies


class Refused(Exception):
    """The server answered an action with an error frame (its ``rule`` in the message)."""


class Viewer:
    """A person's (or, without a cookie, a spectator's) WebSocket to a table through
    one process; it reconnects to another with its last seq when the one it used
    goes away, and keeps every public event it saw, by seq."""

    def __init__(self, table: str, cookie: str | None) -> None:
        self.table = table
        self.cookie = cookie
        self.ws: Any = None
        self.seq = 0
        self.view: dict[str, Any] = {}
        self.view_seq = 0
        """The seq the view is of: a catch-up's events carry no view but the last."""
        self.events: dict[int, dict[str, Any]] = {}
        self.frames: list[dict[str, Any]] = []
        self.reconnects = 0
        self.raise_errors = False
        """Raise :class:`Refused` on an error frame (while waiting for one's own action)."""

    def connect(self, procs: list[Proc], start: int = 0, seconds: float = 60.0) -> None:
        """Connect to the first live process of ``procs`` (from ``start``, round the
        list) that answers ``hello``; retry until ``seconds`` pass.

        Raises:
            AssertionError: none answered in time.
        """
        from websockets.sync.client import connect

        self.close()
        i = start

        def answered() -> bool:  # one try, at the next live process
            nonlocal i
            for _ in procs:
                proc = procs[i % len(procs)]
                i += 1
                if proc.alive():
                    break
            else:
                return False
            headers = {"Cookie": self.cookie} if self.cookie else {}
            try:
                self.ws = connect(f"ws://127.0.0.1:{proc.port}/tables/{self.table}/ws",
                                  proxy=None, additional_headers=headers,
                                  open_timeout=TIMEOUT)
                self.ws.send(json.dumps({"type": "hello", "last_seq": self.seq}))
                self.frame(any_type=True)  # nothing missed: only the presence frame
                return True
            except Exception:  # closed (1012), refused, timed out: the next one
                self.close()
                return False

        wait_until(answered, seconds, what=f"a process to answer for table {self.table}",
                   interval=0.1)

    def frame(self, any_type: bool = False) -> dict[str, Any]:
        """The next state or event frame (others are kept, skipped; with ``any_type``,
        the next frame whatever it is).

        Raises:
            websockets.exceptions.ConnectionClosed, TimeoutError: the connection ended.
        """
        while True:
            frame: dict[str, Any] = json.loads(self.ws.recv(timeout=TIMEOUT))
            self.frames.append(frame)
            if frame["type"] == "state":
                self.seq = self.view_seq = frame["seq"]
                self.view = frame["view"]
                return frame
            if frame["type"] == "event":
                assert frame["seq"] == self.seq + 1, (frame["seq"], self.seq)
                self.seq = frame["seq"]
                self.events[self.seq] = frame["event"]
                if "view" in frame:
                    self.view, self.view_seq = frame["view"], self.seq
                return frame
            assert frame["type"] in ("presence", "rematch", "commitment", "cut", "error"), frame
            if frame["type"] == "error" and self.raise_errors:
                raise Refused(f"{frame.get('rule')}: {frame.get('message')}")
            if any_type:
                return frame

    def until(self, seq: int) -> None:
        """Read frames up to event ``seq``, and on until the view is the current one."""
        while self.seq < seq or self.view_seq < self.seq:
            self.frame()

    def legal(self) -> list[str]:
        legal: list[str] = (self.view.get("deal") or {}).get("legal") or []
        return legal

    def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.close()
        self.ws = None


def stop_nginx(nginx: subprocess.Popen[bytes] | None) -> None:
    """Stop a test's nginx (None: none was started) and close its error pipe."""
    if nginx is None:
        return
    nginx.terminate()
    nginx.wait(10)
    if nginx.stderr:
        nginx.stderr.close()


def stop_group(proc: subprocess.Popen[bytes]) -> None:
    """Stop ``polignac serve`` started in a process group of its own (``--workers``: the
    supervisor and its processes): SIGTERM, then SIGKILL after 20 s."""
    import signal

    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
