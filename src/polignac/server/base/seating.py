"""Who is who at the tables: the browser identity cookie, the table-creation rate
limit, and invite tokens sealed for the table's creator.

The **browser identity** is a long-lived random id (``polignac_id`` cookie,
HttpOnly) that the server sets on the pages and on the first API call.  It
proves nothing by itself (a client can drop it and get another); it names the
browser so that one browser holds at most one seat, or one request for a seat,
at a table.  What keeps strangers off someone's table is the creator's
approval (``POST /tables/{id}/seats/{seat}/approve``), and private tables.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections import OrderedDict

from .clock import SYSTEM, Clock
from .security import RateLimit, hash_token, new_token

IDENTITY_COOKIE = "polignac_id"
"""The browser identity's cookie (table cookies are ``polignac_<table id>``; table ids
have 12 characters, so the names never meet)."""
_IDENTITY_OK = re.compile(r"[A-Za-z0-9_\-]{20,64}")


def read_identity(cookies: dict[str, str]) -> str | None:
    """This browser's identity from its cookies, or None (absent or malformed)."""
    value = cookies.get(IDENTITY_COOKIE)
    if value is None or not _IDENTITY_OK.fullmatch(value):
        return None
    return value


SESSION_COOKIE = "polignac_session"
"""An account's session cookie (``players/accounts.py``, set by the account routes): the
random token whose hash is the session's key."""


def session_hash(cookies: dict[str, str]) -> str | None:
    """The hash of this browser's account session token, or None (absent or malformed);
    the account routes and a spectator's table socket read who is signed in by it."""
    token = cookies.get(SESSION_COOKIE)
    if token is None or not _IDENTITY_OK.fullmatch(token):
        return None
    return hash_token(token)


def new_identity() -> str:
    """A fresh browser identity (256 random bits)."""
    return new_token()


def identity_hash(identity: str) -> str:
    """The stored form of an identity (SHA-256, hex)."""
    return hashlib.sha256(b"identity:" + identity.encode("ascii")).hexdigest()


def _pad(creator_token: str, table_id: str, seat: int) -> bytes:
    return hmac.new(creator_token.encode("utf-8", "surrogatepass"),
                    f"invite:{table_id}:{seat}".encode(), hashlib.sha256).digest()


def seal(invite: str, creator_token: str, table_id: str, seat: int) -> str:
    """``invite`` (a :func:`~.security.new_token`, 32 bytes) XOR a pad that only the
    creator's seat token gives: what the database keeps so that the creator, and
    nobody who reads the database, can see the invite link again (hex)."""
    raw = base64.urlsafe_b64decode(invite + "=" * (-len(invite) % 4))
    return bytes(a ^ b for a, b in zip(raw, _pad(creator_token, table_id, seat),
                                       strict=True)).hex()


def unseal(sealed: str, creator_token: str, table_id: str, seat: int) -> str | None:
    """The invite token :func:`seal` sealed, or None when ``sealed`` is malformed."""
    try:
        raw = bytes.fromhex(sealed)
    except ValueError:
        return None
    if len(raw) != 32:
        return None
    plain = bytes(a ^ b for a, b in zip(raw, _pad(creator_token, table_id, seat), strict=True))
    return base64.urlsafe_b64encode(plain).rstrip(b"=").decode("ascii")


class KeyedRateLimit:
    """One token bucket per key (an address, an identity): ``per_minute`` a minute,
    bursts of ``burst``.  Keeps at most ``max_keys`` buckets (the least recently
    used go first: a forgotten key starts again with a full bucket).  The time is
    ``clock``'s (``clock.py``), or the ``now`` a caller gives."""

    def __init__(self, per_minute: float, burst: int, max_keys: int = 100_000,
                 clock: Clock = SYSTEM) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.max_keys = max_keys
        self.clock = clock
        self.buckets: OrderedDict[str, RateLimit] = OrderedDict()

    def allow(self, *keys: str, now: float | None = None) -> bool:
        """Take one token from every key's bucket; False (nothing taken) when one is empty.
        ``now``: the time on ``clock.monotonic()``'s scale (default: read it)."""
        now = self.clock.monotonic() if now is None else now
        return not take_many([(self, key) for key in keys], now)

    def bucket(self, key: str, now: float) -> RateLimit:
        """``key``'s bucket, refilled until ``now`` (a new key's is full)."""
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = RateLimit(self.rate, self.burst)
            bucket.last = now
            while len(self.buckets) > self.max_keys:
                self.buckets.popitem(last=False)
        self.buckets.move_to_end(key)
        bucket.tokens = min(bucket.burst, bucket.tokens + (now - bucket.last) * bucket.rate)
        bucket.last = now
        return bucket

    def retry_after(self) -> int:
        """Seconds until one more token (a whole number, at least 1)."""
        return max(1, int(1 / self.rate) + 1) if self.rate > 0 else 3600


def take_many(checks: list[tuple[KeyedRateLimit, str]], now: float) -> list[int]:
    """Take one token from each ``(limit, key)``'s bucket, all or none: an empty list
    when every bucket had one, else the indexes of the empty ones (nothing taken).  The
    same key twice in one limit is one bucket, asked once."""
    seen: dict[tuple[int, str], RateLimit] = {}
    refused = []
    for i, (limit, key) in enumerate(checks):
        bucket = seen.get((id(limit), key))
        if bucket is None:
            bucket = seen[(id(limit), key)] = limit.bucket(key, now)
        if bucket.tokens < 1:
            refused.append(i)
    if not refused:
        for bucket in seen.values():
            bucket.tokens -= 1
    return refused
