"""The limits on guessing: sign-in, recovery, deletion and password change (a password
asked again), sign-up and passkey sign-in (docs/server.md, "Accounts and sessions").
They throttle the guesser, never the owner:

- **per name and client network** (the client's /24 in IPv4, its /64 in IPv6:
  ``httplimits.py:client_network``): 10 tries at once, then 5 a minute.  A guesser
  on one network is slowed; the owner elsewhere is not.
- **per client network**, every name and every kind together: 30 at once, then 30 a
  minute (one network trying many names).
- **per name, whatever the network** (a guesser with many networks): a slow-down that
  grows with the tries: 20 at once, then 10 a minute; past 100, one a minute; past
  1,000, six an hour.  Three buckets, each try takes from all of them (or, refused,
  from none), each refills on its own: a name left alone is free again.
- a browser with a **device cookie** of this account (``devices.py``: it signed in to
  it before) skips the three above: it has its own bucket, 10 at once, then 5 a
  minute.  A flood on the owner's name, even from her own network, leaves her in.

Sign-in tries and recovery tries are counted apart (a flood of wrong passwords does
not stop a recovery code), the network's bucket is shared by every kind.  Every limit
is shared by the server's processes (``ratelimits.py``).
"""

from __future__ import annotations

from .ratelimits import SharedLimit, SharedLimits


class SigninLimits:
    """The guessing limits of one app (made from its :class:`SharedLimits`)."""

    def __init__(self, limits: SharedLimits) -> None:
        self.limits = limits
        self.per_name_network = limits.limit("signin-name-net", per_minute=5, burst=10)
        """Tries per name and client network: 10 at once, then 5 a minute."""
        self.per_network = limits.limit("signin-network", per_minute=30, burst=30)
        """Tries per client network (every name, sign-up and passkeys too): 30, 30/min."""
        self.per_name: tuple[SharedLimit, ...] = (
            limits.limit("signin-name-1", per_minute=10, burst=20),
            limits.limit("signin-name-2", per_minute=1, burst=100),
            limits.limit("signin-name-3", per_minute=0.1, burst=1000))
        """Tries per name from browsers without its device cookie, every network
        together: 20 at once, then 10 a minute; past 100, 1 a minute; past 1,000,
        6 an hour."""
        self.per_device = limits.limit("signin-device", per_minute=5, burst=10)
        """Tries per device cookie: 10 at once, then 5 a minute."""

    async def take(self, kind: str, network: str, name: str | None = None,
                   device: str | None = None) -> int | None:
        """One more try of ``kind`` (``signin``, ``recover``, ``signup``, ``passkey``)
        for ``name`` (None: no name) from ``network``, or from the device whose
        cookie's nonce is ``device`` (valid for this name's account).  None when the
        try may go on, else the seconds to wait (``Retry-After``: the longest of the
        limits that refuse it).  A try takes from every bucket it counts in or, refused,
        from none (one atomic step: ``SharedLimits.take``)."""
        if device is not None:
            if await self.per_device.allow(f"{kind}:{device}"):
                return None
            return self.per_device.retry_after()
        key = None if name is None else name.lower()
        checks: list[tuple[SharedLimit, str]] = []
        if key is not None:
            checks.append((self.per_name_network, f"{kind}:{key}|{network}"))
        checks.append((self.per_network, network))
        if key is not None:
            checks += [(limit, f"{kind}:{key}") for limit in self.per_name]
        refused = await self.limits.take(checks)
        return max(limit.retry_after() for limit in refused) if refused else None
