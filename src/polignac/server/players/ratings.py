"""Ratings: openskill's Plackett-Luce model over each rated match's final ranking, one
pool per game family (docs/server.md, "Ratings").

Live, :func:`apply_rated_match` runs in the transaction that commits the match's
last event (``results.py``): it takes the next number of the one ``rating_clock``
row (an ``UPDATE``, which on PostgreSQL holds that row's lock until the commit, so
rating updates of every process are applied one at a time, in the order of their
numbers), reads the players' ratings, rates, and stores the new ratings and their
history.  Ratings are therefore a pure function of the stored finished matches
taken in ``rating_seq`` order: :func:`rebuild` computes them again from
``match_results`` and ``match_seats`` alone, and must equal the live table exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import (
    Connection,
    Engine,
    delete,
    insert,
    select,
    update,
)

from ...core import get_rules
from ..store.db import writing
from ..store.schema import clock_t, history_t, match_results_t, match_seats_t, ratings_t

MODEL = PlackettLuce()
"""openskill's Plackett-Luce model with its defaults (mu 25, sigma 25/3, beta 25/6,
tau 25/300)."""
BOT_SIGMA = 1.0
BOT_RATINGS: dict[str, float] = {
    "random": -73.15, "easy": -13.96, "medium": 25.0, "hard": 42.55, "expert": 42.55,
}
"""Each bot level's fixed ``mu`` (``sigma`` :data:`BOT_SIGMA`), fitted by
``benchmarks/fit_bot_ratings.py`` from the duplicate tournaments in
``benchmarks/results`` (``polignac-easy.json``, ``polignac-medium.json``,
``polignac-hard-16.json``: the per-deal paired differences, turned into the chance
of finishing above the other level in a match of 11.4 deals, then into a gap of
``mu``); ``medium`` is anchored at 25, where accounts start; ``expert`` was not
measured stronger than ``hard`` and shares its number.  The same numbers serve every
family's pool (only Polignac was measured this way)."""
SCALE = 60.0
"""Ratings are shown as ``mu * 60`` and deviations as ``sigma * 60`` (25 -> 1500)."""
PROVISIONAL_SIGMA = 3.0
"""A rating whose ``sigma`` is above this is shown "provisional"."""


@dataclass(frozen=True)
class Rating:
    """A rating: ``mu`` and ``sigma``, and the matches it counts."""

    mu: float
    sigma: float
    matches: int = 0

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: the leaderboards' order (a safe estimate)."""
        return self.mu - 3 * self.sigma

    def shown(self) -> dict[str, Any]:
        """JSON for pages: ``rating`` and ``deviation`` on the shown scale, ``provisional``."""
        return {"rating": round(self.mu * SCALE), "deviation": round(self.sigma * SCALE),
                "provisional": self.sigma > PROVISIONAL_SIGMA, "matches": self.matches,
                "mu": self.mu, "sigma": self.sigma}


START = Rating(MODEL.mu, MODEL.sigma)


def bot_rating(level: str | None) -> Rating:
    """The fixed rating of a bot level (an unknown level: ``medium``'s)."""
    return Rating(BOT_RATINGS.get(level or "medium", BOT_RATINGS["medium"]), BOT_SIGMA)


def rate(entrants: Sequence[tuple[Rating, int]], sides: Sequence[Sequence[int]]
         ) -> list[Rating]:
    """New ratings after one match: ``entrants`` gives each seat's rating and place (1 is
    best; equal places are ties); ``sides`` groups seats into teams (Pollack's two
    sides), else every seat is its own team.  Each seat's new rating (its matches
    counted once more); a pure function."""
    teams = [list(t) for t in sides] if sides else [[s] for s in range(len(entrants))]
    model_teams = [[MODEL.rating(mu=entrants[s][0].mu, sigma=entrants[s][0].sigma)
                    for s in team] for team in teams]
    ranks: list[float] = [float(min(entrants[s][1] for s in team)) for team in teams]
    rated = MODEL.rate(model_teams, ranks=ranks)
    out: list[Rating | None] = [None] * len(entrants)
    for team, new in zip(teams, rated, strict=True):
        for seat, r in zip(team, new, strict=True):
            out[seat] = Rating(float(r.mu), float(r.sigma), entrants[seat][0].matches + 1)
    return [r for r in out if r is not None]


