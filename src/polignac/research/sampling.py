"""Deal the cards a player cannot see afresh, consistently with what it has seen.

Used by :meth:`PolignacState.resample_from_infostate` (OpenSpiel's ISMCTS) and by
the ISMCTS seat adapter.  A sample keeps the viewer's hand and the turn-up,
gives every played card to whoever played it, gives no player a card of a suit
it has shown out of, and keeps the announcements made true; it is checked by
replaying every action of the deal on the sampled hands (a sample that does
not replay is drawn again).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.cards import Mask, cards_of
from ..core.deal import PASS_CARDS, Deal
from ..core.errors import PolignacError
from ..core.rules import Rules
from ..core.tricks import voids, without_voids


class SamplingError(PolignacError):
    """No deal consistent with the viewer's information was found."""


@dataclass(frozen=True)
class Knowledge:
    """What one player knows of a deal: enough to deal the hidden cards afresh."""

    rules: Rules
    num_players: int
    dealer: int
    viewer: int
    dealt: Mask
    """The viewer's hand as dealt."""
    turn_up: int | None
    tricks: tuple[tuple[int, tuple[int, ...]], ...]
    """Every trick so far, finished or not: (leader, cards in play order)."""
    hand_sizes: tuple[int, ...]
    """Cards each player still holds."""
    announcements: tuple[tuple[int, str], ...]
    history: tuple[int, ...]
    known: tuple[tuple[int, Mask], ...] = ()
    """Cards known to be in a player's hand as dealt (the Hearts family: the
    viewer's passed cards, in the hand of the player it passed to)."""

    @classmethod
    def of_deal(cls, deal: Deal, viewer: int) -> Knowledge:
        """``viewer``'s knowledge of ``deal``."""
        tricks = tuple((t.leader, t.cards) for t in deal.past)
        if deal.trick:
            tricks += ((deal.leader, deal.trick),)
        return cls(deal.rules, deal.num_players, deal.dealer, viewer,
                   deal.initial_hands[viewer], deal.turn_up, tricks,
                   tuple(h.bit_count() for h in deal.hands), deal.announcements,
                   deal.history)

    def played_by(self) -> list[Mask]:
        """Cards each player has played."""
        out = [0] * self.num_players
        for leader, cards in self.tricks:
            for i, c in enumerate(cards):
                out[(leader + i) % self.num_players] |= 1 << c
        return out

    def voids(self) -> list[int]:
        """Per player, a 4-bit mask of the suits it has shown out of."""
        return voids(self.tricks, self.num_players)


def replay(k: Knowledge, hands: Sequence[Mask]) -> Deal:
    """Deal ``hands`` (as dealt) and replay ``k.history``.

    Raises:
        PolignacError: the hands are not consistent with the history.
    """
    deal = Deal.from_hands(k.rules, list(hands), k.dealer, k.turn_up)
    for a in k.history:
        deal = deal.apply(a)
    return deal


def sample_hands(k: Knowledge, rng: random.Random, attempts: int = 500) -> list[Mask]:
    """Hands as dealt, the viewer's as it was, the others' hidden cards drawn afresh.

    Raises:
        SamplingError: no consistent deal found in ``attempts`` draws.
    """
    n = k.num_players
    played = k.played_by()
    void = k.voids()
    all_played = 0
    for m in played:
        all_played |= m
    pack = k.rules.pack_mask(n)
    unknown = pack & ~k.dealt & ~all_played
    if k.turn_up is not None:
        unknown &= ~(1 << k.turn_up)
    # what each other player must still hold (true announcements) and may hold (voids)
    forced = [0] * n
    calls = k.rules.scorer.call_rules if k.announcements else None
    for p, name in k.announcements:
        assert calls is not None
        if p != k.viewer and name in calls.forced:  # the family's calls
            forced[p] |= calls.forced[name] & ~played[p]
    for p, cards in k.known:
        if p != k.viewer:
            forced[p] |= cards & ~played[p]
    allowed = [0] * n
    for p in range(n):
        if p == k.viewer:
            continue
        allowed[p] = without_voids(unknown, void[p]) | (forced[p] & unknown)
    others = [p for p in range(n) if p != k.viewer]
    for _ in range(attempts):
        hands = [0] * n
        need = [0] * n
        for p in others:
            hands[p] = played[p] | (forced[p] & unknown)
            need[p] = k.hand_sizes[p] - (forced[p] & unknown).bit_count()
        free = cards_of(unknown & ~_union(forced))
        rng.shuffle(free)
        free.sort(key=lambda c: sum(1 for p in others if allowed[p] >> c & 1))
        ok = True
        for c in free:
            cands = [p for p in others if need[p] > 0 and allowed[p] >> c & 1]
            if not cands:
                ok = False
                break
            weights = [need[p] for p in cands]
            p = rng.choices(cands, weights)[0]
            hands[p] |= 1 << c
            need[p] -= 1
        if not ok or any(need[p] for p in others):
            continue
        hands[k.viewer] = k.dealt
        try:
            replay(k, hands)
        except PolignacError:
            continue
        return hands
    raise SamplingError(f"no deal consistent with player {k.viewer}'s view found "
                        f"in {attempts} draws")


