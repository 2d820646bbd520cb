"""Analysis of every action: expected values from the seat's own view, and open-hand values.

For an action a seat took with a real choice, :func:`evaluate_view` deals the
cards that seat had not seen to the other players in ways consistent with
everything it had seen (hand sizes, revealed voids, announcements made;
:func:`polignac.bots.inference.sample_hands`, the sampler ``hard`` uses, or,
when there are at most ``samples`` consistent deals, every one of them
exactly), solves each deal exactly for every legal action with
:mod:`polignac.bots.solver`, and averages.  The *expected value* of an
action is that mean; the *cost* (expected loss) of an action is the best
action's expected value minus its own, so it is never negative.  The
*open-hand value* is the solver's value of the action in the true deal (all
cards visible).

Values are the seat's final result of the deal in the solver's unit
(higher is better): minus the penalty points in the Polignac and
Slobberhannes families, the points in Knaves, the chip change in
Bassadewitz, the side's raw card points (last trick included, before the
division by three) in a game scored by sides.  Costs of at least :data:`MISTAKE` (0.5) are
mistakes, of at least :data:`BLUNDER` (1.5) blunders.

The model (``"paranoid"``, the default) has the other players minimise the
seat's result (its partner helps it in partnerships); ``"reply"`` is the
best-reply model ``hard`` uses in the endgame (each player maximises its
own result), much slower on whole deals.  Declarations (capot, general,
générale vs pass) are evaluated with the paranoid model, passing counted as
everyone passing.  Claims and announcements are not searched (the
solver leaves them out) and are marked ``not-analysed``.  A solve that
needs more than ``nodes`` search nodes stops the action's analysis
(``too-deep``; the first tricks of a 17-card Knaves hand, for example).

:func:`analyze_record` analyses every deal of a game record
(:func:`analyze_records` every deal of many, on any backend of
:mod:`polignac.bots.backends`, a Ray cluster included) and
:func:`annotate` writes the annotations into it (the ``analysis`` field of
each deal, ``docs/record-format.md``).  Everything is deterministic for a
given seed: each action's samples are drawn from a generator seeded with
the seed, the deal number and the action number.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.actions import CLAIM, GENERALE, PASS, Action, action_name, parse_action
from ..core.cards import Mask, parse_card
from ..core.deal import DECLARE, PASS_CARDS, Deal
from ..core.errors import RecordError
from ..core.families import families
from ..core.match import Match
from ..core.record import replay
from .backends import Backend, ProcessBackend, SerialBackend
from .base import SeatView
from .hard import position_of
from .inference import announced_needs, sample_hands, voids
from .solver import Solver, default_solver

VERSION = "polignac-analysis/1"
"""The ``version`` of the annotations written into a record."""
MISTAKE = 0.5
"""An action that costs at least this much in expectation is a mistake."""
BLUNDER = 1.5
"""An action that costs at least this much in expectation is a blunder."""
MODELS = ("paranoid", "reply")
UNITS = {kind.name: family.solver_unit(kind.name)
         for family in families() for kind in family.scorings}
"""The unit of the values, per scoring (``Rules.scoring``): its family's ``solver_unit``."""
DEFAULT_SAMPLES = 16
DEFAULT_NODES = 4_000_000


@dataclass(frozen=True)
class Evaluation:
    """Every legal action's expected value for the seat, from its own view.

    ``values`` maps each action evaluated (the legal cards, or pass and the
    contract in the declaration round) to its mean result over ``samples``
    deals (higher is better, in the game's unit); ``costs`` to the best
    value minus its own; ``best`` is an action of highest value (the
    lowest-numbered one on a tie).  ``exact``: the deals were every deal
    consistent with the view (uniformly weighted), not a sample.
    """

    player: int
    values: dict[Action, float]
    costs: dict[Action, float]
    best: Action
    samples: int
    exact: bool


def unit_of(scoring: str) -> str:
    """The unit of the values for a ``Rules.scoring`` family."""
    return UNITS.get(scoring, "points")


def mark(cost: float) -> str | None:
    """``"blunder"``, ``"mistake"`` or None for an action that cost ``cost``."""
    if cost >= BLUNDER - 1e-9:
        return "blunder"
    if cost >= MISTAKE - 1e-9:
        return "mistake"
    return None


