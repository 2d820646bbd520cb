"""Find players (issue 20, "People to play with"): requests to play, kept in the
database so that every server process sees them, and the matchmaker that seats
them together at a new table.

A **request** (a *seek*, table ``seeks``, migration ``0009``) names a game
(a preset), a player count, rated or casual, the match length (the preset's, or
one deal) and whether bots may fill the empty seats after a wait (never, 30 s, 1
min, 2 min).  One request per person (the account when signed in, else the
browser identity): a second replaces the first.  A request lives at most
``ServerConfig.seek_lifetime`` seconds, and ``seek_stale`` seconds without its
page asking how it goes (the lobby asks every 2 s).  A request whose page never
asked is never matched, and a group is seated only if each member asked during its
countdown (:func:`there`); the caps on live requests are ``limits.py``.  Every time
is the server's clock's (``hub.clock.time()``).

Its states: ``waiting`` -> ``countdown`` (a group is formed: ``group_id``,
``starts_at``) -> ``creating`` (a process claimed the group: ``claimant``, its
process id; ``starts_at``, when the claim lapses, a lease's length later;
``table_id`` and ``seat``, chosen with the claim) -> ``seated`` (the page's next
poll gets the seat cookie, and the row is deleted).  Leaving during the countdown
(cancel, or the page stops asking) puts the others of the group back to
``waiting``.

**A claimant that dies.**  The table is stored with every person already seated,
in one write (``Hub.create``'s ``claimed``), under the id chosen with the claim.
A claim that lapsed and whose process is gone (not heard on the bus for a lease:
``peers.py``; with one process, any other id) is taken over by a live process
(:func:`take_over`, a compare-and-set on the claimant): if the table is stored,
the group is seated there; else the new claimant stores it, under the same id (a
slow old claimant that stores it too fails on the table's primary key).  So a
group is seated within about a lease (``--lease-seconds``) of its claimant's
death, each person once, at one table.

**Never seated twice.**  Every change of state is a compare-and-set
(``UPDATE ... WHERE state = <the state read>``, its row count checked, else the
transaction is rolled back), inside a transaction; on PostgreSQL the matchmaker
first locks the waiting rows it plans with ``SELECT ... FOR UPDATE SKIP LOCKED``
(a second process skips them), SQLite has one writer.  Every process runs the
matchmaker (``matchmaker.py:Matchmaker``, once a second); whichever wins the
compare-and-set does the step.  The table is created by the hub's own path
(``hub.py:Hub.create``, with everyone seated in the same write): the rules and
seats are checked there, once.

**Online.**  Table ``online`` holds each browser identity seen in the last
seconds: a lobby's poll, and every ``seek_tick`` each process writes the
identities of the people connected to its tables (each again once a third of
``online_window`` has passed: ``Matchmaker.written``).  The count is the distinct
accounts (an identity linked to an account counts as that account) and guest
identities seen in the last ``online_window`` seconds: one person's several tabs
share the browser identity and count once.

The pure parts (:func:`plan`, :func:`seat_positions`, :func:`seek_overrides`)
are unit-tested without a database.
"""

from __future__ import annotations

import contextlib
import random
import secrets
from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Connection,
    and_,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)

from ...core import PRESETS, PolignacError, get_rules
from ..base.errors import ApiError
from ..base.inputs import ascii_int
from ..players.blocks import pairs_among
from ..store.schema import online_t, seeks_t, tables_t

BOT_WAITS_MAX = 3600
"""Seconds of the longest wait a server may offer before bots fill the empty seats."""
BOT_WAITS_MOST = 6
"""Waits a server may offer at most (besides never)."""
COUNTDOWN_MAX = 120.0
"""Seconds of the longest countdown a server may give a group."""


def bot_waits(offered: tuple[int, ...]) -> tuple[int | None, ...]:
    """The choices of "bots may fill the empty seats after": never (None), then the
    server's ``seek_bot_waits`` (30 s, 1 min, 2 min by default)."""
    return (None, *offered)