def _entrants(seats: Iterable[dict[str, Any]], current: dict[int, Rating]
              ) -> list[tuple[Rating, int]]:
    """Each seat's rating before the match: an account's (or the start), a bot level's
    fixed one, a guest's the start (guests are not stored)."""
    out = []
    for s in sorted(seats, key=lambda s: s["seat"]):
        if s["kind"] == "bot":
            r = bot_rating(s["bot_level"])
        elif s["rated_as"] is not None:
            r = current.get(int(s["rated_as"]), START)
        else:
            r = START
        out.append((r, int(s["place"])))
    return out


def apply_rated_match(conn: Connection, table_id: str, pool: str,
                      seats: list[dict[str, Any]], sides: Sequence[Sequence[int]],
                      now: float, changes: dict[int, dict[str, Any]] | None = None) -> int:
    """Rate one finished match in ``conn``'s transaction (see the module): the next
    ``rating_seq``, stored on the match's result, and every account's new rating and
    history point; return that number.  ``changes`` (when given) receives each rated
    seat's rating before and after (``Rating.shown``)."""
    conn.execute(update(clock_t).where(clock_t.c.id == 1).values(seq=clock_t.c.seq + 1))
    seq = int(conn.execute(select(clock_t.c.seq).where(clock_t.c.id == 1)).scalar_one())
    conn.execute(update(match_results_t).where(match_results_t.c.table_id == table_id)
                 .values(rating_seq=seq))
    accounts = sorted({int(s["rated_as"]) for s in seats if s["rated_as"] is not None})
    current: dict[int, Rating] = {}
    if accounts:
        for r in conn.execute(select(ratings_t).where(ratings_t.c.pool == pool,
                                                      ratings_t.c.account_id.in_(accounts))):
            current[int(r.account_id)] = Rating(r.mu, r.sigma, r.matches)
    ordered = sorted(seats, key=lambda s: s["seat"])
    new = rate(_entrants(ordered, current), sides)
    done: set[int] = set()
    for s, fresh in zip(ordered, new, strict=True):
        account = s["rated_as"]
        if account is None or account in done:  # one account in two seats: rated once
            continue
        done.add(account)
        if changes is not None:
            changes[int(s["seat"])] = {"before": current.get(account, START).shown(),
                                       "after": fresh.shown()}
        values = {"mu": fresh.mu, "sigma": fresh.sigma, "matches": fresh.matches,
                  "ordinal": fresh.ordinal}
        if account in current:
            conn.execute(update(ratings_t).where(ratings_t.c.account_id == account,
                                                 ratings_t.c.pool == pool).values(**values))
        else:
            conn.execute(insert(ratings_t).values(account_id=account, pool=pool, **values))
        conn.execute(insert(history_t).values(account_id=account, pool=pool, seq=seq,
                                              table_id=table_id, mu=fresh.mu,
                                              sigma=fresh.sigma,
                                              at=now))
    return seq


