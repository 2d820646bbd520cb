"""The commitment log: every deal's commitment in one append-only hash chain.

The server (``server/store/commitments.py``) appends one entry per deal it deals, in
the transaction that stores the deal, and each entry's hash covers the one
before it, so an entry cannot be changed, dropped or slipped in without
changing every later hash.  A record whose deal was forged again afterwards
(a new seed with its matching commitment) no longer matches the log
(``polignac verify RECORD --log ...``; docs/server.md, "The commitment log").
A deal dealt before the chain existed (migration 0008) has no entry:
:func:`before_chain` says which deals of a table those are, and their commitment is
then the one the table's stored deal event carries.

The scheme ``polignac-commitments/1``: entry number ``seq`` (from 1) of the
chain is ``(seq, table, deal, commitment, at, prev)``, ``at`` the time in epoch
milliseconds and ``prev`` the hash of entry ``seq - 1`` (64 zeros for the
first); its hash is ``SHA-256(lp(TAG) lp(seq) lp(table) lp(deal)
lp(commitment) lp(at) lp(prev))`` in hex, numbers written in decimal ASCII and
``lp`` as in :mod:`polignac.core.shuffle`.

Pure: the caller reads the entries (from the database or the server's route).

>>> first = Entry.make(1, "t1", 1, "ab" * 32, 1700000000000, GENESIS)
>>> first.hash[:16]
'f76e3f1fb33a8558'
>>> check_chain([first, Entry.make(2, "t1", 2, "cd" * 32, 1700000001000, first.hash)])
[]
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import PolignacError

VERSION = "polignac-commitments/1"
"""The name of this scheme, written in the route's answers."""
TAG = b"polignac-commitments/1 entry"
GENESIS = "0" * 64
"""The ``prev`` of the chain's first entry."""
MAX_TABLE_ID = 64
MAX_SEQ = 10 ** 15
MAX_DEAL = 1_000_000
MAX_AT = 10 ** 15

_HEX64 = re.compile(r"[0-9a-f]{64}")


def is_hex64(value: object) -> bool:
    """Whether ``value`` is 64 lower-case hex digits (a commitment, a hash)."""
    return isinstance(value, str) and _HEX64.fullmatch(value) is not None


class LogError(PolignacError):
    """A log entry that is malformed (not a failed check: see :func:`check_chain`)."""


