"""``kill -9`` landing in three kinds of work at once (issue 32, item 7): rated match
ends, Find players groups being made into tables, and sign-ups / sign-ins.

Starts a throwaway PostgreSQL and Redis on 127.0.0.1 (as the tests do) and two
``polignac serve`` processes on them (Redis bus, lease 2 s).  ``--kills`` times, in
turn:

- **match**: an account plays a rated Polignac match (to 1 point, three easy bots)
  and the table's owner is killed 0-10 ms after the account's last card, as
  tests/server/test_ratings_kill9.py does; the page reconnects to a live process
  with its last seq and plays on to the end;
- **seek**: four people ask for the same game (Find players) on both processes;
  the process that claims their group is killed 0-10 ms after its claim is seen,
  its table insert held by a lock as tests/server/test_seeks_failover.py holds it;
  the pages keep asking the survivor until everyone is seated, and the table must
  then take an action from the one to act;
- **signin**: eight clients (each from a network of its own, ``X-Forwarded-For``
  trusted from 127.0.0.1) sign up new accounts and sign in to earlier ones on both
  processes; one process is killed 20-150 ms into the burst.

Each kill is followed by a restart of the killed process (a new one on a new port).

At the end it checks: no acknowledged action lost (every event a page saw is
stored, in that order, as tests/server/test_cluster.py checks); every finished
rated match's rating applied once (``rating_seq`` 1..N, no gap, one history point
each, ``polignac ratings rebuild --check`` equal to the live ratings); every
acknowledged sign-up's account exists and signs in; every seek seated at one
table that takes an action, none lost.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_kill_mix.py [--kills 20] [--seed 1]

Prints the figures; exit status 1 on any loss.  Needs PostgreSQL's server
programs and ``redis-server``.  Not a test.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.cluster_support import (  # noqa: E402
    TIMEOUT,
    Proc,
    Refused,
    Viewer,
    owner_pid,
    stored_events,
)
from tests.server.conftest import PgServer, RedisServer, _pg_bin  # noqa: E402
from tests.server.test_cluster import _act, _replace_dead, _start  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

LEASE = 2.0
PASSWORD = "killed-nine-times-{}"
BOUND = 120.0
"""Seconds anything may take after a kill before it counts as lost."""


class Run:
    """The processes, the kills, and what the checks need."""

    def __init__(self, url: str, bus: str, data: Path, seed: int) -> None:
        self.url, self.bus, self.data = url, bus, data
        self.rng = random.Random(seed)
        self.seed = seed
        self.procs = _start(2, url, bus, data, lease=LEASE)
        self.killed_at: list[float] = []
        self.kinds: dict[str, int] = {"match": 0, "seek": 0, "signin": 0}
        self.failover: dict[str, list[float]] = {"match": [], "seek": []}
        self.tables: list[tuple[str, Viewer]] = []  # rated tables and their page
        self.finished = 0
        self.seated: list[str] = []  # seek tables
        self.seeks = 0
        self.accounts: list[str] = []  # acknowledged sign-ups
        self.signins = {"ok": 0, "refused": 0, "failed": 0}
        self.signups = {"ok": 0, "refused": 0, "failed": 0}
        self.lost: list[str] = []
        self.names = 0

    def kill(self, proc: Proc) -> None:
        proc.kill()
        self.killed_at.append(time.monotonic())

    def wait_killed(self, n: int) -> float:
        """Wait (30 s at most) until kill number ``n`` (from 1) is done; its time.

        Raises:
            AssertionError: it was not done in time.
        """
        deadline = time.monotonic() + 30
        while len(self.killed_at) < n:
            assert time.monotonic() < deadline, f"kill {n} did not happen"
            time.sleep(0.01)
        return self.killed_at[n - 1]

    def restart(self) -> None:
        """A new process in the dead one's place, ready."""
        _replace_dead(self.procs, self.killed_at, self.url, self.bus, self.data, LEASE)
        for p in self.procs:
            p.wait_ready()

    def live(self) -> Proc:
        return next(p for p in self.procs if p.alive())

    def client(self, proc: Proc, address: str | None = None) -> httpx.Client:
        headers = {"origin": proc.base}
        if address:
            headers["x-forwarded-for"] = address
        return httpx.Client(base_url=proc.base, timeout=TIMEOUT, trust_env=False,
                            headers=headers)

    def address(self) -> str:
        """A client address in a /24 of its own."""
        self.names += 1
        return f"10.{self.names // 250}.{self.names % 250}.1"

    # -- rated match ends -------------------------------------------------------

    def match(self, http: httpx.Client) -> None:
        """One rated match; its owner killed a few ms after the account's last card."""
        i = self.rng.randrange(2)
        proc = self.procs[i]
        http.base_url = httpx.URL(proc.base)
        http.headers["origin"] = proc.base
        r = http.post("/api/tables", json={
            "preset": "polignac", "overrides": {"threshold": 1}, "rated": True,
            "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * 3})
        assert r.status_code == 200, r.text
        table = r.json()["id"]
        cookie = "; ".join(f"{name}={value}" for name, value in http.cookies.items())
        v = Viewer(table, cookie)
        self.tables.append((table, v))
        v.connect(self.procs, i)
        fired = False
        kill_number = len(self.killed_at) + 1
        pending: float | None = None
        for _ in range(500):
            try:
                if v.view.get("finished"):
                    break
                legal = v.legal()
                if not legal:
                    v.frame()
                    continue
                hand = (v.view.get("deal") or {}).get("hand") or []
                action = self.rng.choice(legal)
                v.ws.send(json.dumps({"type": "act", "action": action, "seq": v.seq}))
                if not fired and len(hand) == 1:
                    fired = True
                    owner = owner_pid(self.url, table)
                    victim = next((p for p in self.procs if p.pid == owner), proc)
                    threading.Timer(self.rng.uniform(0, 0.01), self.kill, [victim]).start()
                v.raise_errors = True
                try:
                    frame = v.frame()
                    while frame["type"] != "event" or frame["event"].get("seat") != 0:
                        frame = v.frame()
                finally:
                    v.raise_errors = False
                if pending is not None:
                    self.failover["match"].append(time.monotonic() - pending)
                    pending = None
            except (ConnectionClosed, TimeoutError, OSError, Refused):
                if fired and pending is None:
                    pending = self.wait_killed(kill_number)
                    _replace_dead(self.procs, self.killed_at, self.url, self.bus,
                                  self.data, LEASE)
                v.connect(self.procs, self.rng.randrange(2))
        else:
            self.lost.append(f"match {table} did not end")
        if fired and pending is None:  # it ended before the page saw the kill: the
            pending = self.wait_killed(kill_number)  # table answers once taken over
            _replace_dead(self.procs, self.killed_at, self.url, self.bus, self.data, LEASE)
            v.connect(self.procs, self.rng.randrange(2))
        if pending is not None:
            self.failover["match"].append(time.monotonic() - pending)
        if v.view.get("finished"):  # rated, whether a kill landed in it or not
            self.finished += 1
        v.close()
        if not fired:  # the deal ended before a last card: no kill this time
            return
        self.kinds["match"] += 1
        self.restart()

    # -- Find players ---------------------------------------------------------

    def seek(self) -> None:
        """Four people ask; the claimant of their group is killed before its table."""
        from sqlalchemy import text

        from polignac.server.store.db import make_engine

        n = self.kinds["seek"]
        clients = [self.client(self.procs[i % 2]) for i in range(4)]
        engine = make_engine(self.url)
        lock = engine.connect()
        try:
            lock.begin()
            lock.execute(text("LOCK TABLE tables IN SHARE MODE"))  # a table insert waits
            for i, http in enumerate(clients):
                r = http.post("/api/seeks", json={"preset": "polignac", "players": 4,
                                                  "name": f"S{n}x{i}"})
                assert r.status_code == 200, r.text
                self.seeks += 1
            claimant: str | None = None
            deadline = time.monotonic() + BOUND
            while claimant is None:
                assert time.monotonic() < deadline, "no claim"
                for http in clients:  # the pages keep asking
                    http.get("/api/seeks")
                with engine.connect() as conn:
                    claimant = conn.execute(text(
                        "SELECT claimant FROM seeks WHERE state = 'creating'")).scalar()
                time.sleep(0.05)
            pid = int(str(claimant).split("-")[-2])
            victim = next(p for p in self.procs if p.pid == pid)
            time.sleep(self.rng.uniform(0, 0.01))
            self.kill(victim)
            killed = self.killed_at[-1]
            lock.rollback()
        finally:
            lock.close()
            engine.dispose()
        survivor = self.live()
        clients = [httpx.Client(base_url=survivor.base, timeout=TIMEOUT, trust_env=False,
                                cookies=c.cookies) for c in clients]
        seated: dict[int, str] = {}
        while len(seated) < 4 and time.monotonic() - killed < BOUND:
            for i, http in enumerate(clients):
                if i in seated:
                    continue
                mine = http.get("/api/seeks").json()["mine"]
                if mine is None:
                    self.lost.append(f"seek S{n}x{i} vanished")
                    seated[i] = ""
                elif mine["state"] == "seated":
                    seated[i] = mine["url"].rsplit("/", 1)[-1]
            time.sleep(0.1)
        self.failover["seek"].append(time.monotonic() - killed)
        self.kinds["seek"] += 1
        tables = set(seated.values())
        if len(seated) < 4 or len(tables) != 1 or "" in tables:
            self.lost.append(f"seek group {n}: seated {seated}")
        else:
            table = tables.pop()
            self.seated.append(table)
            cookies = sorted((http.cookies[f"polignac_{table}"] for http in clients),
                             key=lambda c: int(c.split(".", 1)[0]))  # by seat
            viewers = [Viewer(table, f"polignac_{table}={c}") for c in cookies]
            try:
                for v in viewers:
                    v.connect([survivor])
                got = None
                for _ in range(5):  # the dealer may be due first
                    got = _act(viewers, self.rng)
                    if got is not None:
                        break
                if got is None:
                    self.lost.append(f"seek table {table} took no action")
            finally:
                for v in viewers:
                    v.close()
        for http in clients:
            http.close()
        self.restart()

    # -- sign-ups and sign-ins ------------------------------------------------

    def signin(self) -> None:
        """A burst of sign-ups and sign-ins on both processes; one killed in it."""
        victim = self.procs[self.rng.randrange(2)]
        n = self.kinds["signin"]
        jobs: list[tuple[str, str, Proc, str]] = []
        for k in range(8):  # sign-ups and sign-ins on both processes
            proc = self.procs[(k // 2) % 2]
            if k % 2 == 0 or not self.accounts:
                jobs.append(("signup", f"mix{self.seed}n{n}k{k}", proc, self.address()))
            else:
                jobs.append(("signin", self.rng.choice(self.accounts), proc, self.address()))

        def one(job: tuple[str, str, Proc, str]) -> tuple[str, str, str]:
            kind, name, proc, address = job
            try:
                with self.client(proc, address) as http:
                    r = http.post(f"/api/account/{kind}",
                                  json={"username": name, "password": PASSWORD.format(name)})
            except httpx.HTTPError:
                return kind, name, "failed"
            if r.status_code == 200:
                return kind, name, "ok"
            if r.status_code == 429 or r.status_code >= 500:
                return kind, name, "refused"
            return kind, name, f"answered {r.status_code} {r.text[:200]}"

        timer = threading.Timer(self.rng.uniform(0.02, 0.15), self.kill, [victim])
        with ThreadPoolExecutor(8) as pool:
            timer.start()
            results = list(pool.map(one, jobs))
        timer.join()
        for kind, name, outcome in results:
            counts = self.signups if kind == "signup" else self.signins
            if outcome in counts:
                counts[outcome] += 1
            else:
                self.lost.append(f"{kind} {name}: {outcome}")
            if kind == "signup" and outcome == "ok":
                self.accounts.append(name)
        self.kinds["signin"] += 1
        self.restart()

    # -- the checks -----------------------------------------------------------

    def check(self) -> dict[str, Any]:
        """Every loss found goes to ``self.lost``; returns the ratings' figures."""
        from sqlalchemy import select

        from polignac.cli.main import main as cli
        from polignac.server.players.ratings import rebuild
        from polignac.server.store.db import make_engine
        from polignac.server.store.schema import history_t, match_results_t

        acked = 0
        for table, v in self.tables:  # nothing acknowledged lost
            stored = stored_events(self.url, table)
            if [s[0] for s in stored] != list(range(1, len(stored) + 1)):
                self.lost.append(f"{table}: a gap in the stored seqs")
            by_seq = {s[0]: s for s in stored}
            for seq, event in v.events.items():
                acked += 1
                seen = (event["kind"], event.get("action", "deal"), event.get("seat"))
                if by_seq.get(seq, (None,))[1:] != seen:
                    self.lost.append(f"{table} event {seq}: seen {seen}, stored "
                                     f"{by_seq.get(seq)}")
        engine = make_engine(self.url)
        try:
            with engine.connect() as conn:
                seqs = sorted(r.rating_seq for r in conn.execute(select(match_results_t))
                              if r.rating_seq is not None)
                history = sorted(h.seq for h in conn.execute(select(history_t)))
            if seqs != list(range(1, self.finished + 1)):
                self.lost.append(f"rating_seq {seqs} for {self.finished} rated matches")
            if history != seqs:
                self.lost.append(f"history points {history}, rating_seq {seqs}")
            _count, diff = rebuild(engine, write=False)
            if diff:
                self.lost.append(f"ratings rebuilt differ from the live ones: {diff[:3]}")
        finally:
            engine.dispose()
        with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):
            code = cli(["ratings", "rebuild", "--database-url", self.url, "--check"])
        if code != 0:
            self.lost.append(f"polignac ratings rebuild --check exited {code}")
        proc = self.live()
        for name in self.accounts:  # every acknowledged sign-up signs in
            with self.client(proc, self.address()) as http:
                r = http.post("/api/account/signin",
                              json={"username": name, "password": PASSWORD.format(name)})
            if r.status_code != 200:
                self.lost.append(f"account {name}: sign-in answered {r.status_code}")
        return {"acked": acked, "rating_seqs": len(seqs)}

    def close(self) -> None:
        for _t, v in self.tables:
            v.close()
        for p in self.procs:
            p.kill()


def run(url: str, bus: str, data: Path, kills: int, seed: int) -> tuple[Run, dict[str, Any]]:
    """The kills, in turn match, seek, signin; then the checks."""
    os.environ["FORWARDED_ALLOW_IPS"] = "127.0.0.1"  # the processes inherit it
    r = Run(url, bus, data, seed)
    try:
        with r.client(r.procs[0], r.address()) as http:
            answer = http.post("/api/account/signup", json={
                "username": f"rated{seed}", "password": PASSWORD.format("rated")})
            assert answer.status_code == 200, answer.text
            order = ["match", "seek", "signin"]
            tries = 0
            while len(r.killed_at) < kills:
                kind = order[len(r.killed_at) % 3]
                tries += 1
                assert tries < kills * 5, f"kills did not land: {r.kinds}"
                if kind == "match":
                    r.match(http)
                elif kind == "seek":
                    r.seek()
                else:
                    r.signin()
        return r, r.check()
    finally:
        r.close()


def main(argv: list[str] | None = None) -> int:
    """Run it; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    bin_dir = _pg_bin()
    binary = shutil.which("redis-server")
    if bin_dir is None or binary is None:
        print("needs PostgreSQL's server programs and redis-server", file=sys.stderr)
        return 2
    pg, redis = PgServer(bin_dir), RedisServer(binary)
    data = Path(tempfile.mkdtemp(prefix="polignac-killmix-"))
    try:
        pg.start()
        redis.start()
        r, figures = run(pg.new_database(), redis.url(0), data, args.kills, args.seed)
    finally:
        redis.stop()
        pg.stop()
        shutil.rmtree(data, ignore_errors=True)

    def spread(times: list[float]) -> str:
        if not times:
            return "none"
        return f"p50 {statistics.median(times):.2f} s, max {max(times):.2f} s"

    print(f"kills {len(r.killed_at)} (match ends {r.kinds['match']}, seeks being seated "
          f"{r.kinds['seek']}, sign-up/sign-in bursts {r.kinds['signin']}), seed {args.seed}, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"rated matches finished {r.finished}, ratings applied {figures['rating_seqs']}, "
          f"events seen by the pages {figures['acked']}")
    print(f"seeks {r.seeks} formed into {len(r.seated)} tables, each took an action")
    print(f"sign-ups ok {r.signups['ok']} (refused {r.signups['refused']}, cut by the kill "
          f"{r.signups['failed']}), sign-ins ok {r.signins['ok']} (refused "
          f"{r.signins['refused']}, cut {r.signins['failed']}); every sign-up signs in")
    print(f"failover: match (kill to the next acknowledged card, or to the table "
          f"answering again when the match had ended) {spread(r.failover['match'])}"
          f"; seek (kill to everyone seated) {spread(r.failover['seek'])}")
    print(f"lost = {len(r.lost)}")
    for line in r.lost:
        print(f"  ! {line}")
    return 1 if r.lost else 0


if __name__ == "__main__":
    sys.exit(main())