def check_bot_waits(text: str) -> tuple[int, ...]:
    """The waits of ``--seek-bot-waits`` (``"30,60,120"``): whole seconds from 1 to
    :data:`BOT_WAITS_MAX`, at most :data:`BOT_WAITS_MOST`, each once; sorted.

    Raises:
        ValueError: anything else (the message says what and where).
    """
    parts = [p.strip() for p in text.split(",")]
    if not text.strip() or len(parts) > BOT_WAITS_MOST:
        raise ValueError(f"give 1 to {BOT_WAITS_MOST} waits in seconds, comma-separated "
                         "(e.g. 30,60,120)")
    waits = []
    for i, part in enumerate(parts, 1):
        wait = ascii_int(part, 1, BOT_WAITS_MAX)
        if wait is None:
            raise ValueError(f"wait {i} ({part[:12]!r}): give whole seconds from 1 to "
                             f"{BOT_WAITS_MAX}")
        waits.append(wait)
    if len(set(waits)) != len(waits):
        raise ValueError(f"a wait is given twice in {text[:60]!r}")
    return tuple(sorted(waits))
DEALS: tuple[int | None, ...] = (None, 1)
"""The match lengths offered: the preset's own match end, or one deal."""
WAITING, COUNTDOWN, CREATING, SEATED = "waiting", "countdown", "creating", "seated"
OPEN_STATES = (WAITING, COUNTDOWN)
"""States a person may still leave (cancel, or a second request)."""
CREATING_STUCK = 60.0
"""Seconds after its claim lapsed after which a group still ``creating`` is taken over
even from a process that still says it is alive (stuck)."""



Key = tuple[str, int, bool, "int | None", "str | None"]
"""What must be equal for requests to be seated together: preset, players, rated, deals,
time control."""


# ------------------------------------------------------------------ the pure parts


@dataclass(frozen=True)
class Seek:
    """A waiting request as the matchmaker plans with it."""

    id: str
    key: Key
    created_at: float
    bots_after: int | None
    level: str
    account: int | None = None
    """The person's account id (None: a guest): blocks keep accounts apart."""


@dataclass(frozen=True)
class Group:
    """Requests to seat together: their ids (oldest first), how many bots fill the
    other seats, and the bots' level (the oldest request's)."""

    key: Key
    ids: tuple[str, ...]
    bots: int
    level: str


def plan(waiting: Iterable[Seek], now: float,
         apart: Collection[frozenset[int]] = frozenset()) -> list[Group]:
    """The groups to form among ``waiting`` requests at time ``now``.

    For each key (oldest first): every ``players`` requests make a table of people.
    Of those left (fewer than ``players``), the ones that allow bots make one table
    with bots in the other seats at once when they are two or more (everyone the
    group needs is there: issue 31), else once the one has waited its own
    ``bots_after``; a request that allows no bots is never seated with a bot.
    ``waiting`` holds only requests whose page asks (:func:`form_groups`).  Two
    accounts of a pair in ``apart`` (one blocked the other) are never in one group:
    a group takes, oldest first, each request that is apart from none taken yet.
    """
    queues: dict[Key, list[Seek]] = defaultdict(list)
    for seek in sorted(waiting, key=lambda s: (s.created_at, s.id)):
        queues[seek.key].append(seek)
    groups: list[Group] = []
    for key, queue in queues.items():
        n = key[1]
        left: list[Seek] = []
        while len(queue) >= n:
            taken = _together(queue, n, apart)
            if len(taken) < n:  # the oldest makes no table of people now
                left.append(queue[0])
                queue = queue[1:]
                continue
            groups.append(Group(key, tuple(s.id for s in taken), 0, taken[0].level))
            queue = [s for s in queue if s not in taken]
        queue = sorted(left + queue, key=lambda s: (s.created_at, s.id))
        willing = _together([s for s in queue if s.bots_after is not None], n, apart)
        if len(willing) >= 2 or any(s.bots_after is not None
                                    and s.created_at + s.bots_after <= now for s in willing):
            groups.append(Group(key, tuple(s.id for s in willing), n - len(willing),
                                willing[0].level))
    return groups


