"""What a table sends: its public facts, the full state and the numbered events,
each as one seat (or a spectator) may see them.

"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core import Match, Rules, summary
from ...core.visibility import act_event, seen_by
from ...i18n import name_fields
from ..players.results import places
from ..store.db import EventRow, person_fields

if TYPE_CHECKING:
    from .tables import GameTable


def rules_info(rules: Rules) -> dict[str, Any]:
    """The resolved rules as the lobby and the page read them (``GET /api/presets``
    lists each preset's; a table's ``info`` gives its own as ``rules``)."""
    return {"name": rules.preset, "players": list(rules.players),
            "default_players": rules.default_players, "suits": rules.suits,
            "threshold": rules.threshold, "declaration": rules.declaration,
            "direction": rules.direction, "contract_points": rules.contract_points,
            "partnerships": rules.partnerships, "sides": [list(x) for x in rules.sides],
            "params": list(rules.parameter_names())}


def info(table: GameTable) -> dict[str, Any]:
    """Public facts about the table (no secrets)."""
    rules = table.match.rules
    return {
        "id": table.id,
        "preset": table.preset,
        "overrides": table.overrides,
        "suits": rules.suits,
        "rank_order": rules.rank_order,
        "partnerships": rules.partnerships,
        "declaration": rules.declaration,
        "contract_points": rules.contract_points,
        "sides": [list(x) for x in rules.sides],
        "taken_unit": rules.scorer.taken_unit,
        "rules": rules_info(rules),
        "seats": [
            {"seat": s.seat, "name": s.name, **name_fields(s.name, s.seat, s.bot_level),
             **person_fields(s), "kind": s.kind, "level": s.bot_level,
             "open": s.kind == "human" and s.token_hash is None}
            for s in table.seats
        ],
        "status": table.status(),
        "creator": table.creator_seat,
        "private": table.private,
        "hints": table.hints,
        "rated": bool(table.options.get("rated")),
        "time_control": (None if table.seat_clocks.control is None
                         else table.seat_clocks.control.to_json()),
        "paused": table.idle.paused,
        "rematch": None if table.rematch_id is None else f"/tables/{table.rematch_id}",
        "guide": table.guide is not None,
        "guide_id": None if table.guide is None else table.guide.id,
        "trick_pause": table.config.trick_pause,
    }


def ratings_frame(table: GameTable) -> dict[str, Any]:
    """The ``ratings`` frame at a rated match's end: each rated seat's place (the one
    of the ratings: ``players/results.py:places``) and its rating before and after."""
    where = places(table.match, table.seat_clocks.abandoned())
    return {"type": "ratings", "seats": [
        {"seat": seat, "place": where[seat], **change}
        for seat, change in sorted(table.rating_changes.items())]}


def state_frame(table: GameTable, seat: int | None) -> dict[str, Any]:
    """The full state for ``seat`` (None: a spectator)."""
    return {"type": "state", "seq": table.seq, "you": seat, "table": info(table),
            "view": table.match.view(seat), "summary": summary(table.match),
            "presence": table.presence.seats(), "clocks": table.seat_clocks.view(),
            "ratings": ratings_frame(table) if table.rating_changes else None,
            "shuffle": shuffle_info(table)}


def event_frame(table: GameTable, index: int, seat: int | None,
                with_view: bool, view: dict[str, Any] | None = None) -> dict[str, Any]:
    """Event number ``index + 1`` as ``seat`` may see it (with ``with_view``, the
    match's ``view`` for that seat, built here unless given: ``Match.views``)."""
    public = seen_by(table.public[index], seat)
    frame: dict[str, Any] = {"type": "event", "seq": index + 1, "event": public}
    if with_view:
        frame["view"] = table.match.view(seat) if view is None else view
        if public.get("deal_over"):
            frame["summary"] = summary(table.match)
    return frame


def catch_up(table: GameTable, seat: int | None, last_seq: int) -> list[dict[str, Any]]:
    """What a client that saw event ``last_seq`` needs: the missed events or a state,
    then the open cut window's commitment and the recent deals' refused cuts (``cut-
    refused`` frames it may have missed while away)."""
    missed = table.seq - last_seq
    if last_seq <= 0 or missed < 0 or missed > table.config.max_missed_events:
        frames = [state_frame(table, seat)]
    else:
        frames = [event_frame(table, i, seat, with_view=i == table.seq - 1)
                  for i in range(last_seq, table.seq)]
    commitment = table.cuts.open_frame()
    if commitment is not None:
        frames.append(commitment)
    frames += table.cuts.refused_frames()
    return frames


PUBLIC_PROOF = ("version", "commitment", "cuts", "log")
"""The stored shuffle data every seat and spectator sees from the deal's start: all but
the seed (``log``: the deal's entry in the commitment log, ``commitments.py``)."""


def public_event(events: list[EventRow], before: Match, after: Match,
                 ev: EventRow) -> dict[str, Any]:
    """Everything about ``ev`` (the last of ``events``) that is public, plus the hands
    (``core/visibility.py:seen_by`` keeps each seat's own in :func:`event_frame`)."""
    if ev.kind == "deal":
        assert ev.data is not None
        out_deal = {"kind": "deal", "dealer": ev.data["dealer"], "seats": ev.data["seats"],
                    "hands": ev.data["hands"], "turn_up": ev.data.get("turn_up")}
        proof = ev.data.get("shuffle")
        if proof is not None:  # everything but the seed, secret until the deal ends
            out_deal["shuffle"] = {"deal": after.deal_number,
                                   **{k: proof[k] for k in PUBLIC_PROOF if k in proof}}
        return out_deal
    out = act_event(before, after, ev.seat, ev.action)
    if after.current is None:
        proof = deal_proof_before(events, ev.seq - 1)
        if proof is not None:  # the deal is over: its seed is revealed
            out["reveal"] = {"deal": len(after.results), "seed": proof["seed"],
                             "commitment": proof["commitment"]}
    return out


def shuffle_info(table: GameTable) -> dict[str, Any] | None:
    """The current (or last) deal's public verification data; the seed only once
    that deal is over.  None before the first deal or for an unverifiable deal."""
    events = table.events
    index = next((i for i in range(len(events) - 1, -1, -1)
                  if events[i].kind == "deal"), None)
    if index is None:
        return None
    data = events[index].data or {}
    proof = data.get("shuffle")
    if proof is None:
        return None
    out = {k: proof[k] for k in PUBLIC_PROOF if k in proof}
    out["deal"] = sum(1 for ev in events[:index + 1] if ev.kind == "deal")
    if table.match.current is None:
        out["seed"] = proof["seed"]
    return out


def deal_proof_before(events: list[EventRow], index: int) -> dict[str, Any] | None:
    """The stored shuffle data of the last deal event at or before ``index``."""
    for i in range(index, -1, -1):
        ev = events[i]
        if ev.kind == "deal":
            proof: dict[str, Any] | None = (ev.data or {}).get("shuffle")
            return proof
    return None


def shuffles(table: GameTable, refused: dict[int, list[dict[str, Any]]] | None = None
             ) -> list[dict[str, Any] | None]:
    """The records' ``shuffle`` data of the finished deals (with their seeds), each
    with its deal's refused cuts (``refused``: by deal number, ``commitments.py:
    refusals_of``) as ``refused`` when there were any."""
    out: list[dict[str, Any] | None] = []
    for ev in table.events:
        if ev.kind == "deal" and len(out) < len(table.match.results):
            proof = (ev.data or {}).get("shuffle")
            number = len(out) + 1
            if proof is not None and refused and refused.get(number):
                proof = {**proof, "refused": refused[number]}
            out.append(proof)
    return out
