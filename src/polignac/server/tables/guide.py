"""The guided first deal: a prepared deal against seeded bots (``POST /api/learn`` in app.py).

A guide is bundled data (``polignac/data/guide/{id}.json``): the preset and the
house rules that make the match one deal long, the dealer, every seat's hand,
the bots' level and seed, and the newcomer's seat.  The deal is designed so
that every moment the page explains (:data:`MOMENTS`) happens whatever legal
cards the newcomer plays: ``tests/server/test_guide.py`` checks it by playing
the newcomer's seat at random, with the same bots.  The page (``guide.js``)
reacts to the same conditions as :func:`turn_moments` and :func:`trick_moments`.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ...core import Match, PolignacError, get_rules, parse_card
from ...core.rules import Rules

log = logging.getLogger("polignac.server")

GUIDE_IDS: tuple[str, ...] = ("polignac-4p",)
"""The bundled guides; ``POST /api/learn`` starts the first."""

MOMENTS: tuple[str, ...] = (
    "capot", "follow", "jack-in-trick", "void-jack", "jack-taken", "polignac",
)
"""What the guide explains, each when it first happens (see :func:`turn_moments`
and :func:`trick_moments`): the capot prompt; following suit; a Jack in the trick
the newcomer is to play to; being void in the suit led while holding a Jack;
a trick with a Jack taken; the Jack of spades (Polignac) played."""

FORMAT = "polignac-guide/1"
"""The ``format`` of a guide file."""
_ID = re.compile(r"[a-z0-9-]{1,40}")


class GuideError(PolignacError):
    """An unknown guide id, or bundled guide data that is not a valid deal."""


@dataclass(frozen=True)
class Guide:
    """A prepared deal: who sits where, the hands (by seat), the bots and their seed."""

    id: str
    preset: str
    overrides: dict[str, Any]
    players: int
    dealer: int
    you: int
    hands: tuple[tuple[str, ...], ...]
    bot_level: str
    bot_seed: int

    @property
    def rules(self) -> Rules:
        """The rules of the guided match (the preset with the guide's house rules)."""
        return get_rules(self.preset, self.overrides)

    def new_match(self, names: list[str] | None = None) -> Match:
        """The match before its deal (the dealer is the guide's)."""
        return Match.new(self.rules, self.players, self.dealer, names)

    def deal(self, match: Match) -> Match:
        """``match`` with the prepared hands dealt (the match's first deal).

        Raises:
            PolignacError: the match cannot take this deal (not its first deal, or
                another player count).
        """
        _dealer, seats = match.next_deal()
        return match.start_deal([[parse_card(c) for c in self.hands[s]] for s in seats])


@cache
def load_guide(guide_id: str) -> Guide:
    """The bundled guide ``guide_id``, checked: its hands make a valid first deal.

    Raises:
        GuideError: no such guide, or its data is not a valid deal.
    """
    if guide_id not in GUIDE_IDS or not _ID.fullmatch(guide_id):
        raise GuideError(f"no guide named {guide_id!r}; guides: {', '.join(GUIDE_IDS)}")
    text = resources.files("polignac").joinpath("data", "guide", f"{guide_id}.json").read_text(
        encoding="utf-8")
    try:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            raise ValueError(f"format must be {FORMAT}")
        bots = data["bots"]
        guide = Guide(
            id=guide_id, preset=str(data["preset"]), overrides=dict(data["overrides"]),
            players=int(data["players"]), dealer=int(data["dealer"]), you=int(data["you"]),
            hands=tuple(tuple(str(c) for c in hand) for hand in data["hands"]),
            bot_level=str(bots["level"]), bot_seed=int(bots["seed"]),
        )
        guide.deal(guide.new_match())
    except (KeyError, TypeError, ValueError) as exc:
        raise GuideError(f"guide {guide_id}: bad data ({exc})") from None
    return guide


def guide_of(options: dict[str, Any]) -> Guide | None:
    """The guide a table's options name (``options["guide"]``), or None: for a table
    that is not guided, and (logged) for a guide this version does not have, whose
    table then plays on as an ordinary one (its prepared deal is in its event log)."""
    guide_id = options.get("guide")
    if guide_id is None:
        return None
    try:
        return load_guide(str(guide_id))
    except GuideError:
        log.warning("unknown guide %r: the table plays on without it", guide_id)
        return None


# ------------------------------------------------------------------ moments


def _suit(code: str) -> str:
    return code[-1]


def _jack(code: str) -> bool:
    return code[0] == "J"


def turn_moments(view: dict[str, Any]) -> set[str]:
    """The moments of the newcomer's turn, from their ``Match.view`` (empty when it is
    not their turn): ``capot`` (asked to declare), ``follow`` (must follow the suit
    led, holding other suits too), ``jack-in-trick`` (a Jack is in the trick),
    ``void-jack`` (none of the suit led, and a Jack in hand)."""
    deal = view.get("deal")
    if not deal or not deal.get("legal"):
        return set()
    found: set[str] = set()
    if "capot" in deal["legal"]:
        found.add("capot")
    trick, hand = deal["trick"]["cards"], deal["hand"] or []
    if deal["phase"] == "play" and trick:
        led = _suit(trick[0])
        suits = {_suit(c) for c in hand}
        if led in suits and len(suits) > 1:
            found.add("follow")
        if led not in suits and any(_jack(c) for c in hand):
            found.add("void-jack")
        if any(_jack(c) for c in trick):
            found.add("jack-in-trick")
    return found


def trick_moments(cards: list[str]) -> set[str]:
    """The moments of a finished trick's cards: ``jack-taken`` (a Jack other than the
    Jack of spades in it), ``polignac`` (the Jack of spades in it)."""
    found: set[str] = set()
    if any(_jack(c) and c != "JS" for c in cards):
        found.add("jack-taken")
    if "JS" in cards:
        found.add("polignac")
    return found
