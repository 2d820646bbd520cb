"""Seat tokens, cookies, Origin checks and the per-connection rate limit."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from urllib.parse import urlsplit

from .inputs import ascii_int

TOKEN_BYTES = 32
"""Seat and invite tokens carry 256 bits from :mod:`secrets`."""


def new_token() -> str:
    """A fresh URL-safe token of :data:`TOKEN_BYTES` random bytes."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """The stored form of a token (SHA-256, hex): tokens are random, so no salt is needed."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """True when ``token`` hashes to ``stored_hash`` (compared in constant time)."""
    if not stored_hash or not token or len(token) > 200:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def cookie_name(table_id: str) -> str:
    """Name of the cookie holding this browser's seat at ``table_id``."""
    return f"polignac_{table_id}"


def parse_cookie(value: str | None) -> tuple[int, str] | None:
    """Read ``SEAT.TOKEN``; None when malformed."""
    if not value:
        return None
    seat_text, sep, token = value.partition(".")
    seat = ascii_int(seat_text, 0, 999)
    if not sep or seat is None:
        return None
    return seat, token


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """True when a request's ``Origin`` is the page's own origin or in ``allowed``.

    A request without ``Origin`` (not from a browser page) is allowed: a
    cross-site page in a browser always sends one.
    """
    if origin is None:
        return True
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    return bool(host) and parts.scheme in ("http", "https") and parts.netloc == host


class RateLimit:
    """A token bucket: ``rate`` messages a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic()

    def allow(self) -> bool:
        """Take one token; False when the bucket is empty."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
