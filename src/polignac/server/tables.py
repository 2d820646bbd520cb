"""One serialized owner per table: the match, its numbered events, its connections.

Every change to a table goes through its :class:`GameTable` under its lock:
an action is checked by the rules core, committed to the event log, applied in
memory and only then announced, numbered, to every connection, each of which
receives only what its seat may see.  Bots and the dealer act from a driver
task per table.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import IntegrityError

from ..bots.base import SeatView
from ..bots.registry import make_bot
from ..bots.runner import move_for, move_seed
from ..core import (
    CODES,
    IllegalActionError,
    Match,
    action_name,
    cards_of,
    get_rules,
    parse_action,
    parse_card,
    shuffle,
    summary,
)
from ..core.deal import Deal
from ..i18n import bot_name, name_fields
from . import results
from .botmoves import BotBackend, BotJob
from .config import ServerConfig
from .db import EventRow, SeatRow, TableRow, update_seat, update_table
from .guide import Guide, guide_of
from .writer import Writer

log = logging.getLogger("polignac.server")


class ProtocolError(ValueError):
    """A request the table refuses; ``rule`` is a stable word, the state is unchanged."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


Frame = dict[str, Any] | str | None
"""What a connection's queue holds: a frame, a frame already encoded as JSON, or
None (close the connection)."""


@dataclass(eq=False)
class Subscriber:
    """One WebSocket connection to a table, for one seat (None: a spectator).

    Frames go through ``queue``.
    """

    seat: int | None
    queue: asyncio.Queue[Frame] = field(default_factory=asyncio.Queue)
    dropped: bool = False


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


def replay_events(rules_preset: str, overrides: dict[str, Any], n: int, first_dealer: int,
                  names: list[str], events: list[EventRow]) -> Match:
    """Rebuild a match from its stored events.

    Raises:
        PolignacError: an event does not replay (the log is corrupt).
    """
    match = Match.new(get_rules(rules_preset, overrides), n, first_dealer, names)
    for ev in events:
        match = _apply_event(match, ev)
    return match


def _apply_event(match: Match, ev: EventRow) -> Match:
    if ev.kind == "deal":
        assert ev.data is not None  # written by GameTable.deal
        hands = [[parse_card(c) for c in hand] for hand in ev.data["hands"]]
        up = ev.data.get("turn_up")
        return match.start_deal(hands, None if up is None else parse_card(up))
    return match.apply(parse_action(ev.action), ev.seat)


def _safe_message(exc: IllegalActionError) -> str:
    """The error's message, without what the core says about other players' hands."""
    if exc.rule == "card-not-in-hand":  # the core's message says who holds the card
        return f"card not in hand: you do not hold {exc.action}"
    return str(exc)


def _finished_deal(match: Match) -> Deal | None:
    return match.results[-1].deal if match.results else None