def choices(view: SeatView) -> list[Action]:
    """The actions an evaluation compares for ``view`` (its legal cards, or the
    declaration round's pass and contract); fewer than two means no choice (the Hearts
    family's passing is not card play: none)."""
    if view.phase == PASS_CARDS:
        return []
    if view.phase == DECLARE:
        return [a for a in view.legal if a < CLAIM]
    return [a for a in view.legal if a < 52]


def _solve(solver: Solver, view: SeatView, hands: Sequence[Mask], actions: Sequence[Action],
           model: str, nodes: int) -> dict[Action, int] | None:
    """Each of ``actions``' exact value for the viewer in the deal with ``hands``
    (None: over the node budget)."""
    if view.phase == DECLARE:
        eldest = (view.dealer + 1) % view.num_players
        out: dict[Action, int] = {}
        for a in actions:
            if a == PASS:
                pos = position_of(view, hands, -1, eldest)
            else:
                lead = view.player if a == GENERALE else eldest
                pos = position_of(view, hands, view.player, lead)
            v = solver.value_within(pos, nodes, view.player)
            if v is None:
                return None
            out[a] = v
        return out
    pos = position_of(view, hands)
    values = (solver.best_reply_within(pos, nodes) if model == "reply"
              else solver.solve_within(pos, nodes))
    if values is None:
        return None
    return {a: values[a] for a in actions}


