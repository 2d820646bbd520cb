"""Rated matches with ``kill -9`` (docs/server.md, "Ratings"): ``polignac serve`` is
killed a few milliseconds after a player's last card of a rated match, when the
bots' last cards and the match's end (with its rating update) are being committed;
after each restart the match is played on.  At the end no rating update is lost or
doubled: every finished rated match has one ``rating_seq`` (1..N, no gap), one
history point, and ``polignac ratings rebuild --check`` equals the live ratings.
"""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from polignac.cli.main import main
from polignac.server.players.ratings import rebuild
from polignac.server.store.db import make_engine
from polignac.server.store.schema import history_t, match_results_t

from .conftest import free_port
from .test_kill9 import TIMEOUT, Player, Server, _polignac
from .waiting import wait_until

pytestmark = pytest.mark.slow
MATCHES = 6
KILLS = 3


class SlowStartServer(Server):
    """``test_kill9.Server`` with one bot worker and a minute to start (a busy machine)."""

    def __init__(self, data: Path, database_url: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [*_polignac(), "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--data", str(data), "--database-url", database_url, "--grace", "600",
             "--bot-delay", "0", "--deal-delay", "0", "--rate", "10000",
             "--bot-workers", "1", "--job-workers", "1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        def ready() -> bool:
            assert self.proc.poll() is None, "polignac serve exited"
            return httpx.get(self.base + "/ready", timeout=2,
                             trust_env=False).status_code == 200

        try:
            wait_until(ready, 90, what="polignac serve to start", interval=0.1,
                       ignoring=(httpx.HTTPError,))
        except AssertionError:
            self.kill()
            raise


def _play(player: Player, rng: random.Random, kill: Any | None, fired: list[bool]) -> bool:
    """Play random legal cards until the match is over (True); with ``kill``, call it a
    few milliseconds after this seat's last card (``fired`` then holds True).  Raises
    ConnectionClosed, TimeoutError or OSError once the server is dead."""
    while True:
        if player.view.get("finished"):
            return True
        legal = player.legal()
        if not legal:
            player.frame()
            continue
        hand = (player.view.get("deal") or {}).get("hand") or []
        player.ws.send(json.dumps({"type": "act", "action": rng.choice(legal),
                                   "seq": player.seq}))
        if kill is not None and len(hand) == 1 and not fired:
            fired.append(True)
            threading.Timer(rng.uniform(0, 0.01), kill).start()
        player.frame()


def test_rated_matches_survive_kill_minus_9(database_url: str, tmp_path: Path) -> None:
    rng = random.Random(7)
    data = tmp_path / "data"
    server: Server = SlowStartServer(data, database_url)
    kills = 0
    try:
        http = httpx.Client(base_url=server.base, timeout=TIMEOUT, trust_env=False,
                            headers={"origin": server.base})
        r = http.post("/api/account/signup", json={"username": "survivor",
                                                   "password": "killed nine times"})
        assert r.status_code == 200, r.text
        played = 0
        while played < MATCHES or kills < KILLS:
            assert played < 30, f"{KILLS} kills at a match's end did not happen in 30 matches"
            r = http.post("/api/tables", json={
                "preset": "polignac", "overrides": {"threshold": 1}, "rated": True,
                "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "easy"}] * 3})
            assert r.status_code == 200, r.text
            table = r.json()["id"]
            cookie = "; ".join(f"{name}={value}" for name, value in http.cookies.items())
            finished = False
            while not finished:
                player = Player(server, table, cookie)
                player.frame()
                fired: list[bool] = []
                kill = server.proc.kill if kills < KILLS else None
                with contextlib.suppress(Exception):
                    finished = _play(player, rng, kill, fired)
                player.close()
                if fired:  # killed (a deal that ends early never reaches a last card)
                    server.proc.wait(timeout=30)
                    kills += 1
                    finished = False
                    server.kill()
                    server = SlowStartServer(data, database_url)
                    http.base_url = httpx.URL(server.base)
                    http.headers["origin"] = server.base
            played += 1
        assert kills == KILLS
    finally:
        server.kill()
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            seqs = sorted(r.rating_seq for r in conn.execute(select(match_results_t)))
            history = conn.execute(select(history_t)).all()
        assert seqs == list(range(1, played + 1))
        assert sorted(h.seq for h in history) == seqs
        count, diff = rebuild(engine, write=False)
        assert count == 1 and diff == []
    finally:
        engine.dispose()
    assert main(["ratings", "rebuild", "--database-url", database_url, "--check"]) == 0
