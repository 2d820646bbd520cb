"""The lobby's routes: presets and house rules, new tables (the form, Play now, the
guided deal), the list of public tables, the lobby page.

Routes::

    GET  /                       lobby
    GET  /favicon.ico            the site's icon
    GET  /api/presets            presets, bot levels, house rules for the lobby
    POST /api/play-now           you and three bots, preset polignac
    POST /api/tables             create a table from a JSON description
    GET  /api/tables             every table for the lobby: preset, status, who is seated
    POST /api/learn              the guided first deal (guide.py)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...core import PRESETS
from ...core.rules import BOUNDS, DECLARATIONS
from ...core.timecontrol import TimeControl, TimeControlError
from ...i18n import default_name, name_fields
from ..base.errors import ApiError
from ..lobby.seeks import bot_waits, short_presets
from ..store.db import person_fields
from ..tables.frames import rules_info
from ..tables.guide import GUIDE_IDS, load_guide
from ..tables.hub import hub_of
from .http import (
    STATIC,
    check_create_rate,
    identity,
    json_body,
    set_identity,
    set_seat_cookie,
)
from .person_names import person_name

if TYPE_CHECKING:
    from ..tables.hub import Hub

HOUSE_RULES: dict[str, dict[str, Any]] = {
    "threshold": {"label": "Match ends at (points)", "type": "int",
                  "min": BOUNDS["threshold"][0], "max": BOUNDS["threshold"][1]},
    "direction": {"label": "Direction of play", "type": "choice",
                  "choices": ["clockwise", "counter-clockwise"]},
    "declaration": {"label": "Declarations", "type": "choice", "choices": list(DECLARATIONS)},
    "contract_points": {"label": "Contract penalty (points)", "type": "int",
                        "min": BOUNDS["contract_points"][0], "max": BOUNDS["contract_points"][1]},
}


def _rated(data: dict[str, Any]) -> bool:
    """The ``rated`` choice of a new table (default false: casual; ``ratings.py``).

    Raises:
        ApiError: not true or false (400 ``bad-field``).
    """
    rated = data.get("rated", False)
    if not isinstance(rated, bool):
        raise ApiError("rated must be true or false", "bad-field")
    return rated


def time_control_of(data: dict[str, Any]) -> dict[str, Any] | None:
    """The ``time_control`` of a new table (``core/timecontrol.py``; default none:
    untimed), in its stored form.

    Raises:
        ApiError: not a time control, or out of its bounds (400 ``bad-time-control``).
    """
    try:
        control = TimeControl.parse(data.get("time_control"))
    except TimeControlError as exc:
        raise ApiError(str(exc), exc.rule) from None
    return None if control is None else control.to_json()


async def play_now(request: Request) -> Response:
    """You and three bots of ``level`` (default ``play_now_level``, medium) at a new
    private table of ``polignac`` (or the preset given)."""
    data = await json_body(request)
    preset = data.get("preset", "polignac")
    if not isinstance(preset, str):
        raise ApiError("preset must be text", "bad-field")
    level = data.get("level", hub_of(request).config.play_now_level)
    if not isinstance(level, str) or level not in hub_of(request).config.bot_levels:
        raise ApiError(f"level must be one of {', '.join(hub_of(request).config.bot_levels)}",
                       "bad-level")
    rated = _rated(data)
    holder, fresh = identity(request)
    check_create_rate(request, holder)
    if rated:
        await hub_of(request).check_rated_play(holder)
    rules = PRESETS.get(preset)
    n = rules.default_players if rules else 4
    seats = [{"kind": "you"}] + [{"kind": "bot", "level": level}] * (n - 1)
    hub = hub_of(request)
    name, account = await person_name(request, data.get("name"), default_name("name.you"))
    table, token, _ = await hub.create(preset, n, seats, {}, name, holder,
                                       {"private": True, "hints": not rated, "rated": rated},
                                       account=account)
    response = JSONResponse({"url": f"/tables/{table.id}", "id": table.id})
    set_seat_cookie(response, hub.config, table.id, 0, token)
    set_identity(response, hub.config, fresh)
    return response


async def learn(request: Request) -> Response:
    """The guided first deal (``guide.py``): a private table for one newcomer.

    -> ``{"url", "id", "guide"}`` and the seat cookie; the same origin check and
    creation limits as Play now.
    """
    data = await json_body(request)
    holder, fresh = identity(request)
    check_create_rate(request, holder)
    hub = hub_of(request)
    guide = load_guide(GUIDE_IDS[0])
    name, account = await person_name(request, data.get("name"), default_name("name.you"))
    table, token = await hub.create_guided(guide, name, holder, account)
    response = JSONResponse({"url": f"/tables/{table.id}", "id": table.id, "guide": guide.id})
    set_seat_cookie(response, hub.config, table.id, guide.you, token)
    set_identity(response, hub.config, fresh)
    return response


async def create_table(request: Request) -> Response:
    """Create a table from ``{preset, players, seats: [{kind, level}], overrides, name,
    private, hints}`` (``private``: false by default; ``hints``: by default true when
    every other seat is a bot, false when a seat is open for a person)."""
    data = await json_body(request)
    preset, players = data.get("preset", "polignac"), data.get("players")
    seats, overrides = data.get("seats"), data.get("overrides") or {}
    private = data.get("private", False)
    if not isinstance(preset, str):
        raise ApiError("preset must be text", "bad-field")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        raise ApiError("players must be a number", "bad-field")
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise ApiError("seats must be a list of objects", "bad-field")
    if not isinstance(overrides, dict):
        raise ApiError("overrides must be an object", "bad-field")
    if not isinstance(private, bool):
        raise ApiError("private must be true or false", "bad-field")
    rated = _rated(data)
    time_control = time_control_of(data)
    hints = data.get("hints", not rated and all(s.get("kind") in ("you", "bot") for s in seats))
    if not isinstance(hints, bool) or (rated and hints):
        raise ApiError("hints must be true or false (false at a rated table)", "bad-field")
    holder, fresh = identity(request)
    check_create_rate(request, holder)
    hub = hub_of(request)
    if rated:
        await hub.check_rated_play(holder)
    name, account = await person_name(request, data.get("name"), default_name("name.you"))
    table, token, invites = await hub.create(preset, players, seats, overrides, name, holder,
                                             {"private": private, "hints": hints,
                                              "rated": rated, "time_control": time_control},
                                             account=account)
    you = next(i for i, s in enumerate(seats) if s.get("kind") == "you")
    response = JSONResponse({
        "url": f"/tables/{table.id}", "id": table.id, "private": private, "hints": hints,
        "rated": rated, "time_control": time_control,
        "invites": [{"seat": s, "url": f"/tables/{table.id}/join?seat={s}&token={t}"}
                    for s, t in invites.items()],
    })
    set_seat_cookie(response, hub.config, table.id, you, token)
    set_identity(response, hub.config, fresh)
    return response


async def list_tables(request: Request) -> Response:
    """Every public table in memory, newest first (at most 500): preset, status, who is
    seated.  Private tables (Play now, or created private) and paused ones are not
    listed."""
    hub = hub_of(request)
    entries = listed(hub)
    entries = await hub.cluster.gather(entries)  # every process's tables (cluster.py)
    entries.sort(key=lambda e: e["created_at"], reverse=True)
    return JSONResponse({"tables": entries[:500]})


def listed(hub: Hub) -> list[dict[str, Any]]:
    """This process's public tables as ``GET /api/tables`` lists them (newest 500): a
    paused table (nobody has been at it since their grace ended) is not listed; its
    people find it in their profile's unfinished tables."""
    tables = sorted((t for t in hub.tables.values() if not t.private and not t.paused),
                    key=lambda t: t.created_at, reverse=True)[:500]
    return [
        {"id": t.id, "url": f"/tables/{t.id}", "preset": t.preset, "overrides": t.overrides,
         "players": len(t.seats), "status": t.status(), "deal_number": t.match.deal_number,
         "created_at": t.created_at, "rematch": t.rematch_id, "paused": t.paused,
         "rated": bool(t.options.get("rated")),
         "time_control": (None if t.seat_clocks.control is None
                          else t.seat_clocks.control.to_json()),
         "open_seats": [p["seat"] for p in t.presence.seats() if p["open"]],
         "seats": [{"seat": s.seat, "name": s.name, **name_fields(s.name, s.seat, s.bot_level),
                    **person_fields(s), "kind": s.kind, "level": s.bot_level,
                    "open": p["open"], "connected": p["connected"]}
                   for s, p in zip(t.seats, t.presence.seats(), strict=True)]}
        for t in tables]



