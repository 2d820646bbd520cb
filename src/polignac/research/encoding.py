"""Tensors, returns and bounds shared by the OpenSpiel game and the PettingZoo environment.

Everything here reads the public core API only (a :class:`~polignac.core.deal.Deal`
and its :class:`~polignac.core.rules.Rules`); nothing here changes a deal.

Observation tensor (``observation_size(n)`` floats; player blocks are
*relative* to the viewer: block ``i`` is player ``(viewer + i) % n``, so block
0 is always the viewer):

==============  =========  ==================================================
piece           size       meaning
==============  =========  ==================================================
``phase``       3          one-hot: before play (declaration round, passing),
                           trick play, over
``hand``        52         the viewer's cards still in hand
``turn_up``     52         the turned-up trump card (Knaves), else zeros
``trick``       n x 52     card played to the trick in progress by each player
``taken``       n x 52     cards each player has taken in tricks
``leader``      n          one-hot: who leads the trick in progress
``dealer``      n          one-hot: the dealer
``declarer``    n          one-hot: who declared a contract (zeros: nobody)
``voids``       n x 4      player has shown out of suit C D H S
``announced``   n x 10     announcements made (actions 57-66)
``tricks_won``  n          tricks won / tricks per deal
==============  =========  ==================================================

Information-state tensor (``infostate_size(rules, n)`` floats; perfect recall):

==============  =========  ==================================================
``player``      n          one-hot: the viewer (absolute player number)
``dealt``       52         the viewer's hand as dealt (so far, while dealing)
``turn_up``     52         the turned-up trump card (Knaves)
``received``    52         Hearts family with passing only: the cards passed
                           to the viewer (once everyone has passed)
``actions``     L x 67     one-hot of the k-th player action of the deal that
                           the viewer saw (others' passed cards are hidden)
==============  =========  ==================================================

``L = max_game_length(rules, n)``.  Cards are ``suit * 13 + rank`` (suits C D H S,
rank 0 = Two .. 12 = Ace), actions as in :mod:`polignac.core.actions`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..core.actions import NUM_ACTIONS, NUM_ANNOUNCEMENTS
from ..core.cards import Mask
from ..core.deal import DECLARE, DONE, PASS_CARDS, PLAY, Deal
from ..core.families import ANNOUNCEMENTS
from ..core.rules import Rules
from ..core.tricks import voids

FloatArray = npt.NDArray[np.float32]


OBS_PIECES: Final = ("phase", "hand", "turn_up", "trick", "taken", "leader", "dealer",
                     "declarer", "voids", "announced", "tricks_won")


@functools.cache
def observation_shapes(n: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The observation pieces and their shapes for ``n`` players, in tensor order."""
    return (
        ("phase", (3,)), ("hand", (52,)), ("turn_up", (52,)), ("trick", (n, 52)),
        ("taken", (n, 52)), ("leader", (n,)), ("dealer", (n,)), ("declarer", (n,)),
        ("voids", (n, 4)), ("announced", (n, NUM_ANNOUNCEMENTS)), ("tricks_won", (n,)),
    )


