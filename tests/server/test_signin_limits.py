"""Throttle the guesser, never the owner (docs/server.md, "Accounts and sessions";
``players/signin_limits.py``, ``players/devices.py``).

Other clients are TestClients with their own address (``client=(address, port)``, the
``scope["client"]`` uvicorn would give); the addresses of 127.0.0.0/8 stand for
clients, each /24 of them for a network.  The limits' clock is held (a ManualClock
that nobody advances): no bucket refills while a test runs, however slow the machine.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from starlette.testclient import TestClient

from polignac.server.base.clock import ManualClock
from polignac.server.players import accounts, devices
from polignac.server.players.ratelimits import SharedLimits
from polignac.server.players.signin_limits import SigninLimits

from .test_accounts import PASSWORD, post

WRONG = "not the password"


def at(client: TestClient, address: str) -> TestClient:
    """Another browser, at ``address``, on ``client``'s app and event loop."""
    other = TestClient(client.app, base_url=str(client.base_url), client=(address, 1))
    other.portal = client.portal
    return other


def signin(browser: TestClient, password: str, name: str = "alice") -> Any:
    return post(browser, "/api/account/signin", {"username": name, "password": password})


def owner(client: TestClient, address: str, name: str = "alice") -> tuple[TestClient, list[str]]:
    """The owner's browser at ``address``, signed up there (it has her device cookie),
    and her recovery codes."""
    client.app.state.limits.clock = ManualClock()  # type: ignore[attr-defined]
    home = at(client, address)
    r = post(home, "/api/account/signup", {"username": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    assert home.cookies.get(devices.DEVICE_COOKIE)
    return home, r.json()["recovery_codes"]


def test_a_strangers_guesses_do_not_lock_the_owner_out(client: TestClient) -> None:
    """The hostile tester's break: 15 wrong passwords for a public name from
    127.0.0.2..127.0.0.16, and the real owner was refused (429) with the right password
    and with a recovery code.  The stranger's network is slowed; the owner, from a new
    address of another network and without any cookie, gets in."""
    _home, codes = owner(client, "127.0.9.1")
    answers = [signin(at(client, f"127.0.0.{n}"), WRONG).status_code for n in range(2, 17)]
    assert answers == [401] * 10 + [429] * 5  # one /24: one guesser
    refused = signin(at(client, "127.0.0.17"), PASSWORD)  # the guesser's network, right
    assert refused.status_code == 429 and refused.json()["rule"] == "signin-rate"
    assert int(refused.headers["retry-after"]) >= 1
    new = at(client, "127.0.1.5")  # the owner on a new network, no device cookie
    r = signin(new, PASSWORD)
    assert r.status_code == 200, r.text
    assert r.json()["username"] == "alice"
    r = post(at(client, "127.0.2.5"), "/api/account/recover",
             {"username": "alice", "code": codes[0], "password": "a new password 1"})
    assert r.status_code == 200 and r.json()["codes_left"] == 7, r.text


def test_the_device_cookie_lets_the_owner_in_during_a_bigger_flood(
        client: TestClient) -> None:
    home, _codes = owner(client, "192.0.2.10")
    # a stranger on her own network, then on 40 others: the name's slow-down engages
    near = [signin(at(client, "192.0.2.99"), WRONG).status_code for _ in range(12)]
    assert near == [401] * 10 + [429] * 2
    far = [signin(at(client, f"10.{k}.0.1"), WRONG).status_code for k in range(40)]
    assert far == [401] * 10 + [429] * 30  # 20 tries of the name at once, then it waits
    # a browser without her device cookie waits now, whatever its network...
    assert signin(at(client, "203.0.113.9"), PASSWORD).status_code == 429
    # ...with another account's device cookie too
    mallory = at(client, "198.51.100.3")
    assert post(mallory, "/api/account/signup", {"username": "mallory",
                                                 "password": PASSWORD}).status_code == 200
    assert signin(mallory, PASSWORD).status_code == 429
    # her own browser, from her flooded network, gets in, and again
    for _ in range(2):
        r = signin(home, PASSWORD)
        assert r.status_code == 200 and r.json()["username"] == "alice", r.text
    # a forged or spoiled cookie counts as none
    forged = at(client, "192.0.2.11")
    value = home.cookies.get(devices.DEVICE_COOKIE)
    assert value is not None
    forged.cookies.set(devices.DEVICE_COOKIE, value[:-2] + ("AA" if value[-2:] != "AA"
                                                              else "BB"), path="/api/account")
    assert signin(forged, PASSWORD).status_code == 429


def test_a_device_cookie_has_a_limit_of_its_own(client: TestClient) -> None:
    """Stolen, it is no way around the limits: 10 tries, then 5 a minute."""
    home, _codes = owner(client, "192.0.2.20")
    answers = [signin(home, WRONG).status_code for _ in range(11)]
    assert answers == [401] * 10 + [429]


def test_a_recovery_code_is_checked_before_any_hashing(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    owner(client, "192.0.2.30")
    hashed: list[str] = []
    real = accounts.hash_password
    monkeypatch.setattr(accounts, "hash_password", lambda p: hashed.append(p) or real(p))
    r = post(at(client, "198.51.100.30"), "/api/account/recover",
             {"username": "alice", "code": "AAAA-BBBB-CCCC-DDDD", "password": "new password 1"})
    assert r.status_code == 401 and r.json()["rule"] == "bad-recovery"
    r = post(at(client, "198.51.100.30"), "/api/account/recover",
             {"username": "nobody_here", "code": "AAAA-BBBB-CCCC-DDDD",
              "password": "new password 1"})
    assert r.status_code == 401
    assert hashed == []


def test_device_cookies_are_signed_and_expire(tmp_path: Any) -> None:
    from polignac.server.store.db import make_engine, migrate

    engine = make_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    try:
        migrate(engine)
        key = devices.device_key(engine)
        assert devices.device_key(engine) == key and len(key) == 32  # made once
    finally:
        engine.dispose()
    value = devices.issue(key, 7, now=1_000_000)
    found = devices.read(key, value, now=1_000_000 + 3600)
    assert found is not None and found.account_id == 7
    assert devices.read(key, value, now=1_000_000 + devices.DEVICE_SECONDS + 1) is None
    assert devices.read(key, value, now=1_000_000 - 3600) is None  # from the future
    assert devices.read(b"another key" * 3, value, now=1_000_000) is None
    other = value.replace("v1.7.", "v1.8.", 1)  # another account, the same MAC
    assert devices.read(key, other, now=1_000_000) is None
    for junk in ("", "v1", "x" * 200, value + "x"):
        assert devices.read(key, junk, now=1_000_000) is None


def test_the_names_slow_down_grows_with_the_tries() -> None:
    """20 tries of a name at once, then 10 a minute; past 100 one a minute; a name left
    alone is free again (the clock advanced, not waited for)."""
    async def run() -> None:
        clock = ManualClock()
        limits = SigninLimits(SharedLimits("memory://", clock=clock))

        async def tries(n: int) -> int:  # each from a network of its own
            passed = 0
            for _ in range(n):
                passed += await limits.take("signin", f"net-{next(counter)}", "Bob") is None
            return passed
        counter = iter(range(10**6))
        assert await tries(25) == 20
        await clock.advance(60)
        assert await tries(15) == 10  # 10 a minute
        passed = [20, 10]
        for _ in range(12):
            await clock.advance(60)
            passed.append(await tries(10))
        assert passed[2:9] == [10] * 7 and sum(passed[:9]) == 100  # 10 a minute...
        assert passed[-3:] == [1, 1, 1]  # ...then one a minute past 100
        await clock.advance(60)
        assert await tries(10) == 1
        wait = await limits.take("signin", "net-x", "bob")
        assert wait is not None and wait >= 60
        assert await limits.take("signin", "net-y", "carol") is None  # another name
        assert await limits.take("recover", "net-z", "bob") is None  # recovery apart
        await clock.advance(24 * 3600)
        assert await tries(20) == 20  # left alone a day: free again
    asyncio.run(run())
