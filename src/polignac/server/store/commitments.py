"""The commitment log of this server's database, and the refused cuts.

Every deal's commitment is appended to one hash chain per database
(``core/commitlog.py``) by :func:`append_op`, which runs in the transaction
that stores the deal's event (``tables.py:GameTable.deal``): a deal is never
stored without its entry, nor an entry without its deal.  The one
``commitment_head`` row numbers the entries: its ``UPDATE`` comes first and, on
PostgreSQL, holds that row's lock until the commit, so the appends of every
process happen one at a time; ``seq`` is the primary key, and ``prev``, ``hash``
and ``(table_id, deal)`` are unique, so the chain can neither fork nor hold a
deal twice, whatever restarts or processes do.

A refused cut (``cut_window.py:CutWindow.refuse``) is stored in
``cut_refusals`` and put in the record (``shuffle.refused`` of its deal).
The routes that read it are in ``web/commitment_routes.py``.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    insert,
    select,
    update,
)

from ...core.commitlog import GENESIS, VERSION, Entry, StoredDeal, before_chain, is_hex64
from ...core.shuffle import MAX_REFUSED
from .schema import commitment_head_t, commitment_log_t, cut_refusals_t, events_t

PAGE = 100
"""Entries a page by default."""
MAX_PAGE = 1000
"""Entries a page at most."""


def append(conn: Connection, table_id: str, deal: int, commitment: str,
           at: int | None = None) -> Entry:
    """Append deal ``deal`` of ``table_id``'s commitment to the chain, in ``conn``'s
    transaction (see the module); ``at``: epoch milliseconds (default: now).

    Raises:
        sqlalchemy.exc.IntegrityError: that deal is in the chain already (the
            transaction then fails as a whole).
        sqlalchemy.exc.SQLAlchemyError: the database refused the write.
    """
    conn.execute(update(commitment_head_t).where(commitment_head_t.c.id == 1)
                 .values(seq=commitment_head_t.c.seq + 1))
    head = conn.execute(select(commitment_head_t.c.seq, commitment_head_t.c.hash)
                        .where(commitment_head_t.c.id == 1)).one()
    entry = Entry.make(head.seq, table_id, deal, commitment,
                       int(time.time() * 1000) if at is None else at, head.hash)
    conn.execute(insert(commitment_log_t).values(
        seq=entry.seq, table_id=table_id, deal=deal, commitment=commitment, at=entry.at,
        prev=entry.prev, hash=entry.hash))
    conn.execute(update(commitment_head_t).where(commitment_head_t.c.id == 1)
                 .values(hash=entry.hash))
    return entry


def append_op(table_id: str, deal: int, proof: dict[str, Any], at: int | None = None
              ) -> Callable[[Connection], None]:
    """The write that appends the deal's commitment (``proof["commitment"]``) with
    the deal's event, and writes the entry into ``proof["log"]`` before the event is
    stored (``writer.py`` runs a write's op before its event, in one transaction);
    ``at``: epoch milliseconds on the server's clock, the deal event's own time."""
    def op(conn: Connection) -> None:
        proof["log"] = append(conn, table_id, deal, proof["commitment"], at).to_json()
    return op


DAMAGED = -1
"""What an integer field of a row reads as when it holds no integer: a SQLite file
keeps whatever a column was given (a damaged or edited one may hold text), and what
it holds must make the checks fail (an entry whose hash differs, of no deal, dated
before everything), never raise."""


def _int(value: Any) -> int:
    """``value`` when it is an integer, else :data:`DAMAGED`."""
    return value if isinstance(value, int) and not isinstance(value, bool) else DAMAGED


def _entry(r: Any) -> Entry:
    return Entry(r.seq, str(r.table_id), _int(r.deal), str(r.commitment), _int(r.at),
                 str(r.prev), str(r.hash))


def head(conn: Connection) -> dict[str, Any]:
    """The chain's last entry number and hash (0 and :data:`GENESIS`: empty)."""
    row = conn.execute(select(commitment_head_t.c.seq, commitment_head_t.c.hash)
                       .where(commitment_head_t.c.id == 1)).one()
    return {"seq": row.seq, "hash": row.hash}


def chain_page(engine: Engine, after: int, limit: int, until: int | None = None
               ) -> dict[str, Any]:
    """Entries ``after + 1`` on of the whole chain (at most ``limit``, and none after
    entry ``until`` when given), with the head; ``next``: the last entry's number when
    more follow (up to ``until``), else None.  A client that kept entry A checks that
    the entry B it is sent extends it by reading A + 1 to B this way (the consistency
    check, docs/server.md "Keeping the chain's head")."""
    with engine.connect() as conn:
        where = commitment_log_t.c.seq > after
        if until is not None:
            where &= commitment_log_t.c.seq <= until
        rows = conn.execute(select(commitment_log_t).where(where)
                            .order_by(commitment_log_t.c.seq).limit(limit)).all()
        top = head(conn)
    entries = [_entry(r).to_json() for r in rows]
    last = top["seq"] if until is None else min(until, top["seq"])
    more = bool(entries) and entries[-1]["seq"] < last
    return {"version": VERSION, "head": top, "entries": entries,
            "next": entries[-1]["seq"] if more else None}


def table_page(engine: Engine, table_id: str, after: int, limit: int) -> dict[str, Any]:
    """``table_id``'s entries for deals after number ``after``, and its deals dealt
    before the chain existed (:func:`before_chain_of`) after that number as
    ``before_log`` (``{"deal", "commitment"}``): at most ``limit`` of both together,
    in deal order; ``next``: the last deal's number when more follow."""
    with engine.connect() as conn:
        rows = conn.execute(select(commitment_log_t).where(
            commitment_log_t.c.table_id == table_id, commitment_log_t.c.deal > after)
            .order_by(commitment_log_t.c.deal).limit(limit + 1)).all()
        early = before_chain_of(conn, table_id, after + limit + 1)
        top = head(conn)
    items: list[tuple[int, bool, dict[str, Any]]] = [
        (r.deal, True, _entry(r).to_json()) for r in rows]
    items += [(deal, False, {"deal": deal, "commitment": commit})
              for deal, commit in early.items() if deal > after]
    items.sort(key=lambda item: item[0])
    page = items[:limit]
    return {"version": VERSION, "table": table_id, "head": top,
            "entries": [item for _, logged, item in page if logged],
            "before_log": [item for _, logged, item in page if not logged],
            "next": page[-1][0] if len(items) > limit else None}


def _stored_deal(number: int, data: str | None, created_at: float) -> StoredDeal:
    """Deal ``number`` as its stored event (``data``: its JSON) has it."""
    try:
        parsed = json.loads(data) if data else None
    except ValueError:
        parsed = None
    proof = parsed.get("shuffle") if isinstance(parsed, dict) else None
    proof = proof if isinstance(proof, dict) else {}
    commit = proof.get("commitment")
    at = created_at if isinstance(created_at, (int, float)) else math.nan
    # a time that is no number (a damaged file) counts as after the chain began
    return StoredDeal(number, commit if is_hex64(commit) else None, "log" in proof,
                      int(at * 1000) if math.isfinite(at) else sys.maxsize)


def before_chain_of(conn: Connection, table_id: str, upto: int | None = None
                    ) -> dict[int, str]:
    """``table_id``'s deals dealt before the chain existed, with the commitment each
    one's stored deal event carries (deal number -> commitment), among its first
    ``upto`` deals (None: all): the rule is ``core/commitlog.py:before_chain``, on
    the table's deal events (only those before its first logged deal are read), its
    first entry in the chain and the chain's first entry."""
    first = [_entry(r) for r in conn.execute(
        select(commitment_log_t).where(commitment_log_t.c.table_id == table_id)
        .order_by(commitment_log_t.c.deal).limit(1))]
    start = conn.execute(select(commitment_log_t.c.at).order_by(commitment_log_t.c.seq)
                         .limit(1)).scalar()
    start = None if start is None else _int(start)
    if first:
        upto = min(first[0].deal - 1, upto) if upto is not None else first[0].deal - 1
    query = select(events_t.c.data, events_t.c.created_at).where(
        events_t.c.table_id == table_id, events_t.c.kind == "deal").order_by(events_t.c.seq)
    if upto is not None:
        if upto <= 0:
            return {}
        query = query.limit(upto)
    stored = (_stored_deal(n, r.data, r.created_at)
              for n, r in enumerate(conn.execute(query), start=1))
    return before_chain(stored, first, start)


def read_chain(engine: Engine, page: int = MAX_PAGE) -> list[Entry]:
    """The whole chain, in order (``polignac verify --log DB``)."""
    return read_chain_and_head(engine, page)[0]


def read_chain_and_head(engine: Engine, page: int = MAX_PAGE
                        ) -> tuple[list[Entry], dict[str, Any]]:
    """The whole chain, in order, and the head row (:func:`head`) read with it."""
    out: list[Entry] = []
    with engine.connect() as conn:
        top = head(conn)
        while True:
            after = out[-1].seq if out else 0
            rows = conn.execute(select(commitment_log_t)
                                .where(commitment_log_t.c.seq > after)
                                .order_by(commitment_log_t.c.seq).limit(page)).all()
            out += [_entry(r) for r in rows if r.seq <= top["seq"]]
            if len(rows) < page:
                return out, top


def record_refusal(table_id: str, deal: int, seat: int, rule: str, message: str,
                   at: int) -> Callable[[Connection], None]:
    """The write that stores one refused cut."""
    def op(conn: Connection) -> None:
        conn.execute(insert(cut_refusals_t).values(
            table_id=table_id, deal=deal, seat=seat, rule=rule, message=message[:200],
            at=at))
    return op


def refusals_of(engine: Engine, table_id: str) -> dict[int, list[dict[str, Any]]]:
    """``table_id``'s refused cuts by deal number, in the order they came (the first
    :data:`~polignac.core.shuffle.MAX_REFUSED` of each deal: what a record may list)."""
    out: dict[int, list[dict[str, Any]]] = {}
    with engine.connect() as conn:
        for r in conn.execute(select(cut_refusals_t).where(cut_refusals_t.c.table_id == table_id)
                              .order_by(cut_refusals_t.c.id)):
            if len(out.get(r.deal, ())) >= MAX_REFUSED:
                continue
            out.setdefault(r.deal, []).append(
                {"seat": r.seat, "rule": r.rule, "message": r.message, "at": r.at})
    return out

__all__ = ["GENESIS", "append", "append_op", "before_chain_of", "chain_page", "commitment_head_t",
           "commitment_log_t", "cut_refusals_t", "read_chain", "read_chain_and_head",
           "record_refusal",
           "refusals_of", "table_page"]
