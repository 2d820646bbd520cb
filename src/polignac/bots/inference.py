"""Inference about hidden hands: sampling consistent deals and a simple play model.

:func:`sample_hands` deals the unseen cards to the other players consistently
with what the seat has seen (hand sizes, revealed voids, the cards an
announcer must still hold; the Knaves turn-up is already out of the unseen
cards).  :func:`play_log_likelihood` scores a
sampled deal by how likely the other players' earlier plays were under a
softmax over a simple heuristic (avoid winning tricks that hold points in the
penalty games, take them in the point games); :func:`policy_log_likelihood`
scores it under a bot used as the model of the others' play (``expert`` uses
``medium``): replaying the deal from its start, how often did the model bot,
seeing each player's own view of the sampled world, do what the player did.
"""

from __future__ import annotations

import math
import random

from ..core.actions import ANNOUNCE_BASE
from ..core.cards import Mask
from ..core.deal import Deal
from ..core.tricks import (
    NO_TRUMP,
    beats,
    card_strength,
    led_suit,
    legal_mask,
    winning_index,
)
from ..core.tricks import voids as tricks_voids
from .base import Bot, SeatView


def voids(view: SeatView) -> list[int]:
    """Per player, a mask of the suits (bit per suit) it has shown it lacks."""
    tricks = [(t.leader, t.cards) for t in view.tricks] + [(view.leader, view.trick)]
    return tricks_voids(tricks, view.num_players)


def announced_needs(view: SeatView) -> list[tuple[int, Mask, int]]:
    """What the others' announcements say about their hands now.

    One ``(player, cards, k)`` per announcement by another player: ``player``
    still holds at least ``k`` of the unseen ``cards`` (it held the
    combination when it announced, less what it has played since).
    """
    # The Hearts family: the viewer's passed cards not played yet are in pass_to's hand.
    known = view.passed & view.unseen if view.pass_to >= 0 else 0
    passed = [(view.pass_to, known, known.bit_count())] if known else []
    if not view.announcements:
        return passed
    n = view.num_players
    plays = [((t.leader + i) % n, c) for t in view.tricks for i, c in enumerate(t.cards)]
    plays += [((view.leader + i) % n, c) for i, c in enumerate(view.trick)]
    calls = view.rules.scorer.call_rules  # the family's calls (announcements made: it has some)
    assert calls is not None
    needs = calls.needs
    made = iter(view.announcements)
    out: list[tuple[int, Mask, int]] = []
    done = 0
    for a in view.history:
        if a < 52:
            done += 1
        elif a >= ANNOUNCE_BASE:
            p, name = next(made)
            if p == view.player:
                continue
            cards, k = needs[name]
            since = sum(1 for q, c in plays[done:] if q == p and cards >> c & 1)
            out.append((p, cards & view.unseen, k - since))
    return passed + out