def infostate_shapes(rules: Rules, n: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The information-state pieces and their shapes, in tensor order."""
    received = (("received", (52,)),) if rules.passing != "none" else ()
    return (("player", (n,)), ("dealt", (52,)), ("turn_up", (52,)), *received,
            ("actions", (max_game_length(rules, n), NUM_ACTIONS)))


def _size(shapes: Sequence[tuple[str, tuple[int, ...]]]) -> int:
    return sum(math.prod(shape) for _, shape in shapes)


@functools.cache
def observation_size(n: int) -> int:
    """Length of the flat observation tensor for ``n`` players (107 + 122 n)."""
    return _size(observation_shapes(n))


def infostate_size(rules: Rules, n: int) -> int:
    """Length of the flat information-state tensor."""
    return _size(infostate_shapes(rules, n))


def views(tensor: FloatArray, shapes: Sequence[tuple[str, tuple[int, ...]]]
          ) -> dict[str, FloatArray]:
    """Named, reshaped views into a flat tensor (they share its memory)."""
    return {name: tensor[i:j].reshape(shape) for name, i, j, shape in _offsets(tuple(shapes))}


@functools.cache
def _offsets(shapes: tuple[tuple[str, tuple[int, ...]], ...]
             ) -> tuple[tuple[str, int, int, tuple[int, ...]], ...]:
    out = []
    i = 0
    for name, shape in shapes:
        size = math.prod(shape)
        out.append((name, i, i + size, shape))
        i += size
    return tuple(out)


def max_game_length(rules: Rules, n: int) -> int:
    """The most player actions a deal can have: every card, a declaration round,
    and, with calls, every announcement slot of every player plus one claim."""
    length = rules.hand_size(n) * n
    if rules.has_declaration_round:
        length += n
    calls = rules.scorer.call_rules if rules.has_calls else None
    if calls is not None:  # the family's calls
        length += calls.slots_per_player * n + 1
    if rules.passing != "none":  # the Hearts family's passed cards
        length += rules.pass_count * n
    return length


# ------------------------------------------------------------------- encoding


def _set_mask(row: FloatArray, mask: Mask) -> None:
    while mask:
        low = mask & -mask
        row[low.bit_length() - 1] = 1.0
        mask ^= low


def known_voids(deal: Deal) -> list[int]:
    """Per player, a 4-bit mask of the suits the player has shown out of
    (played another suit to a trick led in that suit)."""
    tricks = [(t.leader, t.cards) for t in deal.past] + [(deal.leader, deal.trick)]
    return voids(tricks, deal.num_players)


def encode_observation(deal: Deal, viewer: int, out: FloatArray) -> None:
    """Fill ``out`` (zeroed here) with ``viewer``'s observation of ``deal``."""
    n = deal.num_players
    out.fill(0.0)
    v = views(out, observation_shapes(n))
    v["phase"][{DECLARE: 0, PASS_CARDS: 0, PLAY: 1, DONE: 2}[deal.phase]] = 1.0
    _set_mask(v["hand"], deal.hands[viewer])
    if deal.turn_up is not None:
        v["turn_up"][deal.turn_up] = 1.0
    leader = deal.leader
    for i, card in enumerate(deal.trick):
        v["trick"][((leader + i) - viewer) % n, card] = 1.0
    for p in range(n):
        r = (p - viewer) % n
        _set_mask(v["taken"][r], deal.taken[p])
    v["leader"][(leader - viewer) % n] = 1.0
    v["dealer"][(deal.dealer - viewer) % n] = 1.0
    if deal.declarer >= 0:
        v["declarer"][(deal.declarer - viewer) % n] = 1.0
    for p, mask in enumerate(known_voids(deal)):
        for s in range(4):
            if mask >> s & 1:
                v["voids"][(p - viewer) % n, s] = 1.0
    for p, name in deal.announcements:
        v["announced"][(p - viewer) % n, ANNOUNCEMENTS.index(name)] = 1.0
    total = max(1, deal.initial_hands[0].bit_count())
    for p in range(n):
        v["tricks_won"][(p - viewer) % n] = deal.tricks[p] / total


def encode_partial_observation(n: int, hand: Mask, turn_up: int, out: FloatArray) -> None:
    """The observation while the cards are still being dealt (OpenSpiel chance phase)."""
    out.fill(0.0)
    v = views(out, observation_shapes(n))
    _set_mask(v["hand"], hand)
    if turn_up >= 0:
        v["turn_up"][turn_up] = 1.0


def encode_infostate(rules: Rules, n: int, viewer: int, dealt: Mask, turn_up: int,
                     actions: Sequence[int], out: FloatArray, received: Mask = 0) -> None:
    """Fill ``out`` with the perfect-recall information state (see the module doc;
    ``received``: the Hearts family's cards passed to the viewer)."""
    out.fill(0.0)
    v = views(out, infostate_shapes(rules, n))
    v["player"][viewer] = 1.0
    _set_mask(v["dealt"], dealt)
    if "received" in v:
        _set_mask(v["received"], received)
    if turn_up >= 0:
        v["turn_up"][turn_up] = 1.0
    table = v["actions"]
    for k, a in enumerate(actions):
        table[k, a] = 1.0


# -------------------------------------------------------------------- returns


def utility_bounds(rules: Rules, n: int, family_state: Any = None) -> tuple[float, float]:
    """The lowest and highest return a player can get from one deal whose scoring
    family's state is ``family_state`` (None: a deal on its own) (sound bounds; exact
    for the penalty presets, Bassadewitz and the games scored by sides): the scoring
    family's (``Family.return_bounds`` of ``rules.scorer``)."""
    return rules.scorer.return_bounds(rules, n, family_state)


def deal_returns(deal: Deal) -> list[float]:
    """Each player's return for the finished ``deal``: the scoring family's
    (``Family.returns`` of ``rules.scorer``).

    Penalty games: minus the penalty.  Points games (Knaves): the points.
    Bassadewitz: the chip change.  Scored by sides: the player's side's deal score
    minus the other side's; a deal ended by a claim is worth the bound
    (``utility_bounds``) to the claimant's side when correct, minus the bound
    when wrong, and the opposite to the other side.

    Raises:
        IllegalActionError: the deal is not finished.
    """
    rules = deal.rules
    return rules.scorer.returns(deal.score(), rules, deal.num_players)


__all__ = [
    "OBS_PIECES",
    "deal_returns",
    "encode_infostate",
    "encode_observation",
    "encode_partial_observation",
    "infostate_shapes",
    "infostate_size",
    "known_voids",
    "max_game_length",
    "observation_shapes",
    "observation_size",
    "utility_bounds",
    "views",
]