def changes_of(engine: Engine, table_id: str) -> dict[int, dict[str, Any]]:
    """Each rated seat's rating before and after the match of ``table_id``, as its end
    said (:func:`apply_rated_match`'s ``changes``), from the stored history: for a
    table loaded again (a restart, or a finished table that left memory); {} for a
    match not rated.  Blocking."""
    out: dict[int, dict[str, Any]] = {}
    with engine.connect() as conn:
        seats = conn.execute(select(match_seats_t.c.seat, match_seats_t.c.rated_as).where(
            match_seats_t.c.table_id == table_id, match_seats_t.c.rated_as.is_not(None))
            .order_by(match_seats_t.c.seat)).all()
        done: set[int] = set()
        for seat, account in seats:
            point = conn.execute(select(history_t).where(
                history_t.c.account_id == account, history_t.c.table_id == table_id)).first()
            if point is None or account in done:  # one account in two seats: rated once
                continue
            done.add(account)
            earlier = conn.execute(select(history_t).where(
                history_t.c.account_id == account, history_t.c.pool == point.pool,
                history_t.c.seq < point.seq).order_by(history_t.c.seq)).all()
            before = (Rating(earlier[-1].mu, earlier[-1].sigma, len(earlier)) if earlier
                      else START)
            out[int(seat)] = {"before": before.shown(),
                              "after": Rating(point.mu, point.sigma, len(earlier) + 1).shown()}
    return out


def compute_all(conn: Connection) -> dict[tuple[int, str], Rating]:
    """Every account's rating in every pool, computed again from the stored finished
    rated matches in ``rating_seq`` order (the pure function behind the live table)."""
    seats_of: dict[str, list[dict[str, Any]]] = {}
    rated = select(match_results_t.c.table_id).where(
        match_results_t.c.rating_seq.is_not(None)).scalar_subquery()
    for r in conn.execute(select(match_seats_t).where(match_seats_t.c.table_id.in_(rated))):
        seats_of.setdefault(r.table_id, []).append(dict(r._mapping))
    out: dict[tuple[int, str], Rating] = {}
    for m in conn.execute(select(match_results_t).where(
            match_results_t.c.rating_seq.is_not(None)).order_by(match_results_t.c.rating_seq)):
        seats = sorted(seats_of.get(m.table_id, []), key=lambda s: s["seat"])
        current = {int(s["rated_as"]): out[(int(s["rated_as"]), m.pool)]
                   for s in seats if s["rated_as"] is not None
                   and (int(s["rated_as"]), m.pool) in out}
        sides = get_rules(m.preset, {}).sides
        new = rate(_entrants(seats, current), sides)
        done: set[int] = set()
        for s, fresh in zip(seats, new, strict=True):
            if s["rated_as"] is not None and s["rated_as"] not in done:
                done.add(s["rated_as"])
                out[(int(s["rated_as"]), m.pool)] = fresh
    return out


def stored(conn: Connection) -> dict[tuple[int, str], Rating]:
    """The live ratings table."""
    return {(int(r.account_id), r.pool): Rating(r.mu, r.sigma, r.matches)
            for r in conn.execute(select(ratings_t))}


def differences(live: dict[tuple[int, str], Rating], rebuilt: dict[tuple[int, str], Rating]
                ) -> list[str]:
    """Where two sets of ratings differ (exactly: same floats, same counts), in words."""
    out = []
    for key in sorted(set(live) | set(rebuilt)):
        a, b = live.get(key), rebuilt.get(key)
        if a != b:
            out.append(f"account {key[0]} pool {key[1]}: live {a}, rebuilt {b}")
    return out


def rebuild(engine: Engine, write: bool = True) -> tuple[int, list[str]]:
    """Compute every rating again from the finished records; compare with the live
    table and (``write``) replace it.  Returns the number of ratings and the
    differences found (empty: the live ratings were exact).  The comparison and the
    replacement are one transaction.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database cannot be read or written.
    """
    with writing(engine) as conn:
        if conn.dialect.name == "postgresql":  # no rating update meanwhile
            conn.execute(update(clock_t).where(clock_t.c.id == 1).values(seq=clock_t.c.seq))
        rebuilt = compute_all(conn)
        diff = differences(stored(conn), rebuilt)
        if write and diff:
            conn.execute(delete(ratings_t))
            if rebuilt:
                conn.execute(insert(ratings_t), [
                    {"account_id": a, "pool": p, "mu": r.mu, "sigma": r.sigma,
                     "matches": r.matches, "ordinal": r.ordinal}
                    for (a, p), r in rebuilt.items()])
    return len(rebuilt), diff
