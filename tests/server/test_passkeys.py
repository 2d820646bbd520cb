"""Passkeys' bounds (docs/server.md, "Accounts and sessions"): a credential id is one
account's once (``409 passkey-taken``, nothing changes), the cap of 10 holds when a
passkey is stored (not only when options are asked for), registration options are
limited per account, their challenges expire and the table of challenges is bounded.

The registrations here are real WebAuthn answers that ``webauthn`` verifies: an
authenticator of our own (a P-256 key, attestation ``none``) signs nothing at
registration, so building its ``attestationObject`` is enough.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import cbor2
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import func, select
from starlette.testclient import TestClient

from polignac.server.base.clock import ManualClock
from polignac.server.players import passkeys
from polignac.server.players.accounts import AccountError, AccountStore
from polignac.server.store.db import make_engine, migrate
from polignac.server.store.schema import challenges_t

from .helpers import sibling
from .test_accounts import post, signup


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def registration(challenge: str, credential_id: bytes | None = None,
                 rp_id: str = "testserver", origin: str = "http://testserver") -> dict[str, Any]:
    """A browser's ``PublicKeyCredential.toJSON()`` for a new passkey answering
    ``challenge``: attestation ``none``, user present and verified."""
    credential_id = credential_id or os.urandom(16)
    numbers = ec.generate_private_key(ec.SECP256R1()).public_key().public_numbers()
    cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                        -3: numbers.y.to_bytes(32, "big")})
    auth_data = (hashlib.sha256(rp_id.encode()).digest() + bytes([0x45])
                 + struct.pack(">I", 0) + bytes(16) + struct.pack(">H", len(credential_id))
                 + credential_id + cose)
    client_data = json.dumps({"type": "webauthn.create", "challenge": challenge,
                              "origin": origin, "crossOrigin": False}).encode()
    return {"id": _b64(credential_id), "rawId": _b64(credential_id), "type": "public-key",
            "response": {"clientDataJSON": _b64(client_data),
                         "attestationObject": _b64(cbor2.dumps(
                             {"fmt": "none", "attStmt": {}, "authData": auth_data})),
                         "transports": ["internal"]}}


def register(client: TestClient, credential_id: bytes | None = None) -> Any:
    """Ask for options, answer them with a new passkey (``credential_id``)."""
    options = post(client, "/api/account/passkeys/register/options")
    assert options.status_code == 200, options.text
    return post(client, "/api/account/passkeys/register",
                {"credential": registration(options.json()["challenge"], credential_id)})


def _challenges(client: TestClient) -> int:
    with client.app.state.hub.store.engine.connect() as conn:  # type: ignore[attr-defined]
        return int(conn.execute(select(func.count()).select_from(challenges_t)).scalar_one())


def test_a_passkey_registered_again_is_refused_and_changes_nothing(client: TestClient) -> None:
    signup(client, "ann_keys")
    key = os.urandom(16)
    r = register(client, key)
    assert r.status_code == 200 and r.json() == {"passkeys": 1}, r.text
    listed = client.get("/api/account/passkeys").json()
    # the same account again (a client that ignores excludeCredentials)
    r = register(client, key)
    assert r.status_code == 409 and r.json()["rule"] == "passkey-taken", r.text
    assert "already registered" in r.json()["error"]
    # another account
    bob = sibling(client)
    signup(bob, "bob_keys")
    r = register(bob, key)
    assert r.status_code == 409 and r.json()["rule"] == "passkey-taken", r.text
    assert client.get("/api/account/passkeys").json() == listed
    assert bob.get("/api/account/passkeys").json() == {"passkeys": []}
    assert register(bob).json() == {"passkeys": 1}  # another key is welcome


def test_the_cap_holds_when_a_passkey_is_stored(client: TestClient) -> None:
    """Options taken while the account had room are no way past the cap: the count is
    checked again, in the transaction that stores the passkey."""
    signup(client, "cap_keys")
    for n in range(1, 9):
        assert register(client).json() == {"passkeys": n}
    waiting = [post(client, "/api/account/passkeys/register/options").json()["challenge"]
               for _ in range(3)]  # 8 passkeys: each of these may ask
    answers = [post(client, "/api/account/passkeys/register",
                    {"credential": registration(c)}) for c in waiting]
    assert [a.status_code for a in answers] == [200, 200, 409]
    assert answers[1].json() == {"passkeys": 10}
    assert answers[2].json()["rule"] == "too-many-passkeys"
    assert len(client.get("/api/account/passkeys").json()["passkeys"]) == 10
    r = post(client, "/api/account/passkeys/register/options")
    assert r.status_code == 409 and r.json()["rule"] == "too-many-passkeys"


def test_registrations_at_once_stop_at_the_cap(database_url: str) -> None:
    """14 registrations of one account at once, on SQLite and on PostgreSQL: 10 stored."""
    engine = make_engine(database_url)
    try:
        migrate(engine)
        account = AccountStore(engine).create("many_keys", "x", None, ["AAAA-BBBB"])

        def one(n: int) -> str:
            try:
                passkeys.add_passkey(engine, account.id, f"cred-{n}", "key", 0)
            except AccountError as exc:
                return exc.rule
            return "ok"
        with ThreadPoolExecutor(14) as pool:
            answers = list(pool.map(one, range(14)))
        assert sorted(answers) == ["ok"] * 10 + ["too-many-passkeys"] * 4
        assert len(passkeys.credential_ids(engine, account.id)) == 10
    finally:
        engine.dispose()


def test_registration_options_are_bounded(client: TestClient) -> None:
    """600 option requests in a row left 601 rows: now 20 at once, then 10 a minute, and
    at most 3 of an account's wait (the oldest is replaced).  The limits' clock is held:
    nothing refills meanwhile, however slow the machine."""
    client.app.state.limits.clock = ManualClock()  # type: ignore[attr-defined]
    signup(client, "greedy_keys")
    answers = [post(client, "/api/account/passkeys/register/options") for _ in range(30)]
    codes = [a.status_code for a in answers]
    assert codes == [200] * 20 + [429] * 10
    assert answers[-1].json()["rule"] == "passkey-rate"
    assert int(answers[-1].headers["retry-after"]) >= 1
    assert _challenges(client) == passkeys.MAX_REGISTER_CHALLENGES
    # a replaced challenge is worth nothing; the newest three are good
    oldest = answers[16].json()["challenge"]
    r = post(client, "/api/account/passkeys/register", {"credential": registration(oldest)})
    assert r.status_code == 400 and r.json()["rule"] == "bad-passkey"
    newest = answers[19].json()["challenge"]
    r = post(client, "/api/account/passkeys/register", {"credential": registration(newest)})
    assert r.status_code == 200, r.text


def test_challenges_expire_and_are_deleted(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    try:
        migrate(engine)
        start = time.time()
        passkeys.store_challenge(engine, "old", "signin", None, now=start)
        later = start + passkeys.CHALLENGE_SECONDS + 1
        assert not passkeys.spend_challenge(engine, "old", "signin", None, now=later)
        passkeys.store_challenge(engine, "new", "signin", None, now=later)
        with engine.connect() as conn:  # the expired row went with the next challenge
            assert [r.challenge for r in conn.execute(select(challenges_t))] == ["new"]
        assert passkeys.spend_challenge(engine, "new", "signin", None, now=later + 1)
        assert not passkeys.spend_challenge(engine, "new", "signin", None, now=later + 1)
    finally:
        engine.dispose()


def test_the_table_of_challenges_is_bounded(client: TestClient,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(passkeys, "MAX_CHALLENGES", 5)
    answers = [post(sibling(client), "/api/account/passkeys/signin/options")
               for _ in range(7)]
    assert [a.status_code for a in answers] == [200] * 5 + [429] * 2
    assert answers[-1].json()["rule"] == "passkey-requests"
    assert answers[-1].headers["retry-after"] == str(passkeys.CHALLENGES_RETRY)
    assert _challenges(client) == 5
