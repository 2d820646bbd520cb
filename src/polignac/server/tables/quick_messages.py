"""Quick messages at a table: a fixed set of short phrases a seated player sends.

A client sends ``say {message}`` with one of :data:`MESSAGES` (an id, never free
text: each page says it in its own language, catalog keys ``chat.<id>``); the
table broadcasts ``chat {seat, message}`` to every connection, seats and
spectators, except those of accounts kept apart from the speaker's by a block (either
way: ``players/blocks.py``), seated or watching signed in.  Only seated people send;
each seat may send :data:`BURST` messages every :data:`WINDOW` seconds (the refusals
are counted).  Quick messages are not events: they are not numbered, not stored
and not in the game record (a record replays the game only), so a reconnecting page
does not see the ones it missed.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Any

from ..base.errors import ProtocolError

MESSAGES: tuple[str, ...] = ("hello", "good-luck", "well-played", "nice-trick", "thanks",
                             "oops", "sorry", "hurry-up", "bye")
"""The ids of the quick messages, in the order the page offers them."""

BURST = 3
"""Quick messages a seat may send within :data:`WINDOW` seconds."""

WINDOW = 10.0
"""The rate limit's window, in seconds."""


class QuickMessages:
    """One table's quick messages: the check of each and the per-seat rate limit."""

    def __init__(self, burst: int = BURST, window: float = WINDOW,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.window = window
        self.clock = clock
        self.sent: dict[int, deque[float]] = {}
        self.refused: dict[int, int] = {}
        """Each seat's refused messages (unknown ids and over the rate limit)."""
        self.apart: set[frozenset[str]] = set()
        """Pairs of accounts here (lower-case usernames, seated or watching) where one
        blocked the other: neither hears the other (``table_blocks.py:refresh_apart``)."""
        self.apart_key: tuple[str | None, ...] | None = None
        """The seats' and the watchers' accounts :attr:`apart` was read for."""
        self.apart_at = float("-inf")
        """When (the clock's monotonic seconds) :attr:`apart` was read."""

    def deaf(self, speaker: str | None, account_of: Callable[[Any], str | None]
             ) -> Callable[[Any], bool]:
        """Which connections must not hear the account ``speaker`` (None: a guest, heard
        by all): those whose account (``account_of(connection)``) is kept apart from it."""
        def deaf(connection: Any) -> bool:
            listener = account_of(connection)
            return speaker is not None and listener is not None and \
                frozenset((speaker.lower(), listener.lower())) in self.apart
        return deaf

    def say(self, seat: int, message: object) -> dict[str, Any]:
        """The ``chat`` frame for ``seat``'s ``message``, to broadcast.

        Raises:
            ProtocolError: ``message`` is not one of :data:`MESSAGES`
                (``unknown-message``) or the seat sent :attr:`burst` messages within
                the last :attr:`window` seconds (``chat-rate``); nothing is sent.
        """
        if not isinstance(message, str) or message not in MESSAGES:
            self.refused[seat] = self.refused.get(seat, 0) + 1
            shown = repr(message)[:40] if isinstance(message, str) else type(message).__name__
            raise ProtocolError(f"unknown quick message {shown}: expected one of "
                                f"{', '.join(MESSAGES)}", "unknown-message")
        now = self.clock()
        times = self.sent.setdefault(seat, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.burst:
            self.refused[seat] = self.refused.get(seat, 0) + 1
            wait = max(1, int(times[0] + self.window - now + 0.999))
            raise ProtocolError(f"at most {self.burst} quick messages every "
                                f"{self.window:g} seconds; wait {wait} s", "chat-rate")
        times.append(now)
        return {"type": "chat", "seat": seat, "message": message}
