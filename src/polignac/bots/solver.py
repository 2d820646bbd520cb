"""Exact open-hand solver for every game of the family.

Given a position with every hand known (the trick in progress, who is to
act, the cards taken so far, the declarer), :func:`solve` returns the value
of each legal card for the player to move, and :func:`value` the value of
the position.

The model (documented choices):

* The **mover** (the player to act at the root) maximises its own final
  result of the deal in the game's unit: minus its penalty in the penalty
  games (Polignac family, Slobberhannes family, the Hearts family), its points in Knaves, its
  chip change in Bassadewitz (settled at the leaves from the final card
  points and tricks, docs/rules/bassadewitz.md#scoring, the dealer's stake included).
* **Paranoid**: every other player minimises the mover's result.  In a game
  scored by sides (``Rules.kind.sides``) the two sides are opponents: the
  mover's partner maximises with it, and the result is the side's raw card
  points including the last trick's 3 (zero-sum; the division by three and
  announcements are outside the card play).  Claims are not searched (the
  bots decide them).
* Contracts and slams as docs/rules/common.md#declarations: capot/general (declarer 0 or,
  general-bonus, -5 on success, +5 and its Jacks on failure, opponents +5 on
  success), générale (the declarer's own Jacks never count), the automatic
  chelem of ``polignac-fr``; Slobberhannes' all-three rule.  The all-three
  rule assumes no per-trick points (true of every preset that has it).
* Limits on play and a moon (the Hearts family's, read through the game family's
  hook ``Family.play_limits``: :func:`play_limits`): the
  legal cards at every node are :func:`polignac.core.tricks.restricted_mask`'s
  (:meth:`Position.restrictions`): the first lead and the clean first trick
  when the solve starts in the first trick, and hearts not led before they
  are broken (a card of ``PlayLimits.breakers`` played; derived from the cards out
  of the hands, and part of the table key).  Each card scores its
  ``card_points`` (the Jack of diamonds house rule included).  The moon is
  not additive: the kernel carries who has taken the moon's penalty cards
  (nobody, one player, two or more; in the table key) and, when one player
  took them all, adds at the leaf the mover's score change that
  the family's ``Family.adjust_lines`` gives for that shooter
  (:func:`moon_changes`).  The static bounds widen by that change while the
  moon is open; the bounds from the cards in hand are off in this family
  (the restricted leads and the moon make them unsound).  The best-reply
  model (:meth:`Solver.best_reply_within`, up to 4 players) has the same
  legal cards and settles the moon for every player at the last trick.

The search itself lives in :mod:`polignac.bots.fast` (fail-soft alpha-beta
driven by null-window searches on the value, down from the top over a small
range, a transposition table at trick boundaries keyed on the rank-relative
position (the order within a run of one owner's cards left out), equivalent
cards merged, move ordering, static bounds at trick boundaries from the
points out and the cards in hand, and from the trick in progress), compiled
by numba when it is installed; pass ``pure=True`` to run the same code as
plain Python.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from ..core.cards import CODES, Card, Mask, cards_of
from ..core.deal import Deal
from ..core.family import PlayLimits
from ..core.rules import Contract, Rules
from ..core.scoring import ScoreLine
from ..core.tricks import led_suit, legal_mask, restricted_mask
from . import fast


def _dtype(contract: Contract) -> int:
    """The kernel's code of a contract (``Rules.contract``'s flags): 0 none,
    1 declared, 2 with a bonus, 3 the declarer leads (la générale), 4 automatic."""
    if contract.automatic:
        return 4
    if contract.declarer_leads:
        return 3
    if contract.bonus:
        return 2
    return 1 if contract.declared else 0


@dataclass(frozen=True)
class Position:
    """A trick-play position with every hand known (the solver's input).

    ``winners`` are the winners of the finished tricks, in order; ``taken``
    the cards each player took in them.  Players are numbered as in the deal.
    """

    rules: Rules
    hands: tuple[Mask, ...]
    trick: tuple[Card, ...]
    leader: int
    winners: tuple[int, ...]
    taken: tuple[Mask, ...]
    declarer: int = -1
    dealer: int = 0
    family_state: Any = None
    """The scoring family's state of the deal (``Deal.family_state``, carried
    unread; its ``Family.stake`` says what the dealer put up)."""
    turn_up: int = -1

    @property
    def num_players(self) -> int:
        """Number of players."""
        return len(self.hands)

    @property
    def to_act(self) -> int:
        """The player to act."""
        return (self.leader + len(self.trick)) % len(self.hands)

    @classmethod
    def from_deal(cls, deal: Deal) -> Position:
        """The position of ``deal`` (which must be in trick play).

        Raises:
            ValueError: the deal is not in trick play.
        """
        if deal.phase_name != "play":
            raise ValueError(f"the deal is in phase {deal.phase_name!r}, not trick play")
        return cls(
            rules=deal.rules,
            hands=tuple(deal.hands),
            trick=tuple(deal.trick),
            leader=deal.leader,
            winners=tuple(t.winner for t in deal.past),
            taken=tuple(deal.taken),
            declarer=deal.declarer,
            dealer=deal.dealer,
            family_state=deal.family_state,
            turn_up=-1 if deal.turn_up is None else deal.turn_up,
        )

    def legal_mask(self) -> Mask:
        """The cards the player to act may play (with the Hearts family's
        restrictions, :meth:`restrictions`)."""
        hand = self.hands[self.to_act]
        led = led_suit(self.trick)
        if play_limits(self.rules, self.num_players) is None:
            return legal_mask(hand, led)
        return restricted_mask(hand, led, not self.winners, *self.restrictions())

    def legal_cards(self) -> list[Card]:
        """The cards the player to act may play, ascending."""
        return cards_of(self.legal_mask())

    def restrictions(self) -> tuple[Card, Mask, Mask]:
        """The Hearts family's restrictions on the card to play now, as
        :func:`polignac.core.tricks.restricted_mask` takes them (and as
        ``HeartsDeal.play_restrictions`` gives them): the card that must open
        the first trick (-1: none now), the cards kept off the first trick (0
        after it), the cards that may not be led (0 once hearts are broken:
        a card of :func:`polignac.core.hearts.breakers` has been played)."""
        limits = play_limits(self.rules, self.num_players)
        if limits is None:
            return -1, 0, 0
        first = not self.winners
        opening = limits.opening if first and not self.trick else -1
        clean = limits.clean if first else 0
        unbroken = 0
        if limits.unbroken:
            played = 0
            for t in self.taken:
                played |= t
            for c in self.trick:
                played |= 1 << c
            if not played & limits.breakers:
                unbroken = limits.unbroken
        return opening, clean, unbroken


@dataclass
class Solver:
    """A reusable solver: holds the transposition table (about 16 MB).

    ``pure`` runs the kernel as plain Python (slow; the reference path).
    ``nodes`` counts the search nodes of every solve, ``last_nodes`` those of
    the last one.
    """

    pure: bool = False
    nodes: int = 0
    last_nodes: int = 0
    _k: ModuleType = field(init=False, repr=False)
    _tt: Any = field(init=False, repr=False)
    _mem: Any = field(init=False, repr=False)
    _zob: Any = field(init=False, repr=False)
    _rng: random.Random = field(init=False, repr=False)
    _mx: tuple[Any, Any] | None = field(init=False, repr=False, default=None)
    _perm: list[int] = field(init=False, repr=False, default_factory=list)
    _perms: dict[tuple[int, ...], tuple[list[int], Any]] = field(
        init=False, repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        self._k = fast.pure_kernel() if self.pure or not fast.HAVE_NUMBA else fast
        self._tt = np.zeros(4 << fast.TT_BITS, np.int64)
        zr = np.random.default_rng(20240601)
        self._mem = np.zeros(fast.P_SIZE, np.int64)
        self._zob = self._mem[fast.P_ZOB:fast.P_ZOB + fast.Z_SIZE]
        self._zob[:] = zr.integers(-(1 << 62), 1 << 62, size=fast.Z_SIZE, dtype=np.int64)
        self._rng = random.Random(7)

    def solve(self, pos: Position) -> dict[Card, int]:
        """Return each legal card's exact value for the player to act.

        The value is the mover's final deal result under the model of this
        module (higher is better), assuming best play by everyone afterwards.

        Raises:
            ValueError: the position is finished or malformed.
        """
        values = self.solve_within(pos, 0)
        assert values is not None
        return values

    def solve_within(self, pos: Position, nodes: int) -> dict[Card, int] | None:
        """:meth:`solve` within a budget of ``nodes`` search nodes (0: none).

        Returns None when the budget runs out first.  Whether it does depends
        only on the position (not on earlier solves), so a budget is
        reproducible, unlike a time limit.

        Raises:
            ValueError: the position is finished or malformed.
        """
        args, banked = self._setup(pos)
        st = args[8]
        st[fast.S_LIMIT] = max(0, nodes)
        out = np.zeros(52, np.int64)
        self._k.card_values(self._mem, self._tt, out)
        self.nodes += int(st[fast.S_NODES])
        self.last_nodes = int(st[fast.S_NODES])
        if st[fast.S_ABORT]:
            return None
        perm = self._perm
        return {c: int(out[perm[c]]) + banked for c in pos.legal_cards()}

    def best_reply_within(self, pos: Position, nodes: int) -> dict[Card, int] | None:
        """Each legal card's value for the mover under the *best-reply* model.

        Every player maximises its own future result (its side's when scored by sides);
        among equal choices it takes the one worst for the mover (max^n with
        paranoid tie-breaks).  Exact, within a budget of ``nodes`` search nodes
        (0: none; None when it runs out).  Positions the model does not cover
        (the chips games, a contract or slam in play, more than 4 players) are
        solved with the paranoid model (:meth:`solve_within`).  Slobberhannes'
        all-three bonus is left out of this model (its cards count one by one).

        Raises:
            ValueError: the position is finished or malformed.
        """
        if not best_reply_applies(pos):
            return self.solve_within(pos, nodes)
        args, banked = self._setup(pos)
        g, strength, upts = args[0], args[1], args[2]
        st = args[8]
        n = pos.num_players
        done = len(pos.winners)
        trick = np.zeros(fast.TRICK_SIZE, np.int64)
        perm = self._perm
        for i, c in enumerate(pos.trick):
            trick[done * n + i] = perm[c]
        mst = np.zeros(fast.M_SIZE, np.int64)
        mst[fast.M_LIMIT] = max(0, nodes)
        mst[fast.M_KEY] = st[fast.S_KEY]
        mst[fast.M_NONCE] = int(g[fast.G_NONCE])
        mst[fast.M_MOON] = st[fast.S_MOON]
        if self._mx is None:
            self._mx = (np.zeros(1 << fast.MX_BITS, np.int64),
                        np.zeros(4 << fast.MX_BITS, np.int64))
        vec = np.zeros(fast.MX_VEC, np.int64)
        rootv = np.full(52, -fast.INF, np.int64)
        self._k.maxn(g, strength, upts, self._zob, args[6], trick, vec, mst,
                     self._mx[0], self._mx[1], rootv, pos.leader, len(pos.trick), done, 0)
        self.nodes += int(mst[fast.M_NODES])
        self.last_nodes = int(mst[fast.M_NODES])
        if mst[fast.M_ABORT]:
            return None
        return {c: int(rootv[perm[c]]) + banked for c in pos.legal_cards()}

    def value(self, pos: Position, player: int | None = None) -> int:
        """Return the exact value of the position for ``player`` (default: the player to act).

        Raises:
            ValueError: the position is finished or malformed.
        """
        v = self.value_within(pos, 0, player)
        assert v is not None
        return v

    def value_within(self, pos: Position, nodes: int, player: int | None = None) -> int | None:
        """:meth:`value` within a budget of ``nodes`` search nodes (0: none).

        Returns None when the budget runs out first (reproducibly, as
        :meth:`solve_within`).

        Raises:
            ValueError: the position is finished or malformed.
        """
        args, banked = self._setup(pos, player)
        st = args[8]
        st[fast.S_LIMIT] = max(0, nodes)
        v = int(self._k.root_value(self._mem, self._tt))
        self.nodes += int(st[fast.S_NODES])
        self.last_nodes = int(st[fast.S_NODES])
        if st[fast.S_ABORT]:
            return None
        return v + banked

    # ------------------------------------------------------------ set-up

    def _setup(self, pos: Position, player: int | None = None) -> tuple[tuple[Any, ...], int]:
        """Build the kernel's arrays for ``pos`` in the packed memory; return
        views of them ``(g, strength, upts, pts, order1, zob, hands, trick, st,
        owner, work)`` and the banked result.

        Raises:
            ValueError: the position is finished or malformed.
        """
        arrays = build(pos, self._rng.getrandbits(62), player)
        g, strength, upts, pts, order, _hands, _trick, st, banked = arrays
        if not any(pos.hands):
            raise ValueError("the position is finished: no cards left to play")
        # The kernel numbers the cards of each suit weakest first (so that a
        # suit's cards in strength order are its bits in order): ``perm[c]``
        # is card ``c``'s number there, ``inv`` the reverse.
        strength_rank = pos.rules.strength()
        cached = self._perms.get(strength_rank)
        if cached is None:
            perm_l = [0] * 52
            for s in range(4):
                ranks = sorted(range(13), key=lambda r: (strength_rank[r], r))
                for i, r in enumerate(ranks):
                    perm_l[13 * s + r] = 13 * s + i
            inv_a = np.zeros(52, np.int64)
            for c, k in enumerate(perm_l):
                inv_a[k] = c
            cached = self._perms[strength_rank] = (perm_l, inv_a)
        perm, inv = cached
        self._perm = perm

        def remap(m: int) -> int:
            r = 0
            while m:
                low = m & -m
                r |= 1 << perm[low.bit_length() - 1]
                m ^= low
            return r

        mem = self._mem
        mem[fast.P_G:fast.P_G + fast.G_SIZE] = g
        if g[fast.G_HEARTS]:  # the family's cards and masks in the kernel's numbering
            pg = fast.P_G
            for i in (fast.G_CLEAN, fast.G_UNBROKEN, fast.G_BREAKERS, fast.G_MOONPEN):
                mem[pg + i] = remap(int(g[i]))
            if g[fast.G_OPEN] >= 0:
                mem[pg + fast.G_OPEN] = perm[int(g[fast.G_OPEN])]
        mem[fast.P_STR:fast.P_STR + 52] = strength[inv]
        mem[fast.P_UPTS:fast.P_UPTS + 52] = upts[inv]
        mem[fast.P_PTS:fast.P_PTS + 52] = pts[inv]
        flat = order.ravel()
        mem[fast.P_ORDER:fast.P_ORDER + 52] = np.where(flat >= 0, np.array(perm)[flat], -1)
        mem[fast.P_ST:fast.P_ST + fast.S_SIZE] = st
        mem[fast.P_HANDS:fast.P_HANDS + 16] = 0
        for p, h in enumerate(pos.hands):
            mem[fast.P_HANDS + p] = remap(h)
            m = h
            while m:
                low = m & -m
                mem[fast.P_OWNER + perm[low.bit_length() - 1]] = p
                m ^= low
        for i, c in enumerate(pos.trick):
            mem[fast.P_TRICK + i] = perm[c]
        args = (mem[fast.P_G:fast.P_G + fast.G_SIZE], mem[fast.P_STR:fast.P_STR + 52],
                mem[fast.P_UPTS:fast.P_UPTS + 52], mem[fast.P_PTS:fast.P_PTS + 52],
                mem[fast.P_ORDER:fast.P_ORDER + 52], self._zob,
                mem[fast.P_HANDS:fast.P_HANDS + 16],
                mem[fast.P_TRICK:fast.P_TRICK + fast.TRICK_SIZE],
                mem[fast.P_ST:fast.P_ST + fast.S_SIZE],
                mem[fast.P_OWNER:fast.P_OWNER + 52],
                mem[fast.P_WORK:fast.P_WORK + fast.WORK_SIZE])
        # the incremental Zobrist key of the hands
        key = 0
        zob = self._zob
        for p in range(pos.num_players):
            m = int(args[6][p])
            while m:
                low = m & -m
                key ^= int(zob[p * 52 + low.bit_length() - 1])
                m ^= low
        args[8][fast.S_KEY] = key
        return args, banked


def build(pos: Position, nonce: int = 0, player: int | None = None) -> tuple[Any, ...]:
    """Return the kernel arrays of ``pos`` and the mover's banked additive result.

    Returns ``(g, strength, upts, pts, order, hands, trick, st, banked)``; the
    Zobrist key ``st[S_KEY]`` is left 0.

    Raises:
        ValueError: more than 16 players or a trick longer than the table.
    """
    r = pos.rules
    n = pos.num_players
    if n > 16 or len(pos.trick) >= n:
        raise ValueError("malformed position: at most 16 players and a partial trick")
    me = pos.to_act if player is None else player
    kind = r.kind
    side = 1 if kind.sides else 0
    mode = 1 if kind.chips else 0
    sign = -1 if kind.penalty else 1
    points = r.point_table()
    strength_rank = r.strength()
    in_play = 0
    for h in pos.hands:
        in_play |= h
    for t in pos.taken:
        in_play |= t
    for c in pos.trick:
        in_play |= 1 << c
    g = np.zeros(fast.G_SIZE, np.int64)
    dtype = 0
    if pos.declarer >= 0 or r.contract.automatic:
        dtype = _dtype(r.contract)
    generale_me = dtype == 3 and pos.declarer == me
    upts = np.zeros(52, np.int64)
    pts = np.zeros(52, np.int64)
    for c in range(52):
        if in_play >> c & 1:
            pts[c] = points[c]
            if mode == 0 and not generale_me:
                upts[c] = sign * points[c]
    strength = np.array([strength_rank[c % 13] for c in range(52)], np.int64)
    order = np.full((4, 13), -1, np.int64)
    for s in range(4):
        cards = sorted((c for c in range(13 * s, 13 * s + 13) if in_play >> c & 1),
                       key=lambda c: strength[c])
        for i, c in enumerate(cards):
            order[s, i] = c
    total_tricks = in_play.bit_count() // n
    eldest = (pos.dealer + 1) % n
    tp = 0 if mode == 1 or generale_me else sign * r.trick_points
    first = 0 if mode == 1 or generale_me else sign * r.first_trick_points
    last = 0 if mode == 1 or generale_me else sign * r.last_trick_points
    g[fast.G_N] = n
    g[fast.G_ME] = me
    g[fast.G_SIDE] = side
    g[fast.G_TRUMP] = pos.turn_up // 13 if r.has_turn_up and pos.turn_up >= 0 else -1
    g[fast.G_MODE] = mode
    g[fast.G_SLAM] = 1 if dtype else 0
    g[fast.G_DECL] = pos.declarer
    g[fast.G_DTYPE] = dtype
    g[fast.G_V] = r.contract_points
    g[fast.G_TOTAL_U] = int(upts.sum()) + tp * total_tricks + first + last
    g[fast.G_FIRST] = first
    g[fast.G_LAST] = last
    g[fast.G_TRICK] = tp
    if r.all_three_points is not None and mode == 0:
        g[fast.G_ALL3] = 1
        pc = sum(points[c] for c in range(52) if in_play >> c & 1)
        g[fast.G_ALL3_ADJ] = sign * r.all_three_points - (pc * sign + first + last)
    g[fast.G_TOTAL_TRICKS] = total_tricks
    stake = r.scorer.stake(r, pos.family_state)  # the scoring family's (its pool)
    g[fast.G_POOL_IN] = 1 if stake else 0
    g[fast.G_DEALER] = pos.dealer
    g[fast.G_ELDEST] = eldest
    g[fast.G_POOL] = stake
    g[fast.G_SWEEP_CHIPS] = r.sweep_chips
    g[fast.G_OVER_PTS] = r.overload_points
    g[fast.G_OVER_CHIPS] = r.overload_chips
    g[fast.G_NSHARES] = min(len(r.pool_shares), 4)
    for i, share in enumerate(r.pool_shares[:4]):
        g[fast.G_SHARE0 + i] = share
    g[fast.G_TRICK_PTS] = r.trick_points if mode == 1 else 0
    g[fast.G_NONCE] = nonce
    limits = play_limits(r, n)
    if limits is not None:
        _limit_params(pos, limits, g, in_play, me, sign)
    g[fast.G_RANGE] = (int(np.abs(upts).sum()) + abs(tp) * total_tricks + abs(first) + abs(last)
                       + 2 * r.contract_points + abs(int(g[fast.G_TOTAL_U]))
                       + abs(int(g[fast.G_ALL3_ADJ])) + r.pool
                       + n * (r.sweep_chips + n * r.overload_chips)
                       + int(g[fast.G_MOONHI]) - int(g[fast.G_MOONLO]) + 1)
    if (mode == 0 and not dtype and not side and g[fast.G_TRUMP] < 0 and not g[fast.G_ALL3]
            and limits is None):
        g[fast.G_PLAYB] = 1
    hands = np.zeros(16, np.int64)
    for p, h in enumerate(pos.hands):
        hands[p] = h
    trick = np.zeros(fast.TRICK_SIZE, np.int64)
    for i, c in enumerate(pos.trick):
        trick[i] = c
    st = np.zeros(fast.S_SIZE, np.int64)
    st[fast.S_LEADER] = pos.leader
    st[fast.S_TL] = len(pos.trick)
    st[fast.S_DONE] = len(pos.winners)
    st[fast.S_SWEEP] = -1
    st[fast.S_FWME] = -1
    st[fast.S_LASTW] = -1
    st[fast.S_MOON] = -1
    if g[fast.G_MOON]:
        pen = int(g[fast.G_MOONPEN])
        takers = [p for p in range(n) if pos.taken[p] & pen]
        st[fast.S_MOON] = takers[0] if len(takers) == 1 else -2 if takers else -1
    out = 0
    for h in pos.hands:
        out |= h
    for c in pos.trick:
        out |= 1 << c
    st[fast.S_NEGL] = sum(int(upts[c]) for c in range(52) if out >> c & 1 and upts[c] < 0)
    st[fast.S_POSL] = sum(int(upts[c]) for c in range(52) if out >> c & 1 and upts[c] > 0)
    banked = 0
    mine = [(p & 1) == (me & 1) if side else p == me for p in range(n)]
    for i, w in enumerate(pos.winners):
        if i == 0:
            st[fast.S_SWEEP] = w
            st[fast.S_FWME] = 1 if w == me else 0
        elif st[fast.S_SWEEP] != w:
            st[fast.S_SWEEP] = -2
        st[fast.S_NTR + w] += 1
        st[fast.S_LASTW] = w
        if mine[w]:
            banked += tp + (first if i == 0 else 0) + (last if i == total_tricks - 1 else 0)
    for p in range(n):
        t = pos.taken[p]
        cp = sum(points[c] for c in range(52) if t >> c & 1)
        st[fast.S_CPS + p] = cp + (r.trick_points * int(st[fast.S_NTR + p]) if mode else 0)
        if mine[p]:
            banked += sum(int(upts[c]) for c in range(52) if t >> c & 1)
        elif cp or any(points[c] for c in range(52) if t >> c & 1):
            st[fast.S_OTHERPT] = 1
    return g, strength, upts, pts, order, hands, trick, st, banked


def play_limits(rules: Rules, n: int) -> PlayLimits | None:
    """The game family's limits on trick play and its moon for ``rules`` with ``n``
    players (``Family.play_limits``: the Hearts family's first trick, hearts
    breaking, the moon); None: none.  Cached per rule set and player count."""
    hit = _LIMITS.get((id(rules), n))
    if hit is None or hit[0] is not rules:
        if len(_LIMITS) >= 256:
            _LIMITS.clear()
        hit = _LIMITS[id(rules), n] = (rules, rules.family.play_limits(rules, n))
    return hit[1]


_LIMITS: dict[tuple[int, int], tuple[Rules, PlayLimits | None]] = {}


_MOON: dict[tuple[int, int], tuple[Rules, tuple[tuple[int, ...], ...]]] = {}


def moon_changes(rules: Rules, n: int) -> tuple[tuple[int, ...], ...]:
    """``out[s][p]``: how much player ``p``'s deal score changes when player ``s``
    shoots the moon (takes every card of ``PlayLimits.moon``), by the rule's own
    scoring (the game family's ``Family.adjust_lines``, asked once per shooter with
    the penalty cards' lines; cached).  The solver assumes, as that rule does,
    that the change depends on the shooter alone, not on the other cards taken.
    """
    hit = _MOON.get((id(rules), n))
    if hit is not None and hit[0] is rules:
        return hit[1]
    pts = rules.point_table()
    limits = play_limits(rules, n)
    codes = [CODES[c] for c in cards_of(limits.moon if limits is not None else 0)]
    out = []
    for s in range(n):
        per = [[ScoreLine(p, pts[CODES.index(c)], "card", c) for c in codes] if p == s else []
               for p in range(n)]
        after = rules.family.adjust_lines(rules, n, dict.fromkeys(codes, s), per)
        out.append(tuple(sum(x.points for x in after[p]) - sum(x.points for x in per[p])
                         for p in range(n)))
    if len(_MOON) >= 64:
        _MOON.clear()
    _MOON[id(rules), n] = (rules, tuple(out))
    return tuple(out)


def _limit_params(pos: Position, limits: PlayLimits, g: Any, in_play: Mask, me: int,
                  sign: int) -> None:
    """Set the kernel parameters of the game family's ``limits`` on play and its
    moon (``Family.play_limits``) for ``pos`` in ``g`` (the cards' own numbering)."""
    r = pos.rules
    n = pos.num_players
    g[fast.G_HEARTS] = 1
    g[fast.G_OPEN] = limits.opening
    g[fast.G_CLEAN] = limits.clean & in_play
    g[fast.G_UNBROKEN] = limits.unbroken
    g[fast.G_BREAKERS] = limits.breakers & in_play
    pen = limits.moon
    if pen and not pen & ~in_play:
        g[fast.G_MOON] = 1
        g[fast.G_MOONPEN] = pen
        changes = moon_changes(r, n)
        for s in range(n):
            g[fast.G_MOONV + s] = sign * changes[s][me]
        g[fast.G_MOONLO] = min(0, *(int(g[fast.G_MOONV + s]) for s in range(n)))
        g[fast.G_MOONHI] = max(0, *(int(g[fast.G_MOONV + s]) for s in range(n)))
        for s in range(min(n, 4)):  # every player's change, for the best-reply search
            for q in range(min(n, 4)):
                g[fast.G_MOONM + 4 * s + q] = sign * changes[s][q]


def best_reply_applies(pos: Position) -> bool:
    """Whether the best-reply model covers ``pos`` (additive scoring or the Hearts
    family's moon, no contract, <= 4 players)."""
    r = pos.rules
    if r.kind.chips or pos.num_players > 4:
        return False
    return not (pos.declarer >= 0 or r.contract.automatic)


_DEFAULT: dict[bool, Solver] = {}


def default_solver(pure: bool = False) -> Solver:
    """Return the shared solver of this process (one table per path)."""
    s = _DEFAULT.get(pure)
    if s is None:
        s = _DEFAULT[pure] = Solver(pure=pure)
    return s


def solve(pos: Position | Deal, pure: bool = False) -> dict[Card, int]:
    """Each legal card's exact value for the player to act (see :class:`Solver`).

    Raises:
        ValueError: the position is finished or not in trick play.
    """
    if isinstance(pos, Deal):
        pos = Position.from_deal(pos)
    return default_solver(pure).solve(pos)


def value(pos: Position | Deal, pure: bool = False) -> int:
    """The exact value of the position for the player to act.

    Raises:
        ValueError: the position is finished or not in trick play.
    """
    if isinstance(pos, Deal):
        pos = Position.from_deal(pos)
    return default_solver(pure).value(pos)


def final_result(deal: Deal, player: int) -> int:
    """The result of a finished ``deal`` for ``player`` under the solver's model,
    higher better: the scoring family's :meth:`~polignac.core.families.Family.solver_result`
    (minus the penalty, the points, the chips, or the side's raw card points).

    Raises:
        IllegalActionError: the deal is not finished.
    """
    return deal.rules.scorer.solver_result(deal, player)
