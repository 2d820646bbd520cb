"""Rule-based bots: ``random``, ``easy`` and ``medium`` (see docs/bots.md)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..core.actions import ANNOUNCE_BASE, CLAIM, PASS, Action, is_card
from ..core.cards import SUIT_MASKS, Card, cards_of
from ..core.deal import PASS_CARDS
from ..core.rules import Rules
from ..core.tricks import NO_TRUMP, beats, card_strength, voids, winning_index
from .base import SeatView
from .hearts import easy_pass, medium_pass


class RandomBot:
    """Plays uniformly at random among the legal actions."""

    name = "random"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        """Return a uniformly random legal action.

        Raises:
            ValueError: there is no legal action (it is not the viewer's turn).
        """
        if not view.legal:
            raise ValueError("no legal action: it is not this bot's turn")
        return view.legal[rng.randrange(len(view.legal))]


# --------------------------------------------------------------- game facts


@dataclass(frozen=True)
class _Facts:
    """Per-rules tables: card strength, and what taking a card costs the taker."""

    strength: tuple[int, ...]
    """Per card: trick-taking strength within its suit (higher wins)."""
    cost: tuple[int, ...]
    """Per card: what taking it costs (negative: a gain), in the game's unit."""
    sign: int
    """+1 when points are bad for their taker (penalties, chips), -1 when good."""


_FACTS: dict[int, tuple[Rules, _Facts]] = {}


def _facts(rules: Rules) -> _Facts:
    hit = _FACTS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    sign = -1 if rules.kind.taker_gains else 1
    points = rules.point_table()
    facts = _Facts(
        strength=card_strength(rules),
        cost=tuple(sign * points[c] for c in range(52)),
        sign=sign,
    )
    _FACTS[id(rules)] = (rules, facts)
    return facts


def _beats(a: Card, b: Card, trump: int | None, strength: tuple[int, ...]) -> bool:
    """True when card ``a`` beats ``b``, the card winning the trick so far."""
    return beats(a, b, NO_TRUMP if trump is None else trump, strength)


def _best(cards: tuple[Card, ...] | list[Card], trump: int | None,
          strength: tuple[int, ...]) -> int:
    """Index of the winning card so far."""
    return winning_index(cards, strength, NO_TRUMP if trump is None else trump)


def _voids(view: SeatView) -> list[int]:
    """Per player: bitmask of suits (bit s) that player is known to be void in."""
    return voids([(t.leader, t.cards) for t in view.tricks] + [(view.leader, view.trick)],
                  view.num_players)


def _same_side(view: SeatView, a: int, b: int) -> bool:
    if a == b:
        return True
    return view.rules.partnerships and (a - b) % 2 == 0


def _trick_bonus(view: SeatView, sign: int) -> int:
    """What winning the trick in progress costs beyond its cards."""
    r = view.rules
    k = len(view.tricks)
    total = view.initial_hand.bit_count()
    extra = r.trick_points
    if k == 0:
        extra += r.first_trick_points
    if k == total - 1:
        extra += r.last_trick_points
    return sign * extra


def _calls(view: SeatView) -> Action | None:
    """Calls beyond card play: the best announcement open, or a claim when the side
    has reached the target; else None."""
    legal = view.legal
    if max(legal) >= ANNOUNCE_BASE:  # an announcement is open (the family's tables)
        calls = view.rules.scorer.call_rules
        assert calls is not None
        best = calls.best(legal)
        if best is not None:
            return best
    if CLAIM in view.legal and view.side_totals[view.player & 1] >= view.rules.partie_target:
        return CLAIM
    return None


def _sure_slam(view: SeatView, strength: tuple[int, ...]) -> bool:
    """True when the viewer's hand takes every trick however the others play.

    Rule (no trumps): in every suit that another player holds, the viewer
    holds at least one card and every card it holds beats every card of that
    suit it does not hold; a void is allowed only when the viewer leads the
    first trick (eldest, or the declarer of a générale).
    """
    if view.trump is not None:
        return False
    hand = view.hand
    others = view.rules.pack_mask(view.num_players) & ~hand
    if view.turn_up is not None:
        others &= ~(1 << view.turn_up)
    eldest = (view.dealer + 1) % view.num_players
    leads = view.player == eldest or view.rules.contract.declarer_leads
    for s in range(4):
        theirs = cards_of(others & SUIT_MASKS[s])
        if not theirs:
            continue
        mine = cards_of(hand & SUIT_MASKS[s])
        if not mine:
            if not leads:
                return False
            continue
        if min(strength[c] for c in mine) < max(strength[c] for c in theirs):
            return False
    return True


def _cards_only(view: SeatView) -> list[Card]:
    return [a for a in view.legal if is_card(a)]


# ------------------------------------------------------------------- easy


class EasyBot:
    """Simple play rules, no memory of the cards played.

    Penalty games: follow low; when void throw the costliest card (then the
    highest); when its lowest card would win a trick holding penalty cards,
    play the one that costs least.  Point games (Knaves, partnerships): take the
    trick with the lowest winning card when it can, else throw the least
    valuable card (or the most valuable one onto a partner's trick).  Never
    declares a contract.  Calls: announces every combination it holds,
    claims exactly when its side has reached the target.
    """

    name = "easy"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        """Choose an action by the easy rules.

        Raises:
            ValueError: there is no legal action (it is not the viewer's turn).
        """
        if not view.legal:
            raise ValueError("no legal action: it is not this bot's turn")
        if view.phase == PASS_CARDS:  # the Hearts family's passing
            return easy_pass(view.rules, view.hand, view.legal)
        if PASS in view.legal:
            return PASS
        call = _calls(view)
        if call is not None:
            return call
        cards = _cards_only(view)
        if not cards:
            return view.legal[0]
        f = _facts(view.rules)
        st, cost = f.strength, f.cost
        taker = f.sign < 0
        if not view.trick:
            if taker:
                return max(cards, key=lambda c: (st[c], -cost[c], -c))
            return min(cards, key=lambda c: (cost[c] > 0, st[c], c))
        led = view.trick[0] // 13
        following = cards[0] // 13 == led
        bi = _best(view.trick, view.trump, st)
        best = view.trick[bi]
        winner = (view.leader + bi) % view.num_players
        if taker:
            if _same_side(view, winner, view.player):
                return min(cards, key=lambda c: (_beats(c, best, view.trump, st),
                                                 cost[c], st[c], c))
            winners = [c for c in cards if _beats(c, best, view.trump, st)]
            if winners:
                return min(winners, key=lambda c: (cost[c], st[c], c))
            return min(cards, key=lambda c: (-cost[c], st[c], c))
        if not following:
            return max(cards, key=lambda c: (cost[c], st[c], -c))
        low = min(cards, key=lambda c: (st[c], c))
        if not _beats(low, best, view.trump, st):
            return low
        last = len(view.trick) == view.num_players - 1
        if last:
            # Must win: win with the least costly, highest card.
            return min(cards, key=lambda c: (cost[c], -st[c], c))
        return low


# ------------------------------------------------------------------ medium


# Partnership games (medium): what keeping a card is worth, in card points: per step of
# its strength, and once more when no unseen card of its suit beats it.
_P_KEEP = 0.2
_P_KEEP_MASTER = 1.5
# The card points each player still to play adds to a trick, on average.
_P_ADD = 1.0


class _SidesCtx:
    """Partnership games: medium's model of the trick in progress, for each candidate card.

    The side that takes the trick is the one holding the highest card of the
    led suit among the cards played and the hands still to play: the unseen
    cards above the best card so far are placed, highest first, with each
    player who may still follow in proportion to its cards in hand (known
    voids hold none); the first one that lies with a player still to play
    decides.  A card's value is the trick's card points (and the last trick's
    3) won or lost with that chance, what the players still to play are
    expected to add, and what keeping the card is worth (higher cards, and
    cards nothing unseen beats, are kept).
    """

    def __init__(self, view: SeatView, f: _Facts) -> None:
        self.view = view
        self.f = f
        self.voids = _voids(view)
        self.unseen = view.unseen
        self.last = len(view.tricks) == view.initial_hand.bit_count() - 1

    def value(self, c: Card) -> float:
        """The value of playing ``c``, in card points (higher is better)."""
        view, st = self.view, self.f.strength
        n, me = view.num_players, view.player
        trick = view.trick + (c,)
        led = trick[0] // 13
        bi = _best(trick, None, st)
        top = st[trick[bi]]
        later = [(view.leader + j) % n for j in range(len(trick), n)]
        sizes = view.hand_sizes
        holders = [p for p in range(n) if p != me and not self.voids[p] >> led & 1]
        total = sum(sizes[p] for p in holders)
        mate = sum(sizes[p] for p in later if p in holders and _same_side(view, p, me))
        opp = sum(sizes[p] for p in later if p in holders and not _same_side(view, p, me))
        p_ours, rest = 0.0, 1.0
        if total:
            above = sum(1 for d in cards_of(self.unseen & SUIT_MASKS[led]) if st[d] > top)
            for _ in range(above):
                p_ours += rest * mate / total
                rest *= 1 - (mate + opp) / total
        if _same_side(view, (view.leader + bi) % n, me):
            p_ours += rest
        points = -sum(self.f.cost[d] for d in trick) + (3 if self.last else 0)
        v = (2 * p_ours - 1) * (points + _P_ADD * len(later))
        v -= _P_KEEP * st[c]
        if not any(st[d] > st[c] for d in cards_of(self.unseen & SUIT_MASKS[c // 13])):
            v -= _P_KEEP_MASTER
        return v


class MediumBot:
    """Card counting plus the seeds' tips (see docs/bots.md).

    It tracks the cards still unseen and which players are void in which
    suits, and scores each legal card by the expected cost of the trick it
    may win plus a tie-break that sheds dangerous cards (penalty cards and
    high cards in avoidance games, low cards in point games).  Leads prefer
    cards that someone else must beat, cards below an outstanding penalty
    card of their suit (to force it out), and short suits (to void them).
    Declares a contract only with a hand that cannot lose a trick (see
    ``_sure_slam``), and then plays its highest card every trick.  Calls
    calls as :class:`EasyBot`.
    """

    name = "medium"

    def __init__(self, threat: float = 0.75, spec: float = 0.6) -> None:
        """``threat``: chance a trick is kept when a later player may beat it;
        ``spec``: expected penalty a later player who may still follow adds.

        Raises:
            ValueError: an option is outside 0-1.
        """
        if not (0 <= threat <= 1 and 0 <= spec <= 1):
            raise ValueError(f"medium: threat and spec must be in 0-1, got {threat}, {spec}")
        self.threat = threat
        self.spec = spec

    def act(self, view: SeatView, rng: random.Random) -> Action:
        """Choose an action by the medium rules.

        Raises:
            ValueError: there is no legal action (it is not the viewer's turn).
        """
        if not view.legal:
            raise ValueError("no legal action: it is not this bot's turn")
        if view.phase == PASS_CARDS:  # the Hearts family's passing
            return medium_pass(view.rules, view.hand, view.legal)
        f = _facts(view.rules)
        if PASS in view.legal:
            if _sure_slam(view, f.strength):
                return next(a for a in view.legal if a != PASS)
            return PASS
        call = _calls(view)
        if call is not None:
            return call
        cards = _cards_only(view)
        if not cards:
            return view.legal[0]
        if view.declarer == view.player:
            return max(cards, key=lambda c: (f.strength[c], -c))
        if view.rules.kind.sides:
            return self._sides_card(view, f, cards)
        if not view.trick:
            return min(cards, key=lambda c: (self._lead_score(view, f, c), c))
        return min(cards, key=lambda c: (self._follow_score(view, f, c), c))

    def _sides_card(self, view: SeatView, f: _Facts, cards: list[Card]) -> Card:
        """Partnership games: the card of best value (:class:`_SidesCtx`), less 3 (the divisor) card
        points per announcement point it would break while announcing is locked."""
        made = frozenset(a for p, a in view.announcements if p == view.player)
        calls = view.rules.scorer.call_rules  # the family's calls (a game of sides has them)
        assert calls is not None
        unannounced = calls.unannounced
        pending = unannounced(view.hand, made)
        ctx = _SidesCtx(view, f)

        def score(c: Card) -> float:
            v = ctx.value(c)
            if pending:
                kept = unannounced(view.hand & ~(1 << c), made)
                v -= view.rules.point_divisor * (pending - kept)
            return v

        return max(cards, key=lambda c: (score(c), -c))

    def _lead_score(self, view: SeatView, f: _Facts, c: Card) -> float:
        st, cost, sign = f.strength, f.cost, f.sign
        n = view.num_players
        suit = c // 13
        unseen = view.unseen
        voids = _voids(view)
        in_suit = unseen & SUIT_MASKS[suit]
        higher = [d for d in cards_of(in_suit) if st[d] > st[c]]
        lower = [d for d in cards_of(in_suit) if st[d] < st[c]]
        others = [p for p in range(n) if p != view.player]
        followers = [p for p in others if not voids[p] >> suit & 1] if in_suit else []
        opponents = [p for p in others if not _same_side(view, p, view.player)]
        void_opps = [p for p in opponents if p not in followers]
        trumps_out = view.trump is not None and suit != view.trump and bool(
            unseen & SUIT_MASKS[view.trump])
        if not followers or not higher:
            p_win = 1.0 if not (trumps_out and void_opps) else 0.5
        else:
            p_win = len(lower) / (len(lower) + len(higher)) * 0.8
        worst = max((cost[d] for d in cards_of(unseen)), default=0)
        best = min((cost[d] for d in cards_of(unseen)), default=0)
        bonus = _trick_bonus(view, sign)
        if sign > 0:
            dumps = worst * (len(void_opps) + self.spec * len(followers))
            v = cost[c] + bonus + max(dumps, 0)
            force = sum(cost[d] for d in higher if cost[d] > 0)
            length = (view.hand & SUIT_MASKS[suit]).bit_count()
            return (p_win * max(v, 0.5) * 10 - (1 - p_win) * cost[c] * 4
                    - force * (1 - p_win) + 0.3 * length + 0.05 * st[c])
        v = cost[c] + bonus + 0.3 * best * len(followers)
        return p_win * v * 10 + (1 - p_win) * (-cost[c]) * 4 + 0.05 * st[c]

    def _follow_score(self, view: SeatView, f: _Facts, c: Card) -> float:
        st, cost, sign = f.strength, f.cost, f.sign
        n = view.num_players
        trump = view.trump
        trick = view.trick + (c,)
        led = trick[0] // 13
        bi = _best(trick, trump, st)
        winner = (view.leader + bi) % n
        best = trick[bi]
        k = len(view.trick)
        later = [(view.leader + j) % n for j in range(k + 1, n)]
        unseen = view.unseen
        voids = _voids(view)
        mine = _same_side(view, winner, view.player)
        threat = False
        for p in later:
            if _same_side(view, p, view.player):
                continue
            if not voids[p] >> led & 1:
                if any(_beats(d, best, trump, st) for d in cards_of(unseen & SUIT_MASKS[led])):
                    threat = True
            elif trump is not None and not voids[p] >> trump & 1 and any(
                _beats(d, best, trump, st) for d in cards_of(unseen & SUIT_MASKS[trump])
            ):
                threat = True
        hold = (self.threat if threat else 1.0) if mine else 0.0
        v: float = sum(cost[d] for d in trick) + _trick_bonus(view, sign)
        worst = max((cost[d] for d in cards_of(unseen)), default=0)
        if sign > 0 and later:
            void_later = sum(1 for p in later if voids[p] >> led & 1)
            v += max(worst, 0) * (void_later + self.spec * (len(later) - void_later))
        tie = -sign * st[c] - (1 - hold) * 3 * cost[c]
        if sign > 0 and c // 13 != led:
            # Discarding: shed the costliest card, then high cards of short suits.
            length = (view.hand & SUIT_MASKS[c // 13]).bit_count()
            tie = -st[c] - 3 * cost[c] + 0.5 * length
        return hold * v * 10 + tie
