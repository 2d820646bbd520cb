"""The hub's seats: who holds which seat of a table (the seat cookie's token), claiming
a seat with an invite or at a rematch, and the checks of rated play (one account, one
seat; play bans: ``players/conduct.py``).  :class:`HubSeats` is a part of
``hub.py:Hub``, which owns the writer, the store and the clock it uses.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from ..base.clock import Clock
from ..base.config import ServerConfig
from ..base.errors import ApiError
from ..base.security import cookie_name, hash_token, new_token, parse_cookie, token_matches
from ..players import conduct
from ..players.accounts import account_of_identities
from ..store.db import Store, update_seat
from ..store.writer import Writer

if TYPE_CHECKING:
    from .tables import GameTable


def _cookie_seat(table: GameTable, cookies: dict[str, str]) -> tuple[int, str] | None:
    """The seat and token of ``table``'s cookie when it names a seat there (unchecked token)."""
    parsed = parse_cookie(cookies.get(cookie_name(table.id)))
    if parsed is None or not 0 <= parsed[0] < len(table.seats):
        return None
    return parsed


class HubSeats:
    """The seat methods of the hub (see the module)."""

    config: ServerConfig
    clock: Clock
    store: Store | None
    writer: Writer | None

    async def claim_rematch_seat(self, table: GameTable, seat: int, old_token: str) -> str:
        """Give the holder of ``seat`` at the old table that seat at ``table``; a fresh token.

        Raises:
            ApiError: the seat is not reserved for that token (403).
        """
        async with table.lock:
            row = table.seats[seat]
            if row.kind != "human" or not (token_matches(old_token, row.invite_hash)
                                           or row.token_hash is not None):
                raise ApiError("this seat is not yours", "bad-token", 403)
            fresh = new_token()
            await self.claim(table, seat, hash_token(fresh), row.holder_hash)
        table.wake()  # the last person to come back starts the first deal
        return fresh

    async def check_rated_play(self, holder: str | None) -> None:
        """Refuse rated play to an account that left too many rated matches lately
        (``players/conduct.py``), saying why and until when.

        Raises:
            ApiError: 403 ``play-ban`` with ``until`` (epoch seconds).
        """
        if holder is None or self.store is None:
            return
        until = await asyncio.to_thread(conduct.ban_of_identity, self.store.engine, holder,
                                        self.clock.time())
        if until is not None:
            raise conduct.refusal(until)

    async def check_one_account(self, table: GameTable, holder: str | None) -> None:
        """At a rated table, one account holds at most one seat: refuse the browser
        identity ``holder`` when its account holds (or asked for) another seat there,
        from any browser; and an account banned from rated play (:meth:`check_rated_play`).

        Raises:
            ApiError: 409 ``one-account``, 403 ``play-ban`` (nothing changes).
        """
        if holder is None or not table.options.get("rated") or self.store is None:
            return
        await self.check_rated_play(holder)
        others = [h for s in table.seats for h in (s.holder_hash, s.take_holder)
                  if h is not None and h != holder]
        if not others:
            return
        engine = self.store.engine

        def read() -> dict[str, int]:
            with engine.connect() as conn:
                return account_of_identities(conn, [holder, *others])
        owners = await asyncio.to_thread(read)
        mine = owners.get(holder)
        if mine is not None and any(owners.get(h) == mine for h in others):
            raise ApiError("your account already has a seat at this rated table: one "
                           "account plays one seat of a rated match", "one-account", 409)

    async def claim(self, table: GameTable, seat: int, token_hash: str,
                    holder: str | None, name: str | None = None,
                    account: str | None = None) -> None:
        """Give person's ``seat`` its token and holder (invite used up), and ``name``
        when given, and ``account`` (the holder's account name; None: a guest); call
        with ``table.lock`` held.

        Raises:
            sqlalchemy.exc.SQLAlchemyError, WriterClosedError: not stored.
        """
        assert self.writer is not None
        row = table.seats[seat]
        new_name = row.name if name is None else name
        await self.writer.run(lambda conn: update_seat(conn, table.id, seat,
                                                       token_hash=token_hash,
                                                       invite_hash=None, invite_sealed=None,
                                                       holder_hash=holder, name=new_name,
                                                       account=account))
        row.token_hash, row.invite_hash, row.invite_sealed = token_hash, None, None
        row.holder_hash, row.account = holder, account
        if new_name != row.name:
            row.name = new_name
            table.rename(seat, new_name)
        table.presence.start_grace(seat)
        table.broadcast(table.presence_frame())

    def seat_of(self, table: GameTable, cookies: dict[str, str]) -> int | None:
        """The seat whose valid token this browser holds at ``table``, or None."""
        found = self.seat_and_token(table, cookies)
        return None if found is None else found[0]

    def pending_take(self, table: GameTable, cookies: dict[str, str]) -> int | None:
        """The bot's seat this browser asked to take at the next deal, or None."""
        found = _cookie_seat(table, cookies)
        if found is None:
            return None
        seat, token = found
        return seat if token_matches(token, table.seats[seat].take_hash) else None

    def seat_and_token(self, table: GameTable, cookies: dict[str, str]
                       ) -> tuple[int, str] | None:
        """The seat and token this browser validly holds at ``table``, or None."""
        found = _cookie_seat(table, cookies)
        if found is None:
            return None
        seat, token = found
        return found if token_matches(token, table.seats[seat].token_hash) else None