def _together(queue: list[Seek], n: int, apart: Collection[frozenset[int]]) -> list[Seek]:
    """Up to ``n`` of ``queue``, oldest first, no two of them apart; always the first."""
    taken: list[Seek] = []
    for seek in queue:
        if len(taken) == n:
            break
        if seek.account is None or not any(
                s.account is not None and frozenset((s.account, seek.account)) in apart
                for s in taken):
            taken.append(seek)
    return taken


def seat_positions(players: int, people: int, rng: random.Random) -> list[int]:
    """The seats of ``people`` persons at a table of ``players`` (drawn at random, so
    that the oldest request does not always deal first)."""
    return rng.sample(range(players), people)


def seek_overrides(preset: str, deals: int | None) -> dict[str, Any]:
    """The house rules of a request's table: none, or a match of ``deals`` deals.

    Raises:
        ApiError: no such preset (400 ``bad-preset``), or that length does not fit
            the game (400 ``bad-deals``: Bassadewitz and Pollack count chips and
            parties, not deals).
    """
    if preset not in PRESETS:
        raise ApiError(f"preset: no game named {preset[:64]!r}; choose one of "
                       f"{', '.join(PRESETS)}", "bad-preset")
    if deals is None:
        return {}
    overrides = {"match_end": "fixed-deals", "deals": deals}
    try:
        get_rules(preset, overrides)
    except PolignacError:
        raise ApiError(f"deals: {preset} cannot be played as a match of {deals} deal(s)",
                       "bad-deals") from None
    return overrides


def short_presets() -> list[str]:
    """The presets that may be asked for as a one-deal match."""
    out = []
    for name in PRESETS:
        with contextlib.suppress(ApiError):
            seek_overrides(name, 1)
            out.append(name)
    return out


# ------------------------------------------------------------------ storage (blocking)


def key_of(row: Any) -> Key:
    """What a request asks for: requests with the same key are seated together."""
    return (row.preset, row.players, bool(row.rated), row.deals, row.time_control)


def dissolve(conn: Connection, group_id: str | None) -> None:
    """Put the rest of a countdown's group back to waiting (their places kept)."""
    if group_id is None:
        return
    conn.execute(update(seeks_t).where(seeks_t.c.group_id == group_id,
                                       seeks_t.c.state == COUNTDOWN)
                 .values(state=WAITING, group_id=None, starts_at=None))


def expire(conn: Connection, now: float, stale: float, lifetime: float,
           online_keep: float) -> int:
    """Delete requests too old or whose page stopped asking (their groups dissolved),
    seated rows never fetched, ``online`` rows older than ``online_keep``.  Returns
    how many requests were dropped."""
    gone = conn.execute(select(seeks_t.c.id, seeks_t.c.group_id).where(
        seeks_t.c.state.in_(OPEN_STATES),
        or_(seeks_t.c.seen_at < now - stale, seeks_t.c.created_at < now - lifetime))).all()
    for row in gone:
        conn.execute(delete(seeks_t).where(seeks_t.c.id == row.id,
                                           seeks_t.c.state.in_(OPEN_STATES)))
        dissolve(conn, row.group_id)
    conn.execute(delete(seeks_t).where(seeks_t.c.state == SEATED,
                                       seeks_t.c.seen_at < now - min(stale, lifetime)))
    conn.execute(delete(online_t).where(online_t.c.seen_at < now - online_keep))
    return len(gone)


def form_groups(conn: Connection, now: float, countdown: float, stale: float) -> list[Group]:
    """Plan the waiting requests whose page asked within ``stale`` seconds (one never
    asked about is never matched: nobody holds it) and start each group's countdown
    (compare-and-set); the waiting rows are locked first on PostgreSQL (``FOR UPDATE
    SKIP LOCKED``).

    Raises:
        RaceLost: another process changed a planned row (roll back; try again).
    """
    query = select(seeks_t).where(seeks_t.c.state == WAITING,
                                  seeks_t.c.polled_at >= now - stale)
    if conn.dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    rows = conn.execute(query).all()
    accounts = {r.id: int(r.person[2:]) for r in rows if str(r.person).startswith("a:")}
    groups = plan((Seek(r.id, key_of(r), r.created_at, r.bots_after, r.level,
                        accounts.get(r.id)) for r in rows),
                  now, pairs_among(conn, accounts.values()))
    for group in groups:
        group_id = secrets.token_urlsafe(12)
        done = conn.execute(update(seeks_t).where(seeks_t.c.id.in_(group.ids),
                                                  seeks_t.c.state == WAITING)
                            .values(state=COUNTDOWN, group_id=group_id,
                                    starts_at=now + countdown)).rowcount
        if done != len(group.ids):
            raise RaceLost(f"{len(group.ids) - done} request(s) changed meanwhile")
    return groups


