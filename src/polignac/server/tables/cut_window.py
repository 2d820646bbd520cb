"""The cut window before each deal: the next deal's secret seed, its published
commitment, and the cuts the seated people send against it; a refused cut is
made public (:meth:`CutWindow.refuse`).

The pack of a deal follows from the seed and the cuts (``core/shuffle.py``);
the seed is revealed when the deal ends.  One :class:`CutWindow` per table
(``tables.py:GameTable.cuts``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...core import CODES, Match, cards_of, shuffle
from ..base.errors import ProtocolError
from ..store import commitments
from ..store.commitments import record_refusal
from ..store.writer import Op

if TYPE_CHECKING:
    from .tables import GameTable

log = logging.getLogger("polignac.server")
MAX_REFUSALS = 4
"""Refused cuts recorded per seat and deal (more are answered but not recorded: a
client that floods bad cuts does not fill the database)."""


@dataclass(eq=False)
class PendingDeal:
    """The next deal's secret seed and its published commitment, while cuts come in.

    Held in memory only: after a restart the server draws a new seed (no cards
    were dealt from the old one).
    """

    deal: int
    seed: bytes
    commitment: str
    closes: float
    """Epoch seconds at which the window is due to close (what the frame says)."""
    cuts: dict[int, bytes] = field(default_factory=dict)
    open: bool = True
    all_cut: asyncio.Event = field(default_factory=asyncio.Event)


class CutWindow:
    """The cut window of ``table``; use from the event loop only."""

    def __init__(self, table: GameTable) -> None:
        self.table = table
        self.pending: PendingDeal | None = None
        self.refusals: dict[tuple[int, int], int] = {}
        """Refused cuts recorded by this process, per (deal, seat)."""
        self.window_of: dict[int, float] = {}
        """When the last window of each recent deal was due to close (epoch seconds)."""
        self.refused: list[dict[str, Any]] = []
        """The ``cut-refused`` frames of the recent deals (the one in play or next, and
        the one before), sent again to a client that (re)connects (:meth:`refused_frames`)."""

    def restore(self, stored: list[dict[str, Any]]) -> None:
        """Take back the recent deals' refused cuts stored before this table was loaded
        (``db.py:TableRow.refused``, in order): a reconnecting client gets their frames,
        and the per-seat limit goes on counting from them."""
        recent = max(1, self.table.match.deal_number - 1)
        for r in stored:
            if r["deal"] < recent:
                continue
            key = (r["deal"], r["seat"])
            self.refusals[key] = self.refusals.get(key, 0) + 1
            self.refused.append({"type": "cut-refused", "deal": r["deal"], "seat": r["seat"],
                                 "rule": r["rule"], "message": r["message"], "at": r["at"],
                                 "closes": None})

    def refused_frames(self) -> list[dict[str, Any]]:
        """The ``cut-refused`` frames of the deal in play (or next) and the one before,
        in order (at most :data:`MAX_REFUSALS` per seat and deal), each marked
        ``again``: what a client that (re)connects may have missed
        (``frames.py:catch_up``)."""
        recent = self.table.match.deal_number - 1
        return [{**f, "again": True} for f in self.refused if f["deal"] >= recent]

    def draw(self, number: int, closes: float) -> PendingDeal:
        """A fresh secret seed for deal ``number`` and its commitment."""
        seed = secrets.token_bytes(shuffle.SEED_BYTES)
        return PendingDeal(number, seed, shuffle.commitment(seed, self.table.id, number),
                           closes)

    def open(self, window: float) -> PendingDeal:
        """Draw the next deal's seed, publish its commitment and take cuts for
        ``window`` seconds (or keep the window already open for that deal)."""
        number = self.table.match.deal_number
        if self.pending is not None and self.pending.deal == number and self.pending.open:
            return self.pending
        self.pending = pending = self.draw(number, self.table.clock.time() + window)
        self.window_of = {d: c for d, c in self.window_of.items() if d >= number - 1}
        self.window_of[number] = pending.closes
        self._check_all_cut(pending)
        self.table.broadcast(self.frame(pending))
        return pending

    def deal_from_window(self, match: Match) -> tuple[Match, dict[str, Any], Op | None]:
        """The next deal of ``match``: its pack from this window's secret seed and the
        cuts received (a guided table's first deal: the guide's prepared hands, no
        shuffle), the deal event's data, and the write that appends its commitment to
        the log (``store/commitments.py:append_op``; None for a prepared deal).  The
        window is closed."""
        table = self.table
        proof: dict[str, Any] | None = None
        if table.guide is not None and not match.results:  # the prepared deal
            self.pending = None
            after = table.guide.deal(match)
        else:
            number = match.deal_number
            pending, cuts = self.close(number)
            _dealer, seats = match.next_deal()
            order = shuffle.deal_order(match.rules, len(seats), pending.seed, table.id,
                                       number, cuts)
            after = match.deal_from_pack(order)
            proof = shuffle.Proof(table.id, pending.commitment, pending.seed, tuple(cuts),
                                  match.rules.packets).to_json()
        d = after.current
        assert d is not None
        data: dict[str, Any] = {
            "dealer": after.current_dealer,
            "seats": list(after.current_seats),
            "hands": [[CODES[c] for c in cards_of(h)] for h in d.initial_hands],
            "turn_up": None if d.turn_up is None else CODES[d.turn_up],
        }
        op = None
        if proof is not None:  # a prepared (guided) deal has no shuffle to prove
            data["shuffle"] = proof
            op = commitments.append_op(table.id, after.deal_number, proof,
                                       int(table.clock.time() * 1000))
        return after, data, op

    def close(self, number: int) -> tuple[PendingDeal, list[bytes | None]]:
        """Close the window of deal ``number`` (a fresh seed and no cuts when none is
        open for it): its seed and commitment, and each seat's cut (None: none)."""
        pending = self.pending
        if pending is None or pending.deal != number or not pending.open:
            pending = self.draw(number, self.table.clock.time())
        pending.open = False
        self.pending = None
        return pending, [pending.cuts.get(s) for s in range(self.table.match.num_players)]

    def frame(self, pending: PendingDeal) -> dict[str, Any]:
        """The public ``commitment`` frame: what a seated browser cuts against."""
        return {"type": "commitment", "version": shuffle.VERSION, "deal": pending.deal,
                "commitment": pending.commitment, "closes": int(pending.closes * 1000)}

    def open_frame(self) -> dict[str, Any] | None:
        """The commitment frame of the window open now, if any (for a catch-up)."""
        if self.pending is not None and self.pending.open:
            return self.frame(self.pending)
        return None

    def cutters(self) -> set[int]:
        """Seats whose person may cut: claimed people's seats no stand-in plays."""
        standing_in = self.table.presence.standing_in
        return {s.seat for s in self.table.seats if s.kind == "human"
                and s.token_hash is not None and s.seat not in standing_in}

    def _check_all_cut(self, pending: PendingDeal) -> None:
        if self.cutters() <= set(pending.cuts):
            pending.all_cut.set()

    def cut(self, seat: int, deal: Any, value: Any, commitment: Any = None) -> None:
        """Take ``seat``'s cut (hex, 1 to 32 bytes) for deal number ``deal``.

        Raises:
            ProtocolError: a malformed field (``bad-field``), no window open for that
                deal (``cut-closed``), not the published commitment
                (``stale-commitment``), or the seat already cut (``cut-taken``);
                nothing changed.
        """
        if not isinstance(deal, int) or isinstance(deal, bool) or not 0 < deal <= 1_000_000:
            raise ProtocolError("deal must be the deal number (from 1)", "bad-field")
        try:
            data = shuffle.parse_hex(value, "value", 1, shuffle.MAX_CUT_BYTES)
        except shuffle.ShuffleError as exc:
            raise ProtocolError(str(exc), "bad-field") from None
        pending = self.pending
        if pending is None or not pending.open or pending.deal != deal:
            raise ProtocolError(f"no cut is taken for deal {deal} now: cuts are taken "
                                "between a deal's commitment and the deal", "cut-closed")
        if commitment is not None and (not isinstance(commitment, str) or len(commitment) > 64):
            raise ProtocolError("commitment must be the 64 hex digits of the commitment",
                                "bad-field")
        if commitment is not None and commitment != pending.commitment:
            raise ProtocolError("that is not the commitment of this deal", "stale-commitment")
        if seat in pending.cuts:
            raise ProtocolError(f"you already cut deal {deal}", "cut-taken")
        pending.cuts[seat] = data
        self._check_all_cut(pending)

    async def wait(self) -> None:
        """Before a deal: publish its commitment and wait for the cuts: the deal delay
        (later deals), or until every seated person has cut, at most ``cut_window``
        seconds (the first deal, which has no delay)."""
        table, config = self.table, self.table.config
        first = not table.match.results
        if first and table.guide is not None:  # the prepared deal: nothing to cut
            return
        delay = 0.0 if first else config.deal_delay
        window = config.cut_window if first else delay
        if window <= 0:  # no window: the deal draws the seed and deals without cuts
            return
        pending = self.open(window)
        if delay > 0:
            await table.clock.sleep(delay)
        else:
            with contextlib.suppress(TimeoutError):
                await table.clock.wait_for(pending.all_cut.wait(), window)

    async def refuse(self, seat: int, deal: Any, refused: ProtocolError) -> None:
        """Make ``seat``'s refused cut of deal ``deal`` public: store it (the record lists
        it as ``shuffle.refused`` of its deal) and send every connection a
        ``cut-refused`` frame with the reason, so that the server cannot quietly pick a
        deal by refusing cuts.  Only cuts for a deal whose commitment is published (the
        deal in play or about to be dealt, and the one before it) are recorded, at most
        :data:`MAX_REFUSALS` per seat and deal; nothing happens for the others.  Never
        raises: a refusal that could not be stored is logged and not announced.
        """
        number = self.table.match.deal_number
        if not isinstance(deal, int) or isinstance(deal, bool) \
                or not max(1, number - 1) <= deal <= number:
            return
        key = (deal, seat)
        if self.refusals.get(key, 0) >= MAX_REFUSALS:
            return
        self.refusals = {k: n for k, n in self.refusals.items() if k[0] >= number - 1}
        self.refusals[key] = self.refusals.get(key, 0) + 1
        at = int(self.table.clock.time() * 1000)
        message = str(refused)[:200]
        try:
            await self.table.writer.run(record_refusal(self.table.id, deal, seat,
                                                       refused.rule, message, at))
        except Exception as exc:  # the database or the writer: the cut is refused anyway
            log.warning("table %s: a refused cut was not stored (%s)", self.table.id, exc)
            return
        closes = self.window_of.get(deal)
        frame = {"type": "cut-refused", "deal": deal, "seat": seat, "rule": refused.rule,
                 "message": message, "at": at,
                 "closes": None if closes is None else int(closes * 1000)}
        self.refused = [*(f for f in self.refused if f["deal"] >= number - 1), frame]
        self.table.broadcast(frame)
