"""The open-hand solver in the Hearts family (Black Lady, Black Maria) against brute force.

Two brute forces, each a plain paranoid minimax written here:

* over the core's own deals (:class:`~polignac.core.hearts_deal.HeartsDeal`, its
  legal cards and its score, the moon included) from the last 3 tricks (2 with 5 players) of
  random deals played to that point (some with one player taking every trick,
  some with hearts kept back so that they are not broken and the moon is open);
* over small positions from the first trick (the first lead and the clean first
  trick), played with :func:`polignac.core.tricks.restricted_mask` and scored by
  :func:`polignac.core.scoring.score_tricks` (the moon of core/hearts.py), with a
  house rule of three penalty cards so that the moon can happen in 12 cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from polignac.bots.solver import Position, Solver, final_result
from polignac.core import Deal, get_rules
from polignac.core.cards import CODES, SUIT_MASKS, cards_of
from polignac.core.hearts import HEARTS_MASK, QUEEN_OF_SPADES, penalty_cards
from polignac.core.rules import Rules
from polignac.core.scoring import score_tricks
from polignac.core.tricks import card_strength, restricted_mask, trick_winner

_HEARTS_1 = {f"{r}H": 1 for r in "23456789TJQKA"}
GAMES = [
    ("black-lady", 4, None),
    ("black-maria", 3, None),
    ("black-maria", 5, None),
    ("black-lady", 4, {"card_points": {"QS": 13, "JD": -10, **_HEARTS_1}}),  # the J♦ house rule
    ("black-lady", 4, {"queen_breaks": False}),
]


def rules_of(preset: str, overrides: dict[str, object] | None) -> Rules:
    return get_rules(preset, overrides)


def start(rules: Rules, n: int, rng: random.Random) -> Deal:
    """A shuffled deal after random passes, at the first card."""
    deal = Deal.shuffled(rules, n, dealer=rng.randrange(n), rng=rng)
    while deal.phase_name == "pass":
        deal = deal.apply(rng.choice(deal.legal_actions()))
    return deal


def play_to(deal: Deal, tricks_left: int, style: str, rng: random.Random,
            extra: bool = True) -> Deal:
    """Play until ``tricks_left`` tricks are left (and, with ``extra``, some cards of
    the next one): ``random`` cards, a ``hero`` taking (its highest card, the others
    their lowest card that is not a heart or a penalty card: the moon stays open), or
    ``hold`` (hearts and the penalty cards kept back as long as the rules allow)."""
    n = deal.num_players
    hero = rng.randrange(n)
    strength = deal.rules.strength()
    pen = penalty_cards(deal.rules, n) | HEARTS_MASK
    target = n * tricks_left + (rng.randrange(n) if extra else 0)
    while sum(h.bit_count() for h in deal.hands) > target:
        legal = deal.legal_actions()
        if style == "hero":
            legal.sort(key=lambda c: strength[c % 13])
            clean = [c for c in legal if not pen >> c & 1]
            card = legal[-1] if deal.to_act == hero else (clean or legal)[0]
        elif style == "hold":
            clean = [c for c in legal if not pen >> c & 1]
            card = rng.choice(clean or legal)
        else:
            card = rng.choice(legal)
        deal = deal.apply(card)
    return deal


def brute(deal: Deal, me: int) -> int:
    """Plain paranoid minimax over the core: ``me`` maximises minus its score."""
    if deal.done:
        return final_result(deal, me)
    vals = [brute(deal.apply(c), me) for c in deal.legal_actions()]
    return max(vals) if deal.to_act == me else min(vals)


def brute_reply(deal: Deal, me: int) -> list[int]:
    """Plain max^n over the core: each player maximises minus its own score (the moon
    included), ties against ``me``."""
    n = deal.num_players
    if deal.done:
        return [final_result(deal, q) for q in range(n)]
    p = deal.to_act
    best: list[int] | None = None
    for c in deal.legal_actions():
        v = brute_reply(deal.apply(c), me)
        if best is None or v[p] > best[p] or (v[p] == best[p] and p != me and v[me] < best[me]):
            best = v
    assert best is not None
    return best


def moon_open(deal: Deal) -> bool:
    """At most one player has taken penalty cards so far (the moon may still happen)."""
    pen = penalty_cards(deal.rules, deal.num_players)
    return sum(1 for t in deal.taken if t & pen) <= 1


@pytest.mark.parametrize(("preset", "n", "over"), GAMES,
                         ids=[f"{p}-{n}-{i}" for i, (p, n, _o) in enumerate(GAMES)])
def test_solver_matches_brute_force_in_the_hearts_family(
        preset: str, n: int, over: dict[str, object] | None) -> None:
    rules = rules_of(preset, over)
    rng = random.Random(sum(map(ord, preset)) * 7 + n)
    compiled = Solver()
    pure = Solver(pure=True)
    moons = 0
    for trial in range(12):
        style = ("random", "hero", "hold", "hero")[trial % 4]
        left = 3 if n <= 4 else 2
        deal = play_to(start(rules, n, rng), left, style, rng)
        me = deal.to_act
        legal = deal.legal_actions()
        want = {c: brute(deal.apply(c), me) for c in legal}
        pos = Position.from_deal(deal)
        assert pos.legal_cards() == legal
        got = compiled.solve(pos)
        assert got == want, (preset, over, deal.history)
        assert max(got, key=got.__getitem__) in legal
        assert compiled.value(pos) == max(want.values())
        for other in range(n):  # the value for every player, against the plain Python path
            if other != me and trial % 4 == 0:
                assert compiled.value(pos, other) == pure.value(pos, other)
        if trial < 2:
            assert pure.solve(pos) == want
        moons += moon_open(deal)
    assert moons >= 2  # positions where the moon is still open did occur


REPLY_GAMES = [g for g in GAMES if g[1] <= 4]  # more players: the paranoid model


@pytest.mark.parametrize(("preset", "n", "over"), REPLY_GAMES,
                         ids=[f"{p}-{n}-{i}" for i, (p, n, _o) in enumerate(REPLY_GAMES)])
def test_best_reply_matches_brute_force_in_the_hearts_family(
        preset: str, n: int, over: dict[str, object] | None) -> None:
    """The best-reply model (hard's endgame) with the family's leads and moon."""
    rules = rules_of(preset, over)
    rng = random.Random(sum(map(ord, preset)) * 5 + n)
    compiled = Solver()
    pure = Solver(pure=True)
    for trial in range(8):
        deal = play_to(start(rules, n, rng), 3, ("random", "hero", "hold", "hero")[trial % 4],
                       rng)
        me = deal.to_act
        want = {c: brute_reply(deal.apply(c), me)[me] for c in deal.legal_actions()}
        pos = Position.from_deal(deal)
        assert compiled.best_reply_within(pos, 0) == want, (preset, over, deal.history)
        if trial < 2:
            assert pure.best_reply_within(pos, 0) == want


def test_the_moon_changes_the_value() -> None:
    """Endgames where one player takes every trick: the solver agrees with brute force
    with the moon and without it (the same deal under ``moon`` off), and in some of
    them the moon changes the value (so the solver does see it)."""
    rules = get_rules("black-lady")
    no_moon = get_rules("black-lady", {"moon": False})
    rng = random.Random(5)
    solver = Solver()
    differ = 0
    for _ in range(40):
        deal = play_to(start(rules, 4, rng), 3, "hero", rng, extra=False)
        me = deal.to_act
        plain = Deal.from_hands(no_moon, deal.initial_hands, deal.dealer)
        for a in deal.history:
            plain = plain.apply(a)
        want, want_plain = brute(deal, me), brute(plain, me)
        assert solver.value(Position.from_deal(deal)) == want
        assert solver.value(Position.from_deal(plain)) == want_plain
        differ += want != want_plain
        reply = {c: brute_reply(deal.apply(c), me)[me] for c in deal.legal_actions()}
        assert solver.best_reply_within(Position.from_deal(deal), 0) == reply
    assert differ >= 1


# ------------------------------------------------ small positions, hearts not broken

def _restrictions(rules: Rules, n: int, in_play: int, hands: tuple[int, ...],
                  trick: tuple[int, ...], first: bool) -> tuple[int, int, int]:
    """The first lead, the clean first trick and hearts breaking, by their rule texts
    (the position's cards are the game's: a card not in it is not in play)."""
    opening = -1
    if first and not trick and rules.first_lead == "lowest-club":
        clubs = rules.pack_mask(n) & SUIT_MASKS[0]
        opening = (clubs & -clubs).bit_length() - 1
    pts = rules.point_table()
    clean = sum(1 << c for c in cards_of(rules.pack_mask(n)) if pts[c] > 0) if first else 0
    live = 0
    for h in hands:
        live |= h
    played = in_play & ~live
    for c in trick:
        played |= 1 << c
    breakers = HEARTS_MASK | (1 << QUEEN_OF_SPADES if rules.queen_breaks else 0)
    unbroken = 0 if played & breakers else HEARTS_MASK
    return opening, clean, unbroken


def brute_small(rules: Rules, hands: tuple[int, ...], leader: int, winners: tuple[int, ...],
                taken: tuple[int, ...], me: int) -> int:
    """Plain paranoid minimax of a small position at a trick boundary: ``me``'s minus
    score by :func:`score_tricks` (the moon included)."""
    n = len(hands)
    strength = card_strength(rules)
    points = rules.point_table()
    in_play = 0
    for h in (*hands, *taken):
        in_play |= h
    owner0 = {CODES[c]: p for p in range(n) for c in cards_of(taken[p])}

    def go(hands: tuple[int, ...], trick: tuple[int, ...], leader: int,
           winners: tuple[int, ...], owner: dict[str, int]) -> int:
        if not any(hands) and not trick:
            counts = [winners.count(p) for p in range(n)]
            point = {CODES[c]: owner.get(CODES[c]) for c in cards_of(in_play) if points[c]}
            score = score_tricks(rules, n, point, counts, winners[0], winners[-1], -1, -1)
            return -score.scores[me]
        p = (leader + len(trick)) % n
        led = trick[0] // 13 if trick else -1
        legal = restricted_mask(hands[p], led, not winners,
                                *_restrictions(rules, n, in_play, hands, trick, not winners))
        pick: Callable[..., int] = max if p == me else min
        vals = []
        for c in cards_of(legal):
            nh = tuple(h & ~(1 << c) if q == p else h for q, h in enumerate(hands))
            nt = (*trick, c)
            if len(nt) == n:
                w = trick_winner(leader, nt, n, strength)
                won = dict(owner)
                for x in nt:
                    won[CODES[x]] = w
                vals.append(go(nh, (), w, (*winners, w), won))
            else:
                vals.append(go(nh, nt, leader, winners, owner))
        return pick(vals)

    return go(hands, (), leader, winners, owner0)


THREE_PENALTIES = {"card_points": {"QS": 13, "KH": 1, "5H": 1}}


@pytest.mark.parametrize("over", [
    THREE_PENALTIES,
    {**THREE_PENALTIES, "queen_breaks": False},
    {"card_points": {"QS": 13, "KH": 1, "5H": 1, "JD": -10}},
    None,  # every heart scores: not all in play, so no moon
])
def test_solver_small_positions(over: dict[str, object] | None) -> None:
    """Small positions (4 players, 3 cards each), from the first card (the Two of
    clubs leads, no penalty card is discarded on the first trick) or after one
    trick of other cards (hearts not broken, the moon open to everyone or to the
    one player who took penalty cards in it), against brute force."""
    rules = rules_of("black-lady", over)
    rng = random.Random(11 if over is None else len(str(over)))
    compiled = Solver()
    pure = Solver(pure=True)
    pen = penalty_cards(rules, 4)
    two_c = CODES.index("2C")
    breakers = HEARTS_MASK | 1 << QUEEN_OF_SPADES
    unbroken_open = 0
    for trial in range(16):
        first = trial % 2 == 0
        must = cards_of(pen) if pen.bit_count() <= 4 else []
        must = [*must, two_c] if first else must
        rest = [c for c in range(52) if c not in must]
        cards = must + rng.sample(rest, 12 - len(must))
        rng.shuffle(cards)
        hands = tuple(sum(1 << c for c in cards[3 * p:3 * p + 3]) for p in range(4))
        winners: tuple[int, ...] = ()
        taken = (0, 0, 0, 0)
        leader = 0
        if first:
            leader = next(p for p in range(4) if hands[p] >> two_c & 1)
        else:  # one trick played before, of cards that do not break hearts
            others = [c for c in range(52) if c not in cards and not breakers >> c & 1]
            w = rng.randrange(4)
            winners = (w,)
            taken = tuple(sum(1 << c for c in rng.sample(others, 4)) if p == w else 0
                          for p in range(4))
            leader = w
        pos = Position(rules, hands, (), leader, winners, taken)
        if first:
            assert pos.legal_cards() == [two_c]
        elif pos.restrictions()[2] and pen.bit_count() <= 4:
            unbroken_open += 1
        for me in range(4):
            want = brute_small(rules, hands, leader, winners, taken, me)
            assert compiled.value(pos, me) == want, (over, cards, winners, taken, me)
            if trial < 3:
                assert pure.value(pos, me) == want
        values = compiled.solve(pos)
        assert list(values) == pos.legal_cards()
    if over is not None:
        assert unbroken_open >= 4