class RaceLost(Exception):
    """Another process changed a row this transaction had planned with."""


def due_groups(conn: Connection, now: float) -> list[str]:
    """The groups whose countdown is over."""
    return list(conn.execute(select(seeks_t.c.group_id).distinct().where(
        seeks_t.c.state == COUNTDOWN, seeks_t.c.starts_at <= now)).scalars())


def _group_rows(conn: Connection, group_id: str, state: str) -> list[Any]:
    return list(conn.execute(select(seeks_t).where(seeks_t.c.group_id == group_id,
                                                   seeks_t.c.state == state)
                             .order_by(seeks_t.c.created_at, seeks_t.c.id)).all())


def there(polled_at: float | None, formed: float, countdown: float) -> bool:
    """Whether a group's member is there: its page asked after the group formed at
    ``formed`` (a poll written by the round that formed it came before; with no
    countdown, that round's is the last one there is)."""
    if polled_at is None:
        return False
    return polled_at > formed if countdown > 0 else polled_at >= formed


def take_group(conn: Connection, group_id: str, now: float, countdown: float,
               claimant: str, lease: float, rng: random.Random) -> list[Any]:
    """Claim a due group for process ``claimant`` until ``now + lease`` (``countdown``
    -> ``creating``), choosing its table's id and each person's seat: its rows,
    oldest first; none when another process took it, or when a member is not there
    (:func:`there`: its page did not ask since the group formed, ``countdown`` seconds
    before its start; that member is dropped, the others wait again, no table made).

    Raises:
        RaceLost: another process changed the group meanwhile (roll back).
    """
    rows = _group_rows(conn, group_id, COUNTDOWN)
    if not rows:
        return []
    dead = [r.id for r in rows if not there(r.polled_at, r.starts_at - countdown, countdown)]
    if dead:
        conn.execute(delete(seeks_t).where(seeks_t.c.id.in_(dead)))
        dissolve(conn, group_id)
        return []
    table_id = secrets.token_urlsafe(9)
    positions = seat_positions(rows[0].players, len(rows), rng)
    for i, (row, pos) in enumerate(zip(rows, positions, strict=True)):
        done = conn.execute(update(seeks_t).where(
            seeks_t.c.id == row.id, seeks_t.c.group_id == group_id,
            seeks_t.c.state == COUNTDOWN).values(
                state=CREATING, starts_at=now + lease, claimant=claimant,
                table_id=table_id, seat=pos)).rowcount
        if done == 0 and i == 0:  # another process took it first (nothing changed)
            return []
        if done == 0:
            raise RaceLost("the group changed meanwhile")
    return _group_rows(conn, group_id, CREATING)


def lapsed_claims(conn: Connection, now: float) -> list[tuple[str, str | None, float]]:
    """The ``creating`` groups whose claim lapsed: (group id, claimant, when it
    lapsed), each once."""
    rows = conn.execute(select(seeks_t.c.group_id, seeks_t.c.claimant,
                               func.min(seeks_t.c.starts_at).label("lapsed"))
                        .where(seeks_t.c.state == CREATING, seeks_t.c.starts_at < now,
                               seeks_t.c.group_id.is_not(None))
                        .group_by(seeks_t.c.group_id, seeks_t.c.claimant)
                        .order_by(seeks_t.c.group_id)).all()
    return [(r.group_id, r.claimant, float(r.lapsed)) for r in rows]


