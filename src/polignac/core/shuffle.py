"""Verifiable deals: a committed server seed, the players' cuts, an HMAC-driven shuffle.

The scheme ``polignac-shuffle/1`` (docs/server.md, "Verifiable deals", writes it
out byte by byte so that anyone can reimplement it):

1. Before a deal the server draws a secret *seed* (32 random bytes) and
   publishes its *commitment* ``SHA-256(lp(TAG_COMMIT) lp(table) lp(deal) lp(seed))``,
   where ``lp(b)`` is ``b`` preceded by its length as 4 bytes, big-endian, and
   ``deal`` is the deal's number (from 1) in decimal ASCII.
2. Each seated person may send a *cut* (1 to 32 bytes, as hex) while the cut
   window is open.
3. The shuffle key is ``HMAC-SHA-256(seed, lp(TAG_KEY) lp(table) lp(deal)
   u32(n) lp(cut_0) ... lp(cut_n-1))`` with one cut per seat of the table
   (``n`` seats; an empty string for a seat that did not cut).
4. Block ``i`` (0, 1, 2, ...) of the stream is ``HMAC-SHA-256(key, u32(i))``; the
   stream is read as 32-bit big-endian unsigned words.
5. The pack (the cards in play, ascending card number ``suit * 13 + rank``) is
   shuffled by Fisher-Yates: for ``i`` from ``len - 1`` down to 1, a word ``w`` is
   drawn until ``w < 2**32 - 2**32 % (i + 1)`` (rejection: no bias), then cards
   ``i`` and ``w % (i + 1)`` swap.  The result is the pack order, top card first,
   dealt as the core deals it (:meth:`polignac.core.deal.Deal.from_pack`).
6. When the deal is over the seed is revealed: anyone can recompute the
   commitment and the hands.

Everything here is pure: the caller supplies the seed and the cuts (this
module draws nothing; the server draws the seed from ``secrets``).

>>> seed = bytes(range(32))
>>> commitment(seed, "t1", 1)[:16]
'517d49b54a400d91'
>>> pack_order(seed, "t1", 1, [None, b"\\x01"], list(range(8)))
[5, 2, 0, 4, 7, 1, 3, 6]
"""

from __future__ import annotations

import hashlib
import hmac
import re
import struct
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from .cards import CODES, Card, cards_of, parse_card
from .deal_tables import deal_packets
from .errors import CardParseError, PolignacError, RecordError, RulesError
from .presets import get_rules
from .record import replay
from .rules import Rules

VERSION = "polignac-shuffle/1"
"""The name of this scheme, written in records and frames."""
TAG_COMMIT = b"polignac-shuffle/1 commitment"
TAG_KEY = b"polignac-shuffle/1 key"
SEED_BYTES = 32
"""Bytes of seed the server draws (a record's seed may hold 16 to 64)."""
MAX_CUT_BYTES = 32
"""A cut holds 1 to 32 bytes (2 to 64 hex digits)."""
MAX_TABLE_ID = 64
"""A table id is at most 64 characters."""
MAX_SEATS = 16

_HEX = re.compile(r"(?:[0-9a-f]{2})+")


class ShuffleError(PolignacError):
    """Verification data that is malformed (not a failed check: see :class:`DealCheck`)."""