def _lp(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def entry_hash(seq: int, table: str, deal: int, commitment: str, at: int, prev: str) -> str:
    """The hash of a log entry (see the module), as 64 hex digits."""
    msg = b"".join(_lp(x) for x in (TAG, str(seq).encode(), table.encode(),
                                    str(deal).encode(), commitment.encode(),
                                    str(at).encode(), prev.encode()))
    return hashlib.sha256(msg).hexdigest()


@dataclass(frozen=True)
class Entry:
    """One entry of the commitment log."""

    seq: int
    table: str
    deal: int
    commitment: str
    at: int
    """Epoch milliseconds at which the deal was stored."""
    prev: str
    hash: str

    @classmethod
    def make(cls, seq: int, table: str, deal: int, commitment: str, at: int,
             prev: str) -> Entry:
        """The entry with its hash computed."""
        return cls(seq, table, deal, commitment, at, prev,
                   entry_hash(seq, table, deal, commitment, at, prev))

    @property
    def sound(self) -> bool:
        """True when the stored hash is the hash of the entry's fields."""
        return self.hash == entry_hash(self.seq, self.table, self.deal, self.commitment,
                                       self.at, self.prev)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready (the route's ``entries``, a record's ``shuffle.log``)."""
        return {"seq": self.seq, "table": self.table, "deal": self.deal,
                "commitment": self.commitment, "at": self.at, "prev": self.prev,
                "hash": self.hash}

    @classmethod
    def from_json(cls, data: Any) -> Entry:
        """Read an entry (as :meth:`to_json` writes it).

        Raises:
            LogError: not an object, or a field missing or out of its bounds (named).
        """
        if not isinstance(data, Mapping):
            raise LogError("a log entry must be an object")
        out: dict[str, Any] = {}
        for name, hi in (("seq", MAX_SEQ), ("deal", MAX_DEAL), ("at", MAX_AT)):
            value = data.get(name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= hi:
                raise LogError(f"log entry {name} must be a whole number from 1 to {hi}")
            out[name] = value
        table = data.get("table")
        if not isinstance(table, str) or not 0 < len(table) <= MAX_TABLE_ID:
            raise LogError(f"log entry table must be a table id of 1 to {MAX_TABLE_ID} "
                           "characters")
        for name in ("commitment", "prev", "hash"):
            value = data.get(name)
            if not is_hex64(value):
                raise LogError(f"log entry {name} must be 64 lower-case hex digits")
            out[name] = value
        return cls(out["seq"], table, out["deal"], out["commitment"], out["at"],
                   out["prev"], out["hash"])


def check_chain(entries: Iterable[Entry], prev: Entry | None = None) -> list[str]:
    """What is wrong with a stretch of the chain, given in order (empty: nothing).

    Every entry's hash must be the hash of its fields, each entry must follow the
    one before it (the next number, and ``prev`` its hash), and the first entry
    (number 1) must start from :data:`GENESIS`.  ``prev``: the entry just before
    the stretch, when it starts later than number 1.
    """
    problems = []
    last = prev
    for e in entries:
        if not e.sound:
            problems.append(f"entry {e.seq}: its hash is not the hash of its fields")
        if last is None:
            if e.seq == 1 and e.prev != GENESIS:
                problems.append("entry 1 does not start the chain (prev is not zero)")
        elif e.seq != last.seq + 1:
            problems.append(f"entry {e.seq} follows entry {last.seq}: entries are missing")
        elif e.prev != last.hash:
            problems.append(f"entry {e.seq}: prev is not the hash of entry {last.seq}")
        last = e
    return problems


@dataclass(frozen=True)
class StoredDeal:
    """A deal as its table's stored event log has it (the table's ``deal`` events, in
    order): what :func:`before_chain` needs of it."""

    deal: int
    """Its number, from 1 (the table's how-many-th deal event)."""
    commitment: str | None
    """The event's ``shuffle.commitment`` (None: a deal without a shuffle)."""
    logged: bool
    """The event carries its log entry (``shuffle.log``): dealt once the chain existed."""
    at: int
    """Epoch milliseconds at which the event was stored."""


def before_chain(stored: Iterable[StoredDeal], entries: Iterable[Entry],
                 start: int | None) -> dict[int, str]:
    """The deals of one table that were dealt before the commitment log existed, with
    the commitment their stored event carries: deal number -> commitment.

    ``stored``: the table's deals as its event log has them, in order; ``entries``:
    the table's entries in the chain; ``start``: the ``at`` of the chain's first entry
    (None: the chain is empty).  Once the chain exists, every deal is appended to it in
    the transaction that stores the deal's event, whose ``shuffle.log`` then carries
    the entry, and a table's deals come one after the other.  So a deal predates the
    chain only when it comes before the table's first deal that the chain holds and
    before the first whose event carries an entry, and was stored before the chain's
    first entry; only those with a commitment are given.
    """
    first = min((e.deal for e in entries), default=None)
    out: dict[int, str] = {}
    for d in stored:
        if d.logged or (first is not None and d.deal >= first) \
                or (start is not None and d.at >= start):
            break
        if d.commitment is not None:
            out[d.deal] = d.commitment
    return out


BEFORE_CHAIN_NOTE = "dealt before the commitment log: checked against the table's stored " \
    "event log"


@dataclass(frozen=True)
class DealLog:
    """What :func:`check_record_deals` found for one deal."""

    problems: tuple[str, ...] = ()
    """What differs (empty: it matches)."""
    note: str | None = None
    """How it matched, when not by its entry (:data:`BEFORE_CHAIN_NOTE`)."""


def check_record_deals(record: Mapping[str, Any], entries: Sequence[Entry],
                       before: Mapping[tuple[str, int], str] | None = None
                       ) -> dict[int, DealLog]:
    """Check each deal of ``record`` that carries a ``shuffle`` against the log
    ``entries`` of its table: deal number -> what was found.

    A deal matches when the log has an entry for its table and number whose
    commitment is the record's and, when the record's ``shuffle.log`` is given, is
    that very entry.  Each entry must also be sound (its hash).  A deal the log has
    no entry for matches only when ``before`` (``(table, deal) -> commitment``: the
    deals dealt before the chain existed, :func:`before_chain`) gives the record's
    commitment for it, the record claims no entry for it (no ``shuffle.log``) and
    the log holds no deal of its table up to that one; it then carries
    :data:`BEFORE_CHAIN_NOTE`.  Never raises: a malformed field is a difference.
    """
    by_deal: dict[tuple[str, int], Entry] = {(e.table, e.deal): e for e in entries}
    first: dict[str, int] = {}
    for e in entries:
        first[e.table] = min(first.get(e.table, e.deal), e.deal)
    out: dict[int, DealLog] = {}
    deals = record.get("deals")
    for number, entry in enumerate(deals if isinstance(deals, list) else [], start=1):
        shuffle = entry.get("shuffle") if isinstance(entry, Mapping) else None
        if not isinstance(shuffle, Mapping):
            continue
        problems: list[str] = []
        note = None
        table = shuffle.get("table")
        logged = by_deal.get((table, number)) if isinstance(table, str) else None
        claimed = shuffle.get("log")
        if logged is None:
            stored = (before or {}).get((table, number)) if isinstance(table, str) else None
            if stored is None or claimed is not None \
                    or first.get(str(table), number + 1) <= number:
                problems.append("the commitment log has no entry for this deal")
            elif shuffle.get("commitment") != stored:
                problems.append("dealt before the commitment log, but the commitment is "
                                "not the one in the table's stored event log "
                                f"({stored[:16]}…)")
            else:
                note = BEFORE_CHAIN_NOTE
        else:
            if not logged.sound:
                problems.append(f"log entry {logged.seq}: its hash is not the hash of its "
                                "fields")
            if shuffle.get("commitment") != logged.commitment:
                problems.append(f"the commitment is not the one in the log (entry "
                                f"{logged.seq}: {logged.commitment[:16]}…)")
            if claimed is not None:
                try:
                    mine = Entry.from_json(claimed)
                except LogError as exc:
                    problems.append(f"shuffle.log: {exc}")
                else:
                    if mine != logged:
                        problems.append(f"shuffle.log is not entry {logged.seq} of the log")
        out[number] = DealLog(tuple(problems), note)
    return out


__all__ = ["BEFORE_CHAIN_NOTE", "GENESIS", "TAG", "VERSION", "DealLog", "Entry", "LogError",
           "StoredDeal", "before_chain", "check_chain", "check_record_deals", "entry_hash",
           "is_hex64"]