async def presets(request: Request) -> Response:
    """What the lobby offers: presets, bot levels, house rules."""
    return JSONResponse({
        "presets": [rules_info(r) for r in PRESETS.values()],
        "levels": [lv for lv in hub_of(request).config.shown_levels
                   if lv in hub_of(request).config.bot_levels],
        "all_levels": list(hub_of(request).config.bot_levels),
        "play_now_level": hub_of(request).config.play_now_level,
        "house_rules": HOUSE_RULES,
        # Find players (seeks.py): the bot waits offered (null: never), the presets that
        # may be asked for as a one-deal match, the countdown before the table
        "seek": {"bots_after": list(bot_waits(hub_of(request).config.seek_bot_waits)),
                 "one_deal": short_presets(),
                 "countdown": hub_of(request).config.seek_countdown},
    })



async def favicon(request: Request) -> Response:
    """The site's icon (an SVG; the pages link it, this answers browsers that ask anyway)."""
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                        headers={"cache-control": "public, max-age=86400"})


async def lobby_page(request: Request) -> Response:
    """The lobby (gives the browser its identity cookie)."""
    response = FileResponse(STATIC / "lobby.html")
    set_identity(response, hub_of(request).config, identity(request)[1])
    return response



def routes() -> list[BaseRoute]:
    """The lobby's routes."""
    return [
        Route("/", lobby_page),
        Route("/favicon.ico", favicon),
        Route("/api/presets", presets),
        Route("/api/play-now", play_now, methods=["POST"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/learn", learn, methods=["POST"]),
    ]