def passing_world(deal: Deal, viewer: int, rng: random.Random
                  ) -> tuple[list[Mask], list[int]]:
    """A family with passing (``Family.passing``): hands as dealt and the actions of
    a deal that ``viewer`` cannot tell from ``deal`` (its hand, its passes, the cards
    it received and every card played stay; the rest is dealt afresh), from the
    deal's hooks (``passed``, ``received``, ``play_hands``, ``pass_to_offset``).

    Hands after passing are sampled as :func:`sample_hands` does (the viewer's
    passed cards pinned to the player it passed to); each other player's pass
    is then a random choice among its receiver's cards after passing, and the
    hands as dealt follow.  While passing, the others' hands are dealt afresh
    and their chosen cards drawn from them.

    Raises:
        SamplingError: no consistent deal found.
    """
    n = deal.num_players
    count = deal.rules.pass_count
    offset = deal.pass_to_offset
    history = list(deal.history)
    passes = sum(g.bit_count() for g in deal.passed) if offset else 0
    order = [(deal.eldest + i) % n for i in range(n)]
    mine = history[:passes]
    if deal.phase == PASS_CARDS:
        unknown = cards_of(deal.rules.pack_mask(n) & ~deal.initial_hands[viewer])
        rng.shuffle(unknown)
        size = deal.rules.hand_size(n)
        dealt = [0] * n
        for p in range(n):
            if p == viewer:
                dealt[p] = deal.initial_hands[viewer]
                continue
            for c in unknown[:size]:
                dealt[p] |= 1 << c
            unknown = unknown[size:]
        actions = []
        for i, p in enumerate(order):
            chosen = history[i * count:(i + 1) * count]
            if p == viewer:
                actions += chosen
            else:
                actions += rng.sample(cards_of(dealt[p]), len(chosen))
        return dealt, actions
    play = deal.seat_knowledge(viewer).rules  # the rules from the first card on
    tricks = tuple((t.leader, t.cards) for t in deal.past)
    if deal.trick:
        tricks += ((deal.leader, deal.trick),)
    to = (viewer + offset) % n
    known: list[tuple[int, Mask]] = [(to, deal.passed[viewer])] if offset else []
    known += deal.public_holdings()  # the lowest club's holder leads: everyone knows
    k = Knowledge(play, n, deal.dealer, viewer, deal.play_hands[viewer], None, tricks,
                  tuple(h.bit_count() for h in deal.hands), (), tuple(history[passes:]),
                  tuple(known))
    post = sample_hands(k, rng)
    if not offset:
        return post, history
    given = [0] * n
    for q in range(n):
        r = (q + offset) % n
        if q == viewer:
            given[q] = deal.passed[viewer]
        elif r == viewer:
            given[q] = deal.received(viewer)
        else:
            given[q] = sum(1 << c for c in rng.sample(cards_of(post[r]), count))
    dealt = [post[q] & ~given[(q - offset) % n] | given[q] for q in range(n)]
    actions = []
    for i, p in enumerate(order):
        if p == viewer:
            actions += mine[i * count:(i + 1) * count]
        else:
            cards = cards_of(given[p])
            rng.shuffle(cards)
            actions += cards
    return dealt, actions + history[passes:]


def _union(masks: Sequence[Mask]) -> Mask:
    out = 0
    for m in masks:
        out |= m
    return out


__all__ = ["Knowledge", "SamplingError", "passing_world", "replay", "sample_hands"]