def _lp(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def commitment(seed: bytes, table: str, deal: int) -> str:
    """The commitment to ``seed`` for deal number ``deal`` of ``table``, as 64 hex digits."""
    msg = _lp(TAG_COMMIT) + _lp(table.encode()) + _lp(str(deal).encode()) + _lp(seed)
    return hashlib.sha256(msg).hexdigest()


def shuffle_key(seed: bytes, table: str, deal: int, cuts: Sequence[bytes | None]) -> bytes:
    """The HMAC key of the deal's stream: the seed mixed with every seat's cut."""
    msg = (_lp(TAG_KEY) + _lp(table.encode()) + _lp(str(deal).encode())
           + struct.pack(">I", len(cuts)) + b"".join(_lp(c or b"") for c in cuts))
    return hmac.digest(seed, msg, "sha256")


def _words(key: bytes) -> Iterator[int]:
    """The stream's 32-bit words, without end."""
    counter = 0
    while True:
        block = hmac.digest(key, struct.pack(">I", counter), "sha256")
        yield from struct.unpack(">8I", block)
        counter += 1


def pack_order(seed: bytes, table: str, deal: int, cuts: Sequence[bytes | None],
               cards: Sequence[Card]) -> list[Card]:
    """Shuffle ``cards`` (the pack, in ascending order) by the scheme: the pack order,
    top card first."""
    order = list(cards)
    words = _words(shuffle_key(seed, table, deal, cuts))
    for i in range(len(order) - 1, 0, -1):
        j = _below(words, i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def _below(words: Iterator[int], bound: int) -> int:
    """A uniform number in ``[0, bound)`` from 32-bit ``words``: words at or above the
    largest multiple of ``bound`` are skipped (rejection sampling), so no number is
    more likely than another."""
    limit = (1 << 32) - (1 << 32) % bound
    w = next(words)
    while w >= limit:
        w = next(words)
    return w % bound


def deal_order(rules: Rules, deal_seats: int, seed: bytes, table: str, deal: int,
               cuts: Sequence[bytes | None]) -> list[Card]:
    """The pack order of a deal played by ``deal_seats`` players (the pack depends on
    their number), ready for :meth:`~polignac.core.match.Match.deal_from_pack`."""
    return pack_order(seed, table, deal, cuts, cards_of(rules.pack_mask(deal_seats)))


def hands_from_order(rules: Rules, order: Sequence[Card], n: int,
                     dealer: int) -> tuple[list[list[Card]], Card | None]:
    """The hands (deal player ``i``, sorted) and the turn-up that ``order`` deals,
    ``dealer`` being the dealer's deal player number, exactly as the core deals."""
    hands = [sorted(h) for h in deal_packets(rules, order, n, dealer)]
    return hands, (order[-1] if rules.has_turn_up else None)


def parse_hex(value: Any, what: str, min_bytes: int, max_bytes: int) -> bytes:
    """Read lower- or upper-case hex of ``min_bytes`` to ``max_bytes`` bytes.

    Raises:
        ShuffleError: not a string of hex digit pairs of that length (``what`` says
            which field).
    """
    if not isinstance(value, str) or not min_bytes * 2 <= len(value) <= max_bytes * 2 \
            or not _HEX.fullmatch(value.lower()):
        size = f"{min_bytes * 2}" if min_bytes == max_bytes else \
            f"{min_bytes * 2} to {max_bytes * 2}"
        raise ShuffleError(f"{what} must be {size} hex digits (an even number)")
    return bytes.fromhex(value)


# ------------------------------------------------------------------ records


@dataclass(frozen=True)
class Proof:
    """A deal's verification data as a record carries it (``deals[i].shuffle``)."""

    table: str
    commitment: str
    seed: bytes | None
    cuts: tuple[bytes | None, ...]
    packets: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The record's ``shuffle`` object."""
        out: dict[str, Any] = {
            "version": VERSION, "table": self.table, "commitment": self.commitment,
            "seed": None if self.seed is None else self.seed.hex(),
            "cuts": [None if c is None else c.hex() for c in self.cuts],
        }
        if self.packets is not None:
            out["packets"] = list(self.packets)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Proof:
        """Read a record's ``shuffle`` object.

        Raises:
            ShuffleError: an unknown version or a malformed field (named).
        """
        if not isinstance(data, Mapping):
            raise ShuffleError("shuffle must be an object")
        if data.get("version") != VERSION:
            raise ShuffleError(f"shuffle version {str(data.get('version'))[:40]!r} is not "
                               f"{VERSION!r}")
        table = data.get("table")
        if not isinstance(table, str) or not 0 < len(table) <= MAX_TABLE_ID:
            raise ShuffleError(f"shuffle table must be a table id of 1 to {MAX_TABLE_ID} "
                               "characters")
        commit = parse_hex(data.get("commitment"), "shuffle commitment", 32, 32).hex()
        seed_text = data.get("seed")
        seed = None if seed_text is None else parse_hex(seed_text, "shuffle seed", 16, 64)
        cuts = data.get("cuts")
        if not isinstance(cuts, list) or not 0 < len(cuts) <= MAX_SEATS:
            raise ShuffleError(f"shuffle cuts must be a list of 1 to {MAX_SEATS} cuts, "
                               "one per seat")
        parsed = tuple(None if c is None else
                       parse_hex(c, f"shuffle cut of seat {s}", 1, MAX_CUT_BYTES)
                       for s, c in enumerate(cuts))
        packets = data.get("packets")
        if packets is not None:
            if not isinstance(packets, list) or not 0 < len(packets) <= 16 or not all(
                    isinstance(p, int) and not isinstance(p, bool) and 0 < p <= 64
                    for p in packets):
                raise ShuffleError("shuffle packets must be a list of packet sizes")
            packets = tuple(packets)
        return cls(table, commit, seed, parsed, packets)


@dataclass(frozen=True)
class DealCheck:
    """What :func:`verify_record` found for one deal.

    ``status`` is ``ok``, ``failed`` or ``not-verifiable`` (no verification
    data, or a seed not revealed yet); ``problems`` says what failed.
    """

    deal: int
    status: str
    commitment: str | None = None
    cuts: int = 0
    problems: tuple[str, ...] = field(default=())
    refused: tuple[str, ...] = field(default=())
    """The cuts the server refused for this deal (``shuffle.refused``), one line each."""
    notes: tuple[str, ...] = field(default=())
    """How a check passed when it is worth saying (``polignac verify --log``: a deal
    dealt before the commitment log, checked against the table's stored event log)."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready (``polignac verify --json``)."""
        return {"deal": self.deal, "status": self.status, "commitment": self.commitment,
                "cuts": self.cuts, "problems": list(self.problems),
                "refused": list(self.refused), "notes": list(self.notes)}


MAX_REFUSED = 64
"""Refused cuts a deal's ``shuffle.refused`` may list."""


def refused_cuts(data: Any) -> tuple[str, ...]:
    """The lines that say which cuts a record's ``shuffle.refused`` lists (a seat, the
    rule the server refused it by, when, the server's message).

    Raises:
        ShuffleError: not a list of at most :data:`MAX_REFUSED` refusals
            ``{"seat", "rule", "message", "at"}``.
    """
    if data is None:
        return ()
    if not isinstance(data, list) or len(data) > MAX_REFUSED:
        raise ShuffleError(f"shuffle refused must be a list of at most {MAX_REFUSED} "
                           "refused cuts")
    out = []
    for r in data:
        if not isinstance(r, Mapping) or not isinstance(r.get("seat"), int) \
                or not isinstance(r.get("rule"), str) or not isinstance(r.get("at"), int) \
                or not isinstance(r.get("message", ""), str):
            raise ShuffleError("each refused cut must be {seat, rule, message, at}")
        when = datetime.fromtimestamp(min(max(r["at"], 0), 10 ** 14) / 1000, UTC)
        out.append(f"seat {r['seat']}'s cut refused ({r['rule'][:32]}) at "
                   f"{when.isoformat(timespec='milliseconds')}: {r.get('message', '')[:200]}")
    return tuple(out)


def check_deal(rules: Rules, number: int, entry: Mapping[str, Any], dealer: int,
               seats: Sequence[int], num_players: int, finished: bool = False,
               lenient: bool = True) -> DealCheck:
    """Check deal ``number`` of a record against its ``shuffle`` data.

    ``dealer`` and ``seats`` are match seats (the dealer is one of ``seats``).
    A deal without its proof (no ``shuffle``, or no seed) is ``not-verifiable``
    while it is in play; once ``finished`` it fails unless ``lenient`` (a record
    made without proofs, by ``polignac play-random`` say): a proof left out or a
    seed set to null must not pass as a deal that nobody could check.
    Never raises: a malformed field is a failed check.
    """
    binding = finished and not lenient
    data = entry.get("shuffle")
    if data is None:
        if binding:
            return DealCheck(number, "failed", problems=(
                "the deal is over but its proof (shuffle) is missing",))
        return DealCheck(number, "not-verifiable", problems=("no verification data",))
    try:
        proof = Proof.from_json(data)
        refused = refused_cuts(data.get("refused"))
    except ShuffleError as exc:
        return DealCheck(number, "failed", problems=(str(exc),))
    return replace(_check_proof(rules, number, entry, proof, dealer, seats, num_players,
                                binding), refused=refused)


def _check_proof(rules: Rules, number: int, entry: Mapping[str, Any], proof: Proof,
                 dealer: int, seats: Sequence[int], num_players: int,
                 binding: bool) -> DealCheck:
    """:func:`check_deal` once the proof is read."""
    base = DealCheck(number, "ok", proof.commitment, sum(c is not None for c in proof.cuts))
    if proof.seed is None:
        if binding:
            return DealCheck(number, "failed", proof.commitment, base.cuts,
                             ("the deal is over but its seed is not revealed",))
        return DealCheck(number, "not-verifiable", proof.commitment, base.cuts,
                         ("the seed is not revealed yet",))
    problems: list[str] = []
    if commitment(proof.seed, proof.table, number) != proof.commitment:
        problems.append("the commitment is not SHA-256 of the revealed seed")
    if len(proof.cuts) != num_players:
        problems.append(f"{len(proof.cuts)} cuts for {num_players} seats")
    if proof.packets is not None and proof.packets != tuple(rules.packets):
        problems.append(f"packets {list(proof.packets)} are not the rules' "
                        f"{list(rules.packets)}")
    order = deal_order(rules, len(seats), proof.seed, proof.table, number, proof.cuts)
    hands, turn_up = hands_from_order(rules, order, len(seats), list(seats).index(dealer))
    problems += _compare(entry, hands, turn_up, seats)
    if problems:
        return DealCheck(number, "failed", proof.commitment, base.cuts, tuple(problems))
    return base


def _compare(entry: Mapping[str, Any], hands: list[list[Card]], turn_up: Card | None,
             seats: Sequence[int]) -> list[str]:
    """How the record's hands differ from those the shuffle deals."""
    recorded = entry.get("hands")
    if not isinstance(recorded, list) or len(recorded) != len(hands):
        return [f"the record does not hold {len(hands)} hands"]
    out = []
    for p, (want, have) in enumerate(zip(hands, recorded, strict=True)):
        try:
            cards = sorted(parse_card(c) for c in have)
        except (CardParseError, TypeError):
            out.append(f"seat {seats[p]}: the hand is not a list of cards")
            continue
        if cards != want:
            extra = " ".join(CODES[c] for c in cards if c not in want) or "-"
            missing = " ".join(CODES[c] for c in want if c not in cards) or "-"
            out.append(f"seat {seats[p]}: the record's hand holds {extra} where the "
                       f"shuffle deals {missing}")
    up = entry.get("turn_up")
    want_up = None if turn_up is None else CODES[turn_up]
    try:
        have_up = None if up is None else CODES[parse_card(up)]
    except (CardParseError, TypeError):
        have_up = str(up)[:8]
    if have_up != want_up:
        out.append(f"the turn-up is {have_up}, the shuffle turns up {want_up}")
    return out


def verify_record(record: Mapping[str, Any], lenient: bool = False) -> list[DealCheck]:
    """Check every deal of a record (``polignac verify``): commitment, cuts, hands.

    Dealer and seats come from the replayed match (or, when the record does not
    replay, from the record's own ``dealer`` and ``seats``).  A finished deal (every
    deal but one still in play) without its proof fails unless ``lenient``
    (:func:`check_deal`).

    Raises:
        RecordError: the record is not an object, or its preset, rules or
            players are unusable.
    """
    if not isinstance(record, Mapping):
        raise RecordError("a record must be a JSON object")
    players = record.get("players")
    deals = record.get("deals") or []
    if not isinstance(players, list) or not isinstance(deals, list):
        raise RecordError("players and deals must be lists")
    try:
        rules = get_rules(str(record.get("preset")), record.get("rules") or {})
    except (RulesError, TypeError, AttributeError) as exc:
        raise RecordError(f"record rules: {exc}") from exc
    played: list[tuple[int, tuple[int, ...]]] = []
    replay_error: RecordError | None = None
    finished = len(deals)  # deals known to be over (all, when the record does not replay)
    try:
        match = replay(record)
        played = [(r.dealer, r.seats) for r in match.results]
        finished = len(played)
        if match.current is not None:
            played.append((match.current_dealer, match.current_seats))
    except RecordError as exc:
        replay_error = exc
    checks = []
    for number, entry in enumerate(deals, start=1):
        if not isinstance(entry, Mapping):
            checks.append(DealCheck(number, "failed", problems=("not an object",)))
            continue
        dealer: Any
        seats: Any
        if number <= len(played):
            dealer, seats = played[number - 1]
        else:
            dealer, seats = entry.get("dealer"), entry.get("seats") or list(range(len(players)))
        if not isinstance(dealer, int) or not isinstance(seats, list | tuple) or \
                dealer not in seats:
            check = DealCheck(number, "failed", problems=("the dealer is not known",))
        else:
            check = check_deal(rules, number, entry, dealer, seats, len(players),
                               number <= finished, lenient)
        if replay_error is not None and replay_error.deal == number:
            check = replace(check, status="failed", problems=(
                *check.problems, f"the record does not replay: {replay_error}"))
        checks.append(check)
    return checks


__all__ = [
    "MAX_CUT_BYTES",
    "MAX_REFUSED",
    "SEED_BYTES",
    "TAG_COMMIT",
    "TAG_KEY",
    "VERSION",
    "DealCheck",
    "Proof",
    "ShuffleError",
    "check_deal",
    "commitment",
    "deal_order",
    "hands_from_order",
    "pack_order",
    "parse_hex",
    "refused_cuts",
    "shuffle_key",
    "verify_record",
]