def consistent_hands(view: SeatView, limit: int) -> list[tuple[Mask, ...]] | None:
    """Every deal of the unseen cards consistent with ``view`` (hand sizes,
    revealed voids, announcements made), or None when there may be more
    than ``limit`` of them (counted without the voids)."""
    n = view.num_players
    me = view.player
    others = [p for p in range(n) if p != me]
    sizes = [view.hand_sizes[p] for p in others]
    unseen = [c for c in range(52) if view.unseen >> c & 1]
    if sum(sizes) != len(unseen):
        return None
    bound = math.factorial(len(unseen))
    for s in sizes:
        bound //= math.factorial(s)
    if bound > limit:
        return None
    void = voids(view)
    needs = announced_needs(view)
    out: list[tuple[Mask, ...]] = []

    def place(i: int, hands: list[Mask], room: list[int]) -> None:
        if i == len(unseen):
            if all((hands[p] & cards).bit_count() >= k for p, cards, k in needs):
                full = list(hands)
                full[me] = view.hand
                out.append(tuple(full))
            return
        c = unseen[i]
        for p in others:
            if room[p] > 0 and not void[p] >> (c // 13) & 1:
                hands[p] |= 1 << c
                room[p] -= 1
                place(i + 1, hands, room)
                room[p] += 1
                hands[p] &= ~(1 << c)

    place(0, [0] * n, list(view.hand_sizes))
    return out


def _deals(view: SeatView, rng: random.Random, samples: int) -> tuple[list[tuple[Mask, ...]], bool]:
    """The deals to solve: every consistent deal when there are at most
    ``samples``, else ``samples`` drawn by ``sample_hands``; and whether exact."""
    every = consistent_hands(view, samples)
    if every:
        return every, True
    return [sample_hands(view, rng) for _ in range(samples)], False


def evaluate_view(view: SeatView, *, samples: int = DEFAULT_SAMPLES,
                  rng: random.Random | None = None, seed: int = 0,
                  model: str = "paranoid", nodes: int = DEFAULT_NODES,
                  solver: Solver | None = None) -> Evaluation | None:
    """Each legal action's expected value and cost for the viewer, from its own view.

    This is the evaluation behind a Hint: the seat's sampled deals (or every
    consistent deal), each solved exactly; the best action has cost 0.
    ``rng`` (default ``random.Random(seed)``) draws the samples; the scoring
    family's state of the deal is the view's (``SeatView.family_state``).  Returns
    None when a solve needs more than ``nodes`` search nodes.

    Raises:
        ValueError: the viewer has no choice to make (not its turn, or fewer
            than two actions to compare), ``samples`` is below 1 or ``model``
            is unknown.
    """
    if model not in MODELS:
        raise ValueError(f"model must be one of {', '.join(MODELS)}, not {model!r}")
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    actions = choices(view)
    if len(actions) < 2:
        raise ValueError("the viewer has no choice to make (not its turn, or one action)")
    rng = random.Random(seed) if rng is None else rng
    solver = default_solver() if solver is None else solver
    deals, exact = _deals(view, rng, samples)
    totals = dict.fromkeys(actions, 0.0)
    for hands in deals:
        values = _solve(solver, view, hands, actions, model, nodes)
        if values is None:
            return None
        for a in actions:
            totals[a] += values[a]
    means = {a: totals[a] / len(deals) for a in actions}
    top = max(means.values())
    best = next(a for a in actions if means[a] >= top - 1e-9)
    costs = {a: max(0.0, top - means[a]) for a in actions}
    return Evaluation(view.player, means, costs, best, len(deals), exact)


# ------------------------------------------------------------------ records


@dataclass(frozen=True)
class Settings:
    """How to analyse: ``samples`` deals per action, the ``model``, the node
    budget per solve, the ``seed``."""

    samples: int = DEFAULT_SAMPLES
    model: str = "paranoid"
    nodes: int = DEFAULT_NODES
    seed: int = 0


def _r(x: float) -> float:
    return round(x, 3)


def _open_values(solver: Solver, deal: Deal, view: SeatView, actions: Sequence[Action],
                 model: str, nodes: int) -> dict[Action, int] | None:
    return _solve(solver, view, deal.hands, actions, model, nodes)


def analyze_action(deal: Deal, action: Action, settings: Settings, rng: random.Random,
                   seats: Sequence[int] | None = None,
                   solver: Solver | None = None) -> dict[str, Any]:
    """The annotation of ``action`` taken in ``deal`` by the player to act.

    Returns ``{"seat", "action"}`` plus either ``"note"`` (``forced``: one
    choice; ``not-analysed``: a claim or an announcement; ``too-deep``:
    over the node budget) or the values (see ``docs/record-format.md``).

    Raises:
        ValueError: ``deal`` is over.
    """
    if deal.done:
        raise ValueError("the deal is over: no action to analyse")
    p = deal.to_act
    seat = p if seats is None else seats[p]
    out: dict[str, Any] = {"seat": seat, "action": action_name(action)}
    view = SeatView.of(deal, p)
    actions = choices(view)
    if action not in actions:
        out["note"] = "not-analysed"
        return out
    if len(actions) < 2:
        out["note"] = "forced"
        return out
    solver = default_solver() if solver is None else solver
    ev = evaluate_view(view, samples=settings.samples, rng=rng, model=settings.model,
                       nodes=settings.nodes, solver=solver)
    opened = None if ev is None else _open_values(solver, deal, view, actions,
                                                  settings.model, settings.nodes)
    if ev is None or opened is None:
        out["note"] = "too-deep"
        return out
    best = ev.best if ev.costs[action] > 1e-9 else action
    open_top = max(opened.values())
    cost = ev.costs[action]
    out.update({
        "value": _r(ev.values[action]),
        "best": action_name(best),
        "best_value": _r(ev.values[best]),
        "loss": _r(cost),
        "open": opened[action],
        "open_best": open_top,
        "open_loss": open_top - opened[action],
        "samples": ev.samples,
        "exact": ev.exact,
        "values": {action_name(a): _r(ev.values[a]) for a in actions},
        "open_values": {action_name(a): opened[a] for a in actions},
    })
    m = mark(cost)
    if m is not None:
        out["mark"] = m
    return out


def summarize(entries: Sequence[Mapping[str, Any]], seats: Sequence[int]) -> list[dict[str, Any]]:
    """Per seat of ``seats``: decisions analysed, mistakes, blunders, the total
    expected loss and the total open-hand loss of ``entries`` (action annotations)."""
    out = []
    for seat in seats:
        mine = [e for e in entries if e.get("seat") == seat and "loss" in e]
        out.append({
            "seat": seat,
            "decisions": len(mine),
            "mistakes": sum(1 for e in mine if e.get("mark") == "mistake"),
            "blunders": sum(1 for e in mine if e.get("mark") == "blunder"),
            "loss": _r(sum(float(e["loss"]) for e in mine)),
            "open_loss": sum(int(e["open_loss"]) for e in mine),
            "skipped": sum(1 for e in entries
                           if e.get("seat") == seat and e.get("note") in ("too-deep", "time")),
        })
    return out


def _action_seed(seed: int, deal_number: int, index: int) -> random.Random:
    return random.Random(f"polignac-analysis:{seed}:{deal_number}:{index}")


def _deal_states(record: Mapping[str, Any]) -> Iterator[tuple[int, Deal, list[int], list[Action]]]:
    """Each deal of ``record``: its number, first state, seats and actions.

    Raises:
        RecordError: the record does not replay, or is of a family the exact solver
            does not model (``Family.exact_solver``; none today).
    """
    final = replay(record)
    if not final.rules.family.exact_solver:
        raise RecordError(
            f"preset {final.rules.preset!r} cannot be analysed: the analysis solves deals "
            f"exactly, and the solver does not model the {final.rules.family.name!r} family")
    match = Match.new(final.rules, len(final.names), final.first_dealer, list(final.names))
    for number, entry in enumerate(record.get("deals") or [], start=1):
        _dealer, seat_tuple = match.next_deal()
        hands = [[parse_card(c) for c in hand] for hand in entry["hands"]]
        up = entry.get("turn_up")
        match = match.start_deal(hands, None if up is None else parse_card(up))
        deal = match.current
        assert deal is not None
        actions = [parse_action(text) for text in entry.get("actions") or []]
        yield number, deal, list(seat_tuple), actions
        for a in actions:
            match = match.apply(a)


deal_states = _deal_states
"""Each deal of a record: its number, first state, seats and actions (public for
:mod:`polignac.bots.puzzles`; raises as :func:`_deal_states`)."""


def analyze_deal(deal: Deal, actions: Sequence[Action], seats: Sequence[int], number: int,
                 settings: Settings, deadline: float | None = None,
                 solver: Solver | None = None) -> dict[str, Any]:
    """The ``analysis`` annotation of one deal: ``deal`` is its first state,
    ``actions`` every action taken, ``seats`` the match seat of each player.

    Past ``deadline`` (a ``time.monotonic()`` value) the remaining actions
    get the note ``time``.

    Raises:
        IllegalActionError: an action is illegal (the record was not replayed first).
    """
    solver = default_solver() if solver is None else solver
    entries: list[dict[str, Any]] = []
    for i, a in enumerate(actions, start=1):
        if deal.done:
            break
        if deadline is not None and time.monotonic() > deadline:
            entries.append({"seat": seats[deal.to_act], "action": action_name(a),
                            "note": "time"})
        else:
            entries.append(analyze_action(deal, a, settings, _action_seed(settings.seed, number, i),
                                          seats, solver))
        deal = deal.apply(a)
    return {
        "version": VERSION,
        "unit": unit_of(deal.rules.scoring),
        "model": settings.model,
        "samples": settings.samples,
        "seed": settings.seed,
        "nodes": settings.nodes,
        "mistake": MISTAKE,
        "blunder": BLUNDER,
        "actions": entries,
        "players": summarize(entries, seats),
    }


def analyze_record_deal(record: Mapping[str, Any], number: int,
                        settings: Settings | None = None,
                        time_limit: float | None = None) -> dict[str, Any]:
    """The ``analysis`` annotation of deal ``number`` (from 1) of ``record`` only.

    Raises:
        RecordError: the record does not replay.
        ValueError: the record has no deal ``number``.
    """
    settings = Settings() if settings is None else settings
    deadline = None if time_limit is None else time.monotonic() + time_limit
    for n, deal, seats, actions in _deal_states(record):
        if n == number:
            return analyze_deal(deal, actions, seats, n, settings, deadline)
    raise ValueError(f"the record has no deal {number}")


def _check(settings: Settings) -> None:
    if settings.model not in MODELS:
        raise ValueError(f"model must be one of {', '.join(MODELS)}, not {settings.model!r}")
    if settings.samples < 1 or settings.nodes < 1:
        raise ValueError("samples and nodes must be at least 1")


def analyze_record(record: Mapping[str, Any], settings: Settings | None = None,
                   jobs: int = 1, time_limit: float | None = None) -> list[dict[str, Any]]:
    """The ``analysis`` annotation of every deal of ``record``, in order.

    ``jobs`` > 1 analyses deals in that many processes (the result is the
    same).  ``time_limit`` (seconds) bounds the work: the actions not reached
    in time get the note ``time`` (with ``jobs`` > 1, the limit applies to
    each process's deals from when it starts them).

    Raises:
        RecordError: the record is malformed or does not replay.
        ValueError: bad settings.
    """
    settings = Settings() if settings is None else settings
    _check(settings)
    states = list(_deal_states(record))
    if jobs <= 1 or len(states) <= 1:
        deadline = None if time_limit is None else time.monotonic() + time_limit
        return [analyze_deal(deal, actions, seats, n, settings, deadline)
                for n, deal, seats, actions in states]
    return analyze_records([record], settings, ProcessBackend(min(jobs, len(states))),
                           time_limit)[0]


@dataclass(frozen=True)
class _DealTask:
    index: int
    """Which record of the batch."""
    number: int
    """Which deal of it (from 1)."""
    record: Mapping[str, Any]
    settings: Settings
    time_limit: float | None


def _run_deal_task(task: _DealTask) -> tuple[int, int, dict[str, Any]]:
    return task.index, task.number, analyze_record_deal(task.record, task.number,
                                                        task.settings, task.time_limit)


def analyze_records(records: Sequence[Mapping[str, Any]], settings: Settings | None = None,
                    backend: Backend | None = None, time_limit: float | None = None,
                    ) -> list[list[dict[str, Any]]]:
    """The analyses of every deal of every record (as :func:`analyze_record` gives them).

    Each deal is one task of ``backend`` (default serial: worker processes or
    a Ray cluster, :mod:`polignac.bots.backends`); the results are put back
    in record and deal order, so they are the same on every backend.
    ``time_limit`` (seconds) applies to each deal from when it starts.

    Raises:
        RecordError: a record is malformed or does not replay (nothing is analysed).
        ValueError: bad settings.
    """
    settings = Settings() if settings is None else settings
    _check(settings)
    tasks = [_DealTask(i, n, dict(record), settings, time_limit)
             for i, record in enumerate(records) for n, *_rest in _deal_states(record)]
    backend = SerialBackend() if backend is None else backend
    done = sorted(backend.map(_run_deal_task, tasks), key=lambda r: (r[0], r[1]))
    out: list[list[dict[str, Any]]] = [[] for _ in records]
    for index, _number, analysis in done:
        out[index].append(analysis)
    return out


def annotate(record: Mapping[str, Any], analyses: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A copy of ``record`` with ``analyses[i]`` as deal ``i``'s ``analysis`` field.

    Raises:
        RecordError: the counts of deals and analyses differ.
    """
    deals = list(record.get("deals") or [])
    if len(deals) != len(analyses):
        raise RecordError(f"{len(analyses)} analyses for {len(deals)} deals")
    out = dict(record)
    out["deals"] = [{**d, "analysis": dict(a)} for d, a in zip(deals, analyses, strict=True)]
    return out


def match_summary(analyses: Sequence[Mapping[str, Any]], num_seats: int) -> list[dict[str, Any]]:
    """Per seat, the sums of every deal's summary (``players`` of each analysis)."""
    out = []
    for seat in range(num_seats):
        rows = [row for a in analyses for row in a.get("players", []) if row["seat"] == seat]
        out.append({
            "seat": seat,
            "decisions": sum(r["decisions"] for r in rows),
            "mistakes": sum(r["mistakes"] for r in rows),
            "blunders": sum(r["blunders"] for r in rows),
            "loss": _r(sum(r["loss"] for r in rows)),
            "open_loss": sum(r["open_loss"] for r in rows),
            "skipped": sum(r["skipped"] for r in rows),
        })
    return out


__all__ = [
    "BLUNDER", "MISTAKE", "MODELS", "UNITS", "VERSION", "Evaluation", "Settings",
    "analyze_action", "analyze_deal", "analyze_record", "analyze_record_deal", "analyze_records",
    "annotate",
    "choices", "consistent_hands", "deal_states", "evaluate_view", "mark", "match_summary",
    "summarize",
    "unit_of",
]