def sample_hands(view: SeatView, rng: random.Random, tries: int = 50) -> tuple[Mask, ...]:
    """Deal the unseen cards to the other players, respecting hand sizes and voids.

    Announcements are respected too: an announcer keeps enough of its
    combination's unplayed cards (:func:`announced_needs`).  Falls back to
    ignoring voids if no consistent deal is found in ``tries`` attempts (the
    voids are then still respected where possible).
    """
    n = view.num_players
    me = view.player
    unseen = [c for c in range(52) if view.unseen >> c & 1]
    void = voids(view)
    needs = announced_needs(view)
    for attempt in range(tries + 1):
        strict = attempt < tries
        room = list(view.hand_sizes)
        room[me] = 0
        hands = [0] * n
        pinned = 0
        for p, cards, k in needs:  # the announcers' cards first
            have = (hands[p] & cards).bit_count()
            free = [c for c in range(52) if cards >> c & 1 and not pinned >> c & 1]
            for c in rng.sample(free, max(0, min(k - have, len(free), room[p]))):
                hands[p] |= 1 << c
                pinned |= 1 << c
                room[p] -= 1
        # without announcements the same list is reshuffled at each attempt
        rest = [c for c in unseen if not pinned >> c & 1] if needs else unseen
        rng.shuffle(rest)
        # most constrained cards first: suits that many players lack
        rest.sort(key=lambda c: -sum(1 for q in range(n) if void[q] >> (c // 13) & 1))
        ok = True
        for c in rest:
            who = [q for q in range(n) if room[q] > 0 and not void[q] >> (c // 13) & 1]
            if not who:
                if strict:
                    ok = False
                    break
                who = [q for q in range(n) if room[q] > 0]
            q = who[rng.randrange(len(who))]
            hands[q] |= 1 << c
            room[q] -= 1
        if ok:
            hands[me] = view.hand
            return tuple(hands)
    raise AssertionError("unreachable: the last attempt ignores voids")  # pragma: no cover


def _heuristic(view: SeatView, hand: Mask, trick: tuple[int, ...], card: int,
               strength: tuple[int, ...], points: tuple[int, ...]) -> float:
    """A simple preference score for playing ``card`` (higher: more likely):
    winning the points at stake is good where the taker gains them (the scoring
    family's ``ScoreKind.taker_gains``), bad in the penalty games and in chips."""
    sign = 1.0 if view.rules.kind.taker_gains else -1.0
    if not trick:
        return -0.3 * strength[card] if sign < 0 else 0.1 * strength[card]
    led = trick[0] // 13
    trump = NO_TRUMP if view.trump is None else view.trump
    best = trick[winning_index(trick, strength, trump)]
    beats_it = beats(card, best, trump, strength)
    at_stake = sum(points[c] for c in trick) + points[card]
    score = 0.0
    if beats_it:
        score += sign * (1.0 + abs(at_stake))
    elif card // 13 != led:
        score += -sign * abs(points[card])  # discard point cards on others
    return score


def play_log_likelihood(view: SeatView, hands: tuple[Mask, ...], beta: float = 1.5) -> float:
    """Log-probability of the other players' earlier plays given sampled ``hands``.

    Each play is scored with a softmax (inverse temperature ``beta``) over the
    heuristic values of the legal cards the player had at that moment (its
    sampled hand plus the cards it played later).
    """
    n = view.num_players
    strength = card_strength(view.rules)
    points = view.rules.point_table()
    held = list(hands)
    tricks = [(t.leader, t.cards) for t in view.tricks] + [(view.leader, view.trick)]
    plays: list[tuple[int, tuple[int, ...], int]] = []
    for leader, cards in tricks:
        for i, c in enumerate(cards):
            plays.append(((leader + i) % n, cards[:i], c))
    total = 0.0
    for p, before, c in reversed(plays):  # rebuild each hand by adding back the cards
        held[p] |= 1 << c
        if p == view.player:
            continue
        hand = held[p]
        legal = legal_mask(hand, led_suit(before))
        options = [x for x in range(52) if legal >> x & 1]
        if len(options) < 2:
            continue
        scores = [beta * _heuristic(view, hand, before, x, strength, points) for x in options]
        top = max(scores)
        z = sum(math.exp(s - top) for s in scores)
        total += beta * _heuristic(view, hand, before, c, strength, points) - top - math.log(z)
    return total


def replay_from_start(view: SeatView, hands: tuple[Mask, ...]) -> Deal | None:
    """The deal as dealt, given the sampled current ``hands`` (None: inconsistent).

    The cards already played are given back to the players who played them.
    """
    n = view.num_players
    initial = list(hands)
    for t in view.tricks:
        for i, c in enumerate(t.cards):
            initial[(t.leader + i) % n] |= 1 << c
    for i, c in enumerate(view.trick):
        initial[(view.leader + i) % n] |= 1 << c
    try:
        return Deal.from_hands(view.rules, initial, dealer=view.dealer, turn_up=view.turn_up,
                               family_state=view.family_state)
    except ValueError:
        return None


def policy_log_likelihood(view: SeatView, hands: tuple[Mask, ...], policy: Bot,
                          eps: float = 0.1, floor: float = -math.inf) -> float:
    """Log-probability of the other players' earlier actions if they play like ``policy``.

    The play model: each player (other than the viewer) took ``policy``'s
    action with probability ``1 - eps``, any other legal action with
    probability ``eps`` shared equally.  Forced actions (one legal choice)
    count for nothing.  The deal is replayed from its start with the sampled
    ``hands``; ``policy`` sees each player's own view of the sampled world.
    Scoring stops early, returning the partial (lower) value, once it falls
    below ``floor`` (a sample that is already far less likely than another).
    A history that cannot be replayed with ``hands`` returns ``-inf``.
    """
    d = replay_from_start(view, hands)
    if d is None:
        return -math.inf
    hit = math.log1p(-eps) if eps < 1.0 else -math.inf
    rng = random.Random(0)  # the model bots are deterministic; random is not a model
    total = 0.0
    for a in view.history:
        p = d.to_act
        if p != view.player:
            legal = d.legal_actions()
            if len(legal) >= 2:
                guess = policy.act(SeatView.of(d, p), rng)
                total += hit if guess == a else math.log(eps / (len(legal) - 1))
                if total < floor:
                    return total
        try:
            d = d.apply(a)
        except ValueError:
            return -math.inf
    return total
