"""The Argon2 line (``players/hashing.py``; docs/server.md, "Accounts and sessions"): a
bounded queue shared fairly by client networks, and what the account routes do with
it.  Jobs are held by a :class:`Gate` until the test opens it, so the line is filled
exactly as the test says; the counts' clock is a ManualClock that only the test moves.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from polignac.server.base.clock import ManualClock
from polignac.server.players import accounts
from polignac.server.players.hashing import HALF_LIFE, HashingBusy, HashQueue

from .test_accounts import PASSWORD, post
from .test_signin_limits import at, owner, signin
from .waiting import Gate, held_then, until, wait_until


def _job(done: list[str], name: str) -> str:
    done.append(name)
    return name


def test_one_job_per_network_and_a_bounded_line(tmp_path: Path) -> None:
    line = HashQueue(workers=1, bound=3, clock=ManualClock())
    done: list[str] = []

    async def go() -> None:
        with Gate(tmp_path) as gate:
            held: Callable[..., str] = functools.partial(held_then, gate.path, _job)
            first = asyncio.create_task(line.run("10.0.1.0/24", held, done, "first"))
            await until(lambda: line.running == 1, what="the first job to run")
            with pytest.raises(HashingBusy) as busy:  # its network has one in the line
                await line.run("10.0.1.0/24", _job, done, "again")
            assert busy.value.status == 429 and busy.value.rule == "hashing-busy"
            assert busy.value.headers is not None
            assert int(busy.value.headers["Retry-After"]) >= 1
            others = [asyncio.create_task(line.run(f"10.0.{n}.0/24", _job, done, f"n{n}"))
                      for n in (2, 3)]
            await until(lambda: len(line.jobs) == 3, what="two jobs waiting")
            with pytest.raises(HashingBusy):  # full, and nobody waiting asked more
                await line.run("10.0.4.0/24", _job, done, "n4")
            assert done == [] and line.refused == 2
            gate.open()
            assert await first == "first"
            assert [await t for t in others] == ["n2", "n3"]
        assert done == ["first", "n2", "n3"] and line.jobs == {}

    asyncio.run(go())
    line.close()


def test_the_network_that_asked_least_goes_first_and_may_push_out(tmp_path: Path) -> None:
    """A flooding network has asked many times: a newcomer waits before it, and takes
    its place in a full line (the flood's job is refused then)."""
    clock = ManualClock()
    line = HashQueue(workers=1, bound=3, clock=clock)
    done: list[str] = []
    flood, x, y, z = "10.9.9.0/24", "10.1.0.0/24", "10.2.0.0/24", "10.3.0.0/24"

    async def go() -> None:
        for _ in range(3):  # the flood asked three times lately
            await line.run(flood, _job, done, "flood-before")
        assert line.count(flood) == pytest.approx(3.0)
        with Gate(tmp_path) as gate:
            held: Callable[..., str] = functools.partial(held_then, gate.path, _job)
            running = asyncio.create_task(line.run(x, held, done, "x"))
            await until(lambda: line.running == 1, what="x to run")
            flooded = asyncio.create_task(line.run(flood, _job, done, "flood"))
            await until(lambda: flood in line.jobs, what="the flood's job to wait")
            late = asyncio.create_task(line.run(y, _job, done, "y"))
            await until(lambda: y in line.jobs, what="y to wait")
            assert [j.network for j in line.waiting()] == [y, flood]  # y came later
            newcomer = asyncio.create_task(line.run(z, _job, done, "z"))
            with pytest.raises(HashingBusy):  # pushed out of the full line
                await flooded
            assert [j.network for j in line.waiting()] == [y, z]
            gate.open()
            assert [await t for t in (running, late, newcomer)] == ["x", "y", "z"]
        assert done[3:] == ["x", "y", "z"]
        await clock.advance(10 * HALF_LIFE)  # a network left alone is counted anew
        assert line.count(flood) < 0.01

    asyncio.run(go())
    line.close()


def test_a_waiting_job_given_up_frees_its_place(tmp_path: Path) -> None:
    line = HashQueue(workers=1, bound=2, clock=ManualClock())
    done: list[str] = []

    async def go() -> None:
        with Gate(tmp_path) as gate:
            held: Callable[..., str] = functools.partial(held_then, gate.path, _job)
            running = asyncio.create_task(line.run("10.0.1.0/24", held, done, "a"))
            await until(lambda: line.running == 1, what="a to run")
            waiting = asyncio.create_task(line.run("10.0.2.0/24", _job, done, "b"))
            await until(lambda: len(line.jobs) == 2, what="b to wait")
            waiting.cancel()  # its client went away
            await until(lambda: len(line.jobs) == 1, what="b's place to be free")
            third = asyncio.create_task(line.run("10.0.3.0/24", _job, done, "c"))
            gate.open()
            assert await running == "a" and await third == "c"
        assert done == ["a", "c"]

    asyncio.run(go())
    line.close()


class _Held:
    """``accounts.verify_password`` held at ``gate`` until the test opens it."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate
        self.real = accounts.verify_password
        self.calls: list[str | None] = []

    def __call__(self, stored: str | None, password: str) -> bool:
        self.calls.append(stored)
        return held_then(self.gate.path, self.real, stored, password)


def _line(client: TestClient) -> HashQueue:
    line: HashQueue = client.app.state.accounts.hashing  # type: ignore[attr-defined]
    return line


def test_a_second_hash_from_one_network_is_refused_while_another_gets_in(
        client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    owner(client, "192.0.2.1")
    with Gate(tmp_path) as gate, ThreadPoolExecutor(2) as threads:
        monkeypatch.setattr(accounts, "verify_password", _Held(gate))
        line = _line(client)
        first = threads.submit(signin, at(client, "198.51.100.7"), PASSWORD)
        wait_until(lambda: line.running == 1, what="the first sign-in to hash")
        r = signin(at(client, "198.51.100.8"), PASSWORD)  # the same /24, at once
        assert r.status_code == 429 and r.json()["rule"] == "hashing-busy", r.text
        assert int(r.headers["retry-after"]) >= 1
        other = threads.submit(signin, at(client, "203.0.113.5"), PASSWORD)
        wait_until(lambda: line.running == 2, what="another network's sign-in to hash")
        gate.open()
        assert first.result().status_code == 200 and other.result().status_code == 200
    assert signin(at(client, "198.51.100.8"), PASSWORD).status_code == 200  # its turn now


def test_an_unknown_name_costs_a_hash_and_counts_against_the_limits(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A made-up name is verified against a dummy hash, in the same line, and its tries
    count per name and network as a real name's do: 10, then 429."""
    owner(client, "192.0.2.2")
    calls: list[str | None] = []
    real = accounts.verify_password

    def counted(stored: str | None, password: str) -> bool:
        calls.append(stored)
        return real(stored, password)

    monkeypatch.setattr(accounts, "verify_password", counted)
    guesser = at(client, "198.51.100.20")
    answers = [signin(guesser, PASSWORD, name="nobody_here").status_code for _ in range(11)]
    assert answers == [401] * 10 + [429]
    assert calls == [None] * 10  # ten hashes (a dummy each), none for the refused one
    r = signin(at(client, "198.51.100.21"), PASSWORD, name="NOBODY_HERE")
    assert r.status_code == 429 and r.json()["rule"] == "signin-rate"  # any case, same name
    # another network may still sign in to a real account
    assert signin(at(client, "203.0.113.20"), PASSWORD).status_code == 200


def test_recover_checks_the_code_before_any_hash_in_the_line(
        client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A wrong code (a real name's or a made-up one's) never enters the line; a right
    one has the new password hashed there."""
    _home, codes = owner(client, "192.0.2.3")
    hashed: list[str] = []
    real = accounts.hash_password
    lock = threading.Lock()

    def counted(password: str) -> str:
        with lock:
            hashed.append(password)
        return real(password)

    monkeypatch.setattr(accounts, "hash_password", counted)
    stranger = at(client, "198.51.100.30")
    for name in ("alice", "nobody_here"):
        r = post(stranger, "/api/account/recover",
                 {"username": name, "code": "AAAA-BBBB-CCCC-DDDD", "password": "new password 1"})
        assert r.status_code == 401 and r.json()["rule"] == "bad-recovery"
    assert hashed == [] and _line(client).jobs == {}
    r = post(stranger, "/api/account/recover",
             {"username": "alice", "code": codes[0], "password": "new password 1"})
    assert r.status_code == 200, r.text
    assert hashed == ["new password 1"]
