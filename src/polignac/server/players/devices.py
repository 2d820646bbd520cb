"""Device cookies: a browser that has signed in to an account before is let through the
slow-down a flood of wrong passwords puts on that account's name (docs/server.md,
"Accounts and sessions"; OWASP's "device cookies" against lockout attacks).

Each successful sign-in (a password, a passkey, a recovery code, a sign-up) gives the
browser a cookie ``v1.ACCOUNT.NONCE.ISSUED.MAC``: the account's id, 128 random bits
that name this device, the time it was issued, and an HMAC-SHA256 of the rest under
the site's key.  The key is 32 random bytes kept in the database (``server_keys``,
migration ``0014``), made by the first process that needs it, so that every process
signs and checks alike.  The cookie proves only that this browser signed in to this
account within :data:`DEVICE_SECONDS`: it still needs the password, and it has a
limit of its own (``signin_limits.py``).  Blocking work (the key): call in a thread.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import time
from dataclasses import dataclass

from sqlalchemy import Engine

from ..store.keys import server_key

DEVICE_COOKIE = "polignac_device"
DEVICE_SECONDS = 400 * 24 * 3600
"""A device cookie is good for 400 days after the sign-in that set it (browsers keep a
cookie at most that long)."""
KEY_NAME = "device-cookie"
_COOKIE = re.compile(r"v1\.([0-9]{1,12})\.([A-Za-z0-9_\-]{22})\.([0-9]{1,12})\."
                     r"([A-Za-z0-9_\-]{43})")


@dataclass(frozen=True)
class Device:
    """A valid device cookie: the account it signed in to and the device's nonce."""

    account_id: int
    nonce: str


def device_key(engine: Engine) -> bytes:
    """The site's key for device cookies (``store/keys.py``)."""
    return server_key(engine, KEY_NAME)


def _mac(key: bytes, account_id: int, nonce: str, issued: int) -> str:
    data = f"device|v1|{account_id}|{nonce}|{issued}".encode()
    return base64.urlsafe_b64encode(hmac.new(key, data, hashlib.sha256).digest()) \
        .rstrip(b"=").decode()


def issue(key: bytes, account_id: int, now: float | None = None) -> str:
    """A new device cookie's value for ``account_id``."""
    issued = int(time.time() if now is None else now)
    nonce = secrets.token_urlsafe(16)
    return f"v1.{account_id}.{nonce}.{issued}.{_mac(key, account_id, nonce, issued)}"


def read(key: bytes, value: str | None, now: float | None = None) -> Device | None:
    """The device a cookie names, or None: absent, malformed, forged (its MAC), from
    the future or older than :data:`DEVICE_SECONDS`."""
    found = _COOKIE.fullmatch(value or "")
    if found is None:
        return None
    account_id, nonce, issued = int(found.group(1)), found.group(2), int(found.group(3))
    if not hmac.compare_digest(found.group(4), _mac(key, account_id, nonce, issued)):
        return None
    now = time.time() if now is None else now
    if not issued - 60 <= now <= issued + DEVICE_SECONDS:
        return None
    return Device(account_id, nonce)