def take_over(conn: Connection, group_id: str, old: str | None, claimant: str,
              now: float, lease: float) -> tuple[list[Any], int]:
    """Take over the lapsed claim of ``group_id`` from ``old`` (a process gone) for
    ``claimant`` (compare-and-set on the claimant): (the rows to seat, oldest first;
    how many were seated at once).  Nothing to seat when another process took it
    first; the group is seated at once when its table is stored already (its
    claimant stored it, with everyone seated, before it died); a group claimed
    without a table id (before migration 0011) waits again."""
    same = seeks_t.c.claimant.is_(None) if old is None else seeks_t.c.claimant == old
    done = conn.execute(update(seeks_t).where(
        seeks_t.c.group_id == group_id, seeks_t.c.state == CREATING, same,
        seeks_t.c.starts_at < now).values(claimant=claimant, starts_at=now + lease)).rowcount
    if done == 0:
        return [], 0
    rows = _group_rows(conn, group_id, CREATING)
    if any(r.table_id is None or r.seat is None for r in rows):
        back_to_waiting(conn, [r.id for r in rows], claimant)
        return [], 0
    stored = conn.execute(select(tables_t.c.id).where(tables_t.c.id == rows[0].table_id)
                          ).first()
    if stored is not None:
        mark_seated(conn, {r.id: (r.table_id, r.seat) for r in rows})
        return [], len(rows)
    return rows, 0


def release_claim(conn: Connection, ids: list[str], claimant: str, now: float) -> None:
    """``claimant`` gives up its claim on these rows at once (its table may or may not
    be stored: the next round's :func:`take_over` finds out)."""
    conn.execute(update(seeks_t).where(seeks_t.c.id.in_(ids), seeks_t.c.state == CREATING,
                                       seeks_t.c.claimant == claimant)
                 .values(claimant=None, starts_at=now - 1.0))


def seen_now(conn: Connection, ids: Iterable[str], now: float) -> None:
    """These open requests' pages asked how they go: they are alive, and held."""
    ids = sorted(set(ids))
    for i in range(0, len(ids), 500):
        conn.execute(update(seeks_t).where(seeks_t.c.id.in_(ids[i:i + 500]),
                                           seeks_t.c.state.in_(OPEN_STATES))
                     .values(seen_at=now, polled_at=now))


def mark_seated(conn: Connection, seats: dict[str, tuple[str, int]]) -> None:
    """Each request's table and seat (``creating`` -> ``seated``)."""
    for seek_id, (table_id, seat) in seats.items():
        conn.execute(update(seeks_t).where(seeks_t.c.id == seek_id,
                                           seeks_t.c.state == CREATING)
                     .values(state=SEATED, table_id=table_id, seat=seat))


def back_to_waiting(conn: Connection, ids: list[str], claimant: str) -> None:
    """A group whose table ``claimant`` could not create waits again."""
    conn.execute(update(seeks_t).where(seeks_t.c.id.in_(ids), seeks_t.c.state == CREATING,
                                       seeks_t.c.claimant == claimant)
                 .values(state=WAITING, group_id=None, starts_at=None, table_id=None,
                         seat=None, claimant=None))


def mine(conn: Connection, person: str) -> Any:
    """The person's request row, or None."""
    return conn.execute(select(seeks_t).where(seeks_t.c.person == person)).first()


def group_names(conn: Connection, group_id: str) -> list[str]:
    """The names of a group's members, oldest first."""
    return list(conn.execute(select(seeks_t.c.name).where(seeks_t.c.group_id == group_id)
                             .order_by(seeks_t.c.created_at, seeks_t.c.id)).scalars())


def remove(conn: Connection, row: Any) -> bool:
    """Delete ``row`` if it is still open, dissolving its group; False when it is not."""
    gone = conn.execute(delete(seeks_t).where(seeks_t.c.id == row.id,
                                              seeks_t.c.state.in_(OPEN_STATES))).rowcount
    if gone:
        dissolve(conn, row.group_id)
    return bool(gone)


def add(conn: Connection, values: dict[str, Any]) -> None:
    """Store a new request (``values``: every column but the state's)."""
    conn.execute(insert(seeks_t).values(state=WAITING, **values))


def delivered(conn: Connection, seek_id: str) -> None:
    """The seat was handed to its browser: the request is done."""
    conn.execute(delete(seeks_t).where(and_(seeks_t.c.id == seek_id,
                                            seeks_t.c.state == SEATED)))