class GameTable:
    """The owner of one table.  Use its coroutines from the event loop only."""

    def __init__(self, row: TableRow, writer: Writer, config: ServerConfig) -> None:
        """Rebuild the table from its stored row; ``writer`` commits its events.

        Raises:
            PolignacError: the stored events do not replay.
        """
        self.id = row.id
        self.preset = row.preset
        self.overrides = row.overrides
        self.seats: list[SeatRow] = row.seats
        self.writer = writer
        self.config = config
        self.creator_seat = row.creator_seat
        names = [s.name for s in self.seats]
        self.match = replay_events(row.preset, row.overrides, row.num_players,
                                   row.first_dealer, names, row.events)
        self.events: list[EventRow] = list(row.events)
        self.public: list[dict[str, Any]] = []
        m = Match.new(self.match.rules, row.num_players, row.first_dealer, names)
        for ev in self.events:
            after = _apply_event(m, ev)
            self.public.append(self._public(m, after, ev))
            m = after
        self.lock = asyncio.Lock()
        self.subscribers: set[Subscriber] = set()
        self.driver: asyncio.Task[None] | None = None
        self.guide: Guide | None = guide_of(row.options)  # the prepared deal, seeded bots
        # Each bot move's random generator is seeded from this, the deal number and
        # the action's index (bots.runner.move_seed): a move computed again is the same.
        self.bot_seed: int = (secrets.randbits(64) if self.guide is None
                              else self.guide.bot_seed)
        self.backend: BotBackend | None = None  # where bot moves are computed (the hub's)
        self.bots = {s.seat: make_bot(s.bot_level or "random")
                     for s in self.seats if s.kind == "bot"}
        self.rematch_id = row.rematch_id
        self.created_at = row.created_at
        # Presence: open connections per human seat, grace deadlines (epoch s),
        # the human seats a stand-in bot plays for, and their timers.
        self.connections: dict[int, int] = {}
        self.grace_until: dict[int, float] = {}
        self.standing_in: set[int] = set()
        self.standins: dict[int, Any] = {}
        self.grace_tasks: dict[int, asyncio.Task[None]] = {}
        # Tables nobody plays: paused (no bot plays for nobody), then closed; finished
        # tables leave memory too.  ``on_idle(table, why)`` is the hub's: it unloads
        # the table and answers True, or False while connections remain.
        self.options: dict[str, Any] = dict(row.options)
        self.closed_at = row.closed_at
        self.paused = False
        self.on_idle: Callable[[GameTable, str], Awaitable[bool]] | None = None
        self.idle_task: asyncio.Task[None] | None = None
        self.reopen_task: asyncio.Task[None] | None = None
        self.pending: PendingDeal | None = None
        # Another process wrote this table's next event (several processes): the hub
        # drops the table (``Hub._fenced``).
        self.on_fenced: Callable[[GameTable], None] | None = None

    # ----------------------------------------------------------------- views

    @property
    def private(self) -> bool:
        """A private table: not in the public list, and nobody may ask for a seat."""
        return bool(self.options.get("private", False))

    @property
    def hints(self) -> bool:
        """Hints allowed (``hint_routes.py``): the creator's choice, stored in the options;
        a table created without one allows them when no seat but the creator's is for a
        person.  Never in a family the exact solver does not model (``Family.exact_solver``):
        a hint is the solver's."""
        if not self.match.rules.family.exact_solver:
            return False
        chosen = self.options.get("hints")
        if isinstance(chosen, bool):
            return chosen
        return all(s.kind == "bot" for s in self.seats if s.seat != self.creator_seat)

    def people_connected(self) -> bool:
        """True when at least one seated person has a connection."""
        return any(n > 0 for n in self.connections.values())

    def holder_seat(self, holder: str) -> int | None:
        """The seat the browser identity hashed as ``holder`` holds here, or None."""
        return next((s.seat for s in self.seats if s.kind == "human"
                     and s.holder_hash == holder), None)

    def asked_by(self, holder: str) -> int | None:
        """The bot's seat the browser identity hashed as ``holder`` asked for, or None."""
        return next((s.seat for s in self.seats if s.take_hash is not None
                     and s.take_holder == holder), None)

    @property
    def seq(self) -> int:
        """Number of the last event (0: none yet)."""
        return len(self.events)

    def info(self) -> dict[str, Any]:
        """Public facts about the table (no secrets)."""
        return {
            "id": self.id,
            "preset": self.preset,
            "overrides": self.overrides,
            "suits": self.match.rules.suits,
            "rank_order": self.match.rules.rank_order,
            "partnerships": self.match.rules.partnerships,
            "declaration": self.match.rules.declaration,
            "contract_points": self.match.rules.contract_points,
            "sides": [list(x) for x in self.match.rules.sides],
            "taken_unit": self.match.rules.scorer.taken_unit,
            "seats": [
                {"seat": s.seat, "name": s.name, **name_fields(s.name, s.seat, s.bot_level),
                 "kind": s.kind, "level": s.bot_level,
                 "open": s.kind == "human" and s.token_hash is None}
                for s in self.seats
            ],
            "status": self.status(),
            "creator": self.creator_seat,
            "private": self.private,
            "hints": self.hints,
            "rated": bool(self.options.get("rated")),
            "paused": self.paused,
            "rematch": None if self.rematch_id is None else f"/tables/{self.rematch_id}",
            "guide": self.guide is not None,
            "guide_id": None if self.guide is None else self.guide.id,
            "trick_pause": self.config.trick_pause,
        }

    def status(self) -> str:
        """``waiting`` (for people, before the first deal), ``playing`` (a deal is in
        progress), ``between-deals`` or ``finished``."""
        if self.match.finished:
            return "finished"
        if self.waiting_for_people():
            return "waiting"
        return "playing" if self.match.current is not None else "between-deals"

    def open_seats(self) -> list[int]:
        """People's seats nobody has claimed yet."""
        return [s.seat for s in self.seats if s.kind == "human" and s.token_hash is None]

    def waiting_for_people(self) -> bool:
        """True before the first deal while a seat is open (see :meth:`start_now`)."""
        return not self.events and bool(self.open_seats())

    def presence(self) -> list[dict[str, Any]]:
        """Who is here: per seat, connected or not, grace deadline, bot playing or not."""
        out = []
        for s in self.seats:
            bot = s.kind == "bot"
            until = self.grace_until.get(s.seat)
            out.append({
                "seat": s.seat, "name": s.name, **name_fields(s.name, s.seat, s.bot_level),
                "kind": s.kind, "open": not bot and s.token_hash is None,
                "connected": bot or self.connections.get(s.seat, 0) > 0,
                "grace_until": None if until is None else int(until * 1000),
                "bot_playing": bot or s.seat in self.standing_in,
                "take_pending": bot and s.take_hash is not None,
                "take_name": s.take_name if bot and s.take_hash is not None else None,
                "take_approved": bot and s.take_hash is not None and s.take_approved,
            })
        return out

    def presence_frame(self) -> dict[str, Any]:
        """The ``presence`` frame (the same for every receiver)."""
        return {"type": "presence", "seats": self.presence(), "paused": self.paused}

    def state_frame(self, seat: int | None) -> dict[str, Any]:
        """The full state for ``seat`` (None: a spectator)."""
        return {"type": "state", "seq": self.seq, "you": seat, "table": self.info(),
                "view": self.match.view(seat), "summary": summary(self.match),
                "presence": self.presence(), "shuffle": self.shuffle_info()}

    def event_frame(self, index: int, seat: int | None, with_view: bool) -> dict[str, Any]:
        """Event number ``index + 1`` as ``seat`` may see it."""
        public = dict(self.public[index])
        if public["kind"] == "deal":
            hands = public.pop("hands")
            seats = public["seats"]
            public["hand"] = hands[seats.index(seat)] if seat in seats else None
        elif public.get("passing") and public["seat"] != seat:
            public["action"] = "hidden"
        frame: dict[str, Any] = {"type": "event", "seq": index + 1, "event": public}
        if with_view:
            frame["view"] = self.match.view(seat)
            if public.get("deal_over"):
                frame["summary"] = summary(self.match)
        return frame

    def catch_up(self, seat: int | None, last_seq: int) -> list[dict[str, Any]]:
        """What a client that saw event ``last_seq`` needs: the missed events or a state."""
        missed = self.seq - last_seq
        if last_seq <= 0 or missed < 0 or missed > self.config.max_missed_events:
            frames = [self.state_frame(seat)]
        else:
            frames = [self.event_frame(i, seat, with_view=i == self.seq - 1)
                      for i in range(last_seq, self.seq)]
        if self.pending is not None and self.pending.open:
            frames.append(self.commitment_frame(self.pending))
        return frames

    def _public(self, before: Match, after: Match, ev: EventRow) -> dict[str, Any]:
        """Everything about ``ev`` that is public, plus the hands (removed per seat)."""
        if ev.kind == "deal":
            assert ev.data is not None
            out_deal = {"kind": "deal", "dealer": ev.data["dealer"], "seats": ev.data["seats"],
                        "hands": ev.data["hands"], "turn_up": ev.data.get("turn_up")}
            proof = ev.data.get("shuffle")
            if proof is not None:  # everything but the seed, secret until the deal ends
                out_deal["shuffle"] = {"deal": after.deal_number,
                                       **{k: proof[k] for k in ("version", "commitment", "cuts")}}
            return out_deal
        out: dict[str, Any] = {"kind": "act", "seat": ev.seat, "action": ev.action}
        old = before.current
        if old is not None and old.phase_name == "pass":
            out["passing"] = True  # the Hearts family: the card shows to its passer only
        new = after.current if after.current is not None else _finished_deal(after)
        if old is not None and new is not None and len(new.past) > len(old.past):
            t = new.past[-1]
            seats = before.current_seats
            n = len(seats)
            out["trick"] = {"leader": seats[t.leader], "winner": seats[t.winner],
                            "cards": [CODES[c] for c in t.cards],
                            "seats": [seats[(t.leader + i) % n] for i in range(len(t.cards))]}
        if after.current is None:
            out["deal_over"] = True
            out["scores"] = list(after.results[-1].scores)
            proof = self._deal_proof_before(ev.seq - 1)
            if proof is not None:  # the deal is over: its seed is revealed
                out["reveal"] = {"deal": len(after.results), "seed": proof["seed"],
                                 "commitment": proof["commitment"]}
            if after.finished:
                out["match_over"] = True
        return out

    # ---------------------------------------------------------------- acting

    async def act(self, seat: int, text: str, seq: int | None) -> None:
        """Apply ``seat``'s action, commit it, announce it.

        Raises:
            ProtocolError: stale ``seq``, or the action is unknown or illegal
                (``rule`` says which rule); nothing changed.
        """
        async with self.lock:
            if seq is not None and seq != self.seq:
                raise ProtocolError(f"stale state: you saw event {seq}, the table is at "
                                    f"{self.seq}", "stale-seq")
            try:
                action = parse_action(text)
                after = self.match.apply(action, seat)
            except IllegalActionError as exc:
                raise ProtocolError(_safe_message(exc), exc.rule) from None
            await self._commit(EventRow(self.seq + 1, "act", action_name(action), seat, None),
                               after)
        self.wake()

    async def deal(self) -> None:
        """Deal the next hands, if a deal is due, from the committed seed and the cuts
        (a guided table's first deal: the guide's prepared hands, no shuffle).

        The pack order follows from the secret seed of :meth:`open_cuts` (a fresh
        one from ``secrets`` if none is pending) and the cuts received, by
        :mod:`polignac.core.shuffle`; the window closes here.  The event stores
        the seed (revealed to clients only when the deal ends).  Nothing happens
        while the table waits for people (:meth:`waiting_for_people`) or is paused.

        Raises:
            sqlalchemy.exc.SQLAlchemyError, WriterClosedError: the deal was not
                committed (nothing changed; the pending seed is dropped).
        """
        async with self.lock:
            if not self.match.needs_deal or self.waiting_for_people() or self.paused:
                return
            if self.guide is not None and not self.match.results:  # the prepared deal
                self.pending = None
                after = self.guide.deal(self.match)
                pending = None
            else:
                number = self.match.deal_number
                pending = self.pending
                if pending is None or pending.deal != number or not pending.open:
                    pending = self._draw(number, time.time())
                pending.open = False
                self.pending = None
                cuts = [pending.cuts.get(s) for s in range(self.match.num_players)]
                _dealer, seats = self.match.next_deal()
                order = shuffle.deal_order(self.match.rules, len(seats), pending.seed, self.id,
                                           number, cuts)
                after = self.match.deal_from_pack(order)
            d = after.current
            assert d is not None
            data = {
                "dealer": after.current_dealer,
                "seats": list(after.current_seats),
                "hands": [[CODES[c] for c in cards_of(h)] for h in d.initial_hands],
                "turn_up": None if d.turn_up is None else CODES[d.turn_up],
            }
            if pending is not None:  # a prepared (guided) deal has no shuffle to prove
                data["shuffle"] = shuffle.Proof(self.id, pending.commitment, pending.seed,
                                                tuple(cuts), self.match.rules.packets).to_json()
            await self._commit(EventRow(self.seq + 1, "deal", "deal", None, data), after)

    # --------------------------------------------------------- verifiable deals

    def _draw(self, number: int, closes: float) -> PendingDeal:
        """A fresh secret seed for deal ``number`` and its commitment."""
        seed = secrets.token_bytes(shuffle.SEED_BYTES)
        return PendingDeal(number, seed, shuffle.commitment(seed, self.id, number), closes)

    def open_cuts(self, window: float) -> PendingDeal:
        """Draw the next deal's seed, publish its commitment and take cuts for
        ``window`` seconds (or keep the window already open for that deal)."""
        number = self.match.deal_number
        if self.pending is not None and self.pending.deal == number and self.pending.open:
            return self.pending
        self.pending = pending = self._draw(number, time.time() + window)
        self._check_all_cut(pending)
        self.broadcast(self.commitment_frame(pending))
        return pending

    def commitment_frame(self, pending: PendingDeal) -> dict[str, Any]:
        """The public ``commitment`` frame: what a seated browser cuts against."""
        return {"type": "commitment", "version": shuffle.VERSION, "deal": pending.deal,
                "commitment": pending.commitment, "closes": int(pending.closes * 1000)}

    def _cutters(self) -> set[int]:
        """Seats whose person may cut: claimed people's seats no stand-in plays."""
        return {s.seat for s in self.seats if s.kind == "human" and s.token_hash is not None
                and s.seat not in self.standing_in}

    def _check_all_cut(self, pending: PendingDeal) -> None:
        if self._cutters() <= set(pending.cuts):
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

    def shuffle_info(self) -> dict[str, Any] | None:
        """The current (or last) deal's public verification data; the seed only once
        that deal is over.  None before the first deal or for an unverifiable deal."""
        index = next((i for i in range(len(self.events) - 1, -1, -1)
                      if self.events[i].kind == "deal"), None)
        if index is None:
            return None
        data = self.events[index].data or {}
        proof = data.get("shuffle")
        if proof is None:
            return None
        out = {k: proof[k] for k in ("version", "commitment", "cuts")}
        out["deal"] = sum(1 for ev in self.events[:index + 1] if ev.kind == "deal")
        if self.match.current is None:
            out["seed"] = proof["seed"]
        return out

    def _deal_proof_before(self, index: int) -> dict[str, Any] | None:
        """The stored shuffle data of the last deal event at or before ``index``."""
        for i in range(index, -1, -1):
            ev = self.events[i]
            if ev.kind == "deal":
                proof: dict[str, Any] | None = (ev.data or {}).get("shuffle")
                return proof
        return None

    def shuffles(self) -> list[dict[str, Any] | None]:
        """The records' ``shuffle`` data of the finished deals (with their seeds)."""
        out: list[dict[str, Any] | None] = []
        for ev in self.events:
            if ev.kind == "deal" and len(out) < len(self.match.results):
                out.append((ev.data or {}).get("shuffle"))
        return out

    async def _commit(self, ev: EventRow, after: Match) -> None:
        """Commit ``ev`` (group commit: see ``writer.py``), then apply and announce it.

        Call with the lock held.  Each seat's frame is built and encoded once,
        however many connections that seat (or the spectators) has.
        """
        finish = None  # a match's result (and rating) is stored with its last event
        if after.finished and not self.match.finished:
            finish = results.finish_op(self, after)
        try:
            await self.writer.append(self.id, ev, finish)
        except IntegrityError:  # that number is taken: another process owns the table
            if self.on_fenced is not None:
                self.on_fenced(self)
            raise ProtocolError("this table moved to another server process: reconnect",
                                "table-moved") from None
        before = self.match
        self.match = after
        self.events.append(ev)
        self.public.append(self._public(before, after, ev))
        index = len(self.events) - 1
        encoded: dict[int | None, str] = {}
        for sub in list(self.subscribers):
            text = encoded.get(sub.seat)
            if text is None:
                text = encoded[sub.seat] = json.dumps(
                    self.event_frame(index, sub.seat, with_view=True), ensure_ascii=False)
            self._send(sub, text)
        if after.current is None:  # a deal boundary: seats people asked for change hands
            await self._grant_takes()
        if after.finished and not before.finished:
            self.settle()

    def _send(self, sub: Subscriber, frame: Frame) -> None:
        if sub.dropped:
            return
        if sub.queue.qsize() > 500:  # a client that does not read: drop it (its
            sub.dropped = True       # handler then unsubscribes it)
            sub.queue.put_nowait(None)
            return
        sub.queue.put_nowait(frame)

    def subscribe(self, seat: int | None, queue: asyncio.Queue[Frame]) -> Subscriber:
        """Register a connection for ``seat`` (None: a spectator) whose frames go to ``queue``.

        A person's connection ends any grace period or stand-in bot for the
        seat.  The caller then broadcasts a ``presence`` frame.
        """
        sub = Subscriber(seat, queue)
        self.subscribers.add(sub)
        if seat is not None and self.seats[seat].kind == "human":
            self.connections[seat] = self.connections.get(seat, 0) + 1
            self._end_grace(seat)
            self.standing_in.discard(seat)
            self.resume()
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        """Forget a connection; a person's last one starts the seat's grace period."""
        if sub not in self.subscribers:
            return
        self.subscribers.discard(sub)
        seat = sub.seat
        if seat is not None and self.seats[seat].kind == "human":
            self.connections[seat] = max(0, self.connections.get(seat, 0) - 1)
            if self.connections[seat] == 0:
                self.start_grace(seat)
        self.broadcast(self.presence_frame())

    def broadcast(self, frame: dict[str, Any]) -> None:
        """Send the same public ``frame`` to every connection."""
        for sub in list(self.subscribers):
            self._send(sub, frame)

    # -------------------------------------------------------------- presence

    def start_grace(self, seat: int) -> None:
        """Give an absent person ``grace_seconds``, after which a bot plays for them.

        Nothing happens for a seat nobody has claimed yet, or once the match is over.
        """
        if (self.match.finished or self.seats[seat].kind != "human"
                or self.seats[seat].token_hash is None or seat in self.standing_in
                or self.connections.get(seat, 0) > 0):
            return
        self._end_grace(seat)
        grace = self.config.grace_seconds
        self.grace_until[seat] = time.time() + grace
        self.grace_tasks[seat] = asyncio.get_running_loop().create_task(
            self._grace_timer(seat, grace))

    def _end_grace(self, seat: int) -> None:
        self.grace_until.pop(seat, None)
        task = self.grace_tasks.pop(seat, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _grace_timer(self, seat: int, grace: float) -> None:
        await asyncio.sleep(grace)
        self.grace_tasks.pop(seat, None)
        self.grace_until.pop(seat, None)
        if self.connections.get(seat, 0) > 0 or self.seats[seat].kind != "human":
            return
        if not self.people_connected():  # nobody left to play with: pause, no stand-in
            self.pause()
            return
        self.standing_in.add(seat)
        if seat not in self.standins:
            self.standins[seat] = make_bot(self.config.standin_level)
        self.broadcast(self.presence_frame())
        self.wake()

    def pause(self) -> None:
        """Nobody is at the table: no bot plays and no card is dealt until a person
        connects (:meth:`resume`); after ``close_seconds`` the hub closes it."""
        if self.paused or self.match.finished:
            return
        self.paused = True
        self.broadcast(self.presence_frame())
        self._schedule_idle(self.config.close_seconds, "closed")

    def resume(self) -> None:
        """A person connected to a paused table: absent people get their grace period
        again, the bots play again (a closed table is open again)."""
        if not self.paused:
            return
        self.paused = False
        self._cancel_idle()
        for s in self.seats:
            if s.kind == "human" and s.seat not in self.standing_in:
                self.start_grace(s.seat)
        if self.closed_at is not None:
            self.closed_at = None
            self.reopen_task = asyncio.get_running_loop().create_task(self._store_reopened())
        self.wake()

    async def _store_reopened(self) -> None:
        try:
            await self.writer.run(lambda conn: update_table(conn, self.id, closed_at=None))
        except Exception:  # the table plays on; it would be closed again at a restart
            log.exception("table %s: could not store that it is open again", self.id)

    def settle(self) -> None:
        """Start the right idle timer: a finished table leaves memory after
        ``finished_keep_seconds``; a paused one is closed after ``close_seconds``."""
        if self.match.finished:
            self._schedule_idle(self.config.finished_keep_seconds, "finished")
        elif self.paused:
            self._schedule_idle(self.config.close_seconds, "closed")

    def _schedule_idle(self, delay: float, why: str) -> None:
        self._cancel_idle()
        self.idle_task = asyncio.get_running_loop().create_task(self._idle_timer(delay, why))

    def _cancel_idle(self) -> None:
        if self.idle_task is not None and self.idle_task is not asyncio.current_task():
            self.idle_task.cancel()
        self.idle_task = None

    async def _idle_timer(self, delay: float, why: str) -> None:
        while True:
            await asyncio.sleep(delay)
            if (why == "closed" and not self.paused) or self.on_idle is None:
                return
            try:
                if await self.on_idle(self, why):
                    return
            except Exception:  # try again later
                log.exception("table %s: could not unload", self.id)

    def rename(self, seat: int, name: str) -> None:
        """The match's name for ``seat`` (as a restart, which replays with the seats'
        names, would have it)."""
        names = list(self.match.names)
        names[seat] = name
        self.match = dataclasses.replace(self.match, names=tuple(names))

    def _bot_for(self, seat: int) -> Any:
        """The bot that plays ``seat`` now (its own, or a stand-in), or None."""
        if seat in self.bots:
            return self.bots[seat]
        if seat in self.standing_in:
            return self.standins[seat]
        return None

    def _spec_for(self, seat: int) -> str:
        """The level spec of the bot that plays ``seat`` now (see :meth:`_bot_for`)."""
        if seat in self.bots:
            return self.seats[seat].bot_level or "random"
        return self.config.standin_level

    def take_seat(self, seat: int, name: str, token_hash: str, holder: str | None) -> None:
        """Make bot ``seat`` a person's seat (storage is the caller's job); its grace starts."""
        row = self.seats[seat]
        row.kind, row.bot_level, row.name = "human", None, name
        row.token_hash, row.invite_hash, row.holder_hash = token_hash, None, holder
        row.take_hash = row.take_name = row.take_holder = None
        row.take_approved = False
        self.rename(seat, name)
        self.bots.pop(seat, None)
        self.start_grace(seat)
        self.broadcast(self.presence_frame())

    async def request_take(self, seat: int, name: str, token_hash: str, holder: str) -> None:
        """A person (browser identity hashed as ``holder``) asks for bot ``seat``; the
        request waits, stored, for the creator's answer (:meth:`answer_take`).  Call
        with the lock held.

        Raises:
            ProtocolError: not a bot's seat (``not-a-bot``), the match is over
                (``finished``), someone already asked for it (``take-pending``),
                ``max_take_requests`` requests already wait (``too-many-requests``).
            sqlalchemy.exc.SQLAlchemyError, WriterClosedError: not stored
                (nothing changed).
        """
        row = self.seats[seat]
        if row.kind != "bot":
            raise ProtocolError("only a bot's seat can be taken", "not-a-bot")
        if self.match.finished:
            raise ProtocolError("the match is over", "finished")
        if row.take_hash is not None:
            raise ProtocolError("someone already asked for this seat", "take-pending")
        waiting = sum(s.take_hash is not None for s in self.seats)
        if waiting >= self.config.max_take_requests:
            raise ProtocolError(f"{waiting} requests already wait for the creator's answer; "
                                "try again later", "too-many-requests")
        await self.writer.run(lambda conn: update_seat(
            conn, self.id, seat, take_hash=token_hash, take_name=name, take_holder=holder,
            take_approved=False))
        row.take_hash, row.take_name, row.take_holder = token_hash, name, holder
        row.take_approved = False
        self.broadcast(self.presence_frame())

    async def answer_take(self, seat: int, approve: bool) -> bool:
        """The creator's answer to the request for bot ``seat``: refused (the request is
        dropped), or approved: the seat changes hands now between deals (True), else
        at the end of this deal (False).  Call with the lock held.

        Raises:
            ProtocolError: nobody asked for that seat (``no-request``).
            sqlalchemy.exc.SQLAlchemyError, WriterClosedError: not stored
                (nothing changed).
        """
        row = self.seats[seat]
        if row.kind != "bot" or row.take_hash is None:
            raise ProtocolError("nobody asked for this seat", "no-request")
        if not approve:
            await self.writer.run(lambda conn: update_seat(
                conn, self.id, seat, take_hash=None, take_name=None, take_holder=None,
                take_approved=False))
            row.take_hash = row.take_name = row.take_holder = None
            row.take_approved = False
            self.broadcast(self.presence_frame())
            return False
        if self.match.current is None:
            token_hash, name, holder = row.take_hash, row.take_name or "", row.take_holder
            await self.writer.run(lambda conn: update_seat(
                conn, self.id, seat, kind="human", bot_level=None, name=name,
                token_hash=token_hash, invite_hash=None, holder_hash=holder, take_hash=None,
                take_name=None, take_holder=None, take_approved=False))
            self.take_seat(seat, name, token_hash, holder)
            return True
        await self.writer.run(lambda conn: update_seat(conn, self.id, seat,
                                                       take_approved=True))
        row.take_approved = True
        self.broadcast(self.presence_frame())
        return False

    async def _grant_takes(self) -> None:
        """At a deal boundary: give each bot's seat whose request the creator approved to
        its requester (or, when the match is over, drop every request).  Call with the
        lock held."""
        finished = self.match.finished
        asked = [s for s in self.seats if s.kind == "bot" and s.take_hash is not None
                 and (finished or s.take_approved)]
        if not asked:
            return

        def store(conn: Any) -> None:
            for s in asked:
                if finished:
                    update_seat(conn, self.id, s.seat, take_hash=None, take_name=None,
                                take_holder=None, take_approved=False)
                else:
                    update_seat(conn, self.id, s.seat, kind="human", bot_level=None,
                                name=s.take_name, token_hash=s.take_hash, invite_hash=None,
                                holder_hash=s.take_holder, take_hash=None, take_name=None,
                                take_holder=None, take_approved=False)

        try:
            await self.writer.run(store)
        except Exception:  # the requests stay queued for the next boundary
            log.exception("table %s: could not hand seats over", self.id)
            return
        for s in asked:
            if finished:
                s.take_hash = s.take_name = s.take_holder = None
                s.take_approved = False
            else:
                assert s.take_hash is not None and s.take_name is not None
                self.take_seat(s.seat, s.take_name, s.take_hash, s.take_holder)
        self.broadcast(self.presence_frame())

    async def start_now(self, level: str) -> None:
        """The creator starts a waiting table: bots of ``level`` take the open seats,
        then the first deal comes.  Call with the lock held; the caller wakes the table.

        Raises:
            ProtocolError: the table is not waiting for people (``not-waiting``).
            sqlalchemy.exc.SQLAlchemyError, WriterClosedError: not stored
                (nothing changed).
        """
        if not self.waiting_for_people():
            raise ProtocolError("the table is not waiting for people", "not-waiting")
        fill = self.open_seats()
        names = {seat: bot_name(level, seat + 1) for seat in fill}

        def store(conn: Any) -> None:
            for seat in fill:
                update_seat(conn, self.id, seat, kind="bot", bot_level=level, name=names[seat],
                            token_hash=None, invite_hash=None, invite_sealed=None)

        await self.writer.run(store)
        for seat in fill:
            row = self.seats[seat]
            row.kind, row.bot_level, row.name = "bot", level, names[seat]
            row.token_hash = row.invite_hash = row.invite_sealed = None
            self.bots[seat] = make_bot(level)
            self.rename(seat, names[seat])
        self.broadcast(self.presence_frame())

    # ---------------------------------------------------------------- driver

    def _due(self) -> str | None:
        m = self.match
        if m.finished or self.paused:
            return None
        if m.needs_deal:
            return None if self.waiting_for_people() else "deal"
        seat = m.to_act()
        if seat is not None and self._bot_for(seat) is not None:
            return "bot"
        return None

    def wake(self) -> None:
        """Start the driver if a bot or the dealer has something to do."""
        if self._due() and (self.driver is None or self.driver.done()):
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        try:
            while (due := self._due()) is not None:
                if due == "deal":
                    await self._cut_window()
                    await self.deal()
                    continue
                await self._bot_turn()
        except asyncio.CancelledError:
            raise
        except ProtocolError as exc:  # table-moved: the hub drops the table
            log.info("table %s: driver stopped (%s)", self.id, exc)
        except Exception:  # a driver must never die silently
            log.exception("table %s: driver failed", self.id)

    async def _cut_window(self) -> None:
        """Publish the next deal's commitment and wait for the cuts: the deal delay
        (later deals), or until every seated person has cut, at most
        ``cut_window`` seconds (the first deal, which has no delay)."""
        first = not self.match.results
        if first and self.guide is not None:  # the prepared deal: nothing to cut
            return
        delay = 0.0 if first else self.config.deal_delay
        window = self.config.cut_window if first else delay
        if window <= 0:  # no window: deal() draws the seed and deals without cuts
            return
        pending = self.open_cuts(window)
        if delay > 0:
            await asyncio.sleep(delay)
        elif window > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(pending.all_cut.wait(), window)

    async def _bot_turn(self) -> None:
        match, seq = self.match, self.seq
        seat = match.to_act()
        bot = None if seat is None else self._bot_for(seat)
        if seat is None or bot is None:
            return
        deal = match.current
        assert deal is not None  # a bot is to act
        job = BotJob(self._spec_for(seat), SeatView.of(deal, deal.to_act, match),
                     move_seed(self.bot_seed, len(match.results) + 1, len(deal.history)),
                     self.id)
        if self.backend is not None:
            choose = self.backend.choose(job)
        else:  # a table outside a hub (no workers): a thread
            choose = asyncio.to_thread(move_for, job.spec, job.view, job.seed)
        # The bot thinks during its delay: it keeps its pace whatever its level
        # (a move that takes longer than bot_delay comes when it is ready).
        last = self.public[-1] if self.public else None  # after a trick: trick_pause too
        action, _ = await asyncio.gather(choose, asyncio.sleep(bot_wait(self.config, last)))
        async with self.lock:
            if self.seq != seq or self._bot_for(seat) is not bot or self.paused:
                return
            after = self.match.apply(action, seat)
            await self._commit(EventRow(self.seq + 1, "act", action_name(action), seat, None),
                               after)

    async def stop(self, reconnect: bool = False) -> None:
        """Cancel the driver and the timers, and close every connection (with 1012
        when ``reconnect``: the table moved to another process)."""
        for task in list(self.grace_tasks.values()):
            task.cancel()
        self.grace_tasks.clear()
        self._cancel_idle()
        if self.driver is not None:
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.driver
        for sub in list(self.subscribers):
            if reconnect:
                sub.queue.close_code = 1012  # type: ignore[attr-defined]
            sub.queue.put_nowait(None)


def bot_wait(config: ServerConfig, last: dict[str, Any] | None) -> float:
    """Seconds a bot waits before acting after the public event ``last`` (None: none yet):
    ``bot_delay``, plus ``trick_pause`` when ``last`` completed a trick of a deal that
    goes on (a finished deal waits ``deal_delay`` instead)."""
    if last is not None and "trick" in last and not last.get("deal_over"):
        return config.bot_delay + config.trick_pause
    return config.bot_delay


TableFactory = Callable[[TableRow], GameTable]
