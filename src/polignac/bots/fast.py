# mypy: disable-error-code="no-any-return"
"""The solver's compact kernel: ints, bitmasks and flat int64 arrays, compiled by numba.

Everything here is written in the subset of Python that numba compiles, and
runs unchanged as plain Python: :func:`pure_kernel` loads a second copy of
this module with compilation switched off, which is the reference path the
tests compare the compiled kernel against (and the fallback when numba is
not installed).

State of a position (all ``int64`` numpy arrays, mutated by push/pop):

``hands[p]``
    player ``p``'s cards as a 52-bit mask.
``trick[st[S_TB] + i]``
    the cards of the trick in progress, in play order (each trick has its own
    ``n`` slots, so finished tricks stay intact while the search backs up).
``st``
    scalars, indexed by the ``S_*`` constants: leader, cards in the trick,
    tricks finished, the sweep state (the player who has won every trick so
    far; -1 before the first trick, -2 once two players have won one), whether
    the first trick went to the mover, whether anyone else took a point card,
    the last trick's winner, the incremental Zobrist key, a node counter, the
    sums of the negative and of the positive ``upts`` still out, who has taken
    the moon's penalty cards (the Hearts family), and
    from ``S_CPS`` the card points (``S_CPS + p``) and tricks (``S_NTR + p``)
    of each player (used by the chips games).

Static data of a solve: ``g`` (the ``G_*`` parameters), ``strength[c]``,
``upts[c]`` (what card ``c`` is worth to the mover when the mover, or in
a game scored by sides the mover's side, takes it: minus its penalty, or plus its points),
``pts[c]`` (raw card points, for the chips games), ``order[s, i]`` (suit ``s``'s
cards from weakest to strongest, -1 padded), ``zob`` (Zobrist numbers).

The search (:func:`search`, driven by :func:`card_values` and
:func:`root_value`) gets all of these as views of one packed int64 array
``mem`` (offsets ``P_*``) plus the table ``tt``, and numbers the cards of each
suit weakest first (the solver remaps them), so that a suit's cards in
strength order are its bits in order: candidate generation, merging of
equivalent cards, lead ordering and the rank-relative table key are bit
operations.  The helpers are inlined into it and it runs without numba's
reference counting.  The functions that take the separate arrays
(:func:`play_card`, :func:`legal_mask`, :func:`leaf_value`,
:func:`random_playouts`, :func:`maxn`) work with either numbering.

The value a search returns is the mover's *future* result: the final deal
result minus what the mover has already banked in the additive part, so
that the transposition table can share positions reached with different
histories.  Parts of the result that are not additive (a slam, Slobberhannes'
all three, Bassadewitz chips, the moon) are computed at the leaves from the summary in
``st``, and that summary is part of the table key whenever it matters.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from collections.abc import Callable
from typing import Any

import numpy as np

_PURE: bool = bool(globals().get("_PURE", False))

if not _PURE:
    try:
        import numba

        def _jit(f: Any) -> Any:
            return numba.njit(cache=True, nogil=True)(f)

        def _jit_inline(f: Any) -> Any:
            # small helpers of the search: inlined into it at numba's level
            # (no call with a dozen array arguments and their reference counts)
            return numba.njit(cache=True, nogil=True, inline="always")(f)

        def _jit_sig(sig: str) -> Callable[[Any], Any]:
            # A self-recursive function is cached safely only when compiled
            # eagerly for an explicit signature (numba issue #6061: a lazily
            # typed one crashes when reloaded from the cache).  These search
            # functions allocate nothing, so the reference counting of their
            # array arguments is switched off (``_nrt``: no atomic increments
            # and decrements at every node).  LLVM's loop vectorizer is off
            # while they compile: it turns the 3-5 card loops over a trick
            # into masked gathers, about 15% slower here.
            opts: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}

            def deco(f: Any) -> Any:
                cfg: Any = numba.config
                saved = cfg.LOOP_VECTORIZE
                cfg.LOOP_VECTORIZE = 0
                try:
                    return numba.njit(sig, **opts)(f)
                finally:
                    cfg.LOOP_VECTORIZE = saved
            return deco

        HAVE_NUMBA = True
    except ImportError:  # pragma: no cover - numba is in the `bots` extra
        HAVE_NUMBA = False

        def _jit(f: Any) -> Any:
            return f

        _jit_inline = _jit

        def _jit_sig(sig: str) -> Callable[[Any], Any]:
            return _jit
else:
    HAVE_NUMBA = False

    def _jit(f: Any) -> Any:
        return f

    _jit_inline = _jit

    def _jit_sig(sig: str) -> Callable[[Any], Any]:
        return _jit


# -------------------------------------------------------------- parameters
G_N = 0  # players
G_ME = 1  # the mover whose result is searched
G_SIDE = 2  # 1: partnerships (scored by sides), players p and p+2 are one side
G_TRUMP = 3  # trump suit or -1
G_MODE = 4  # 0 additive, 1 chips
G_SLAM = 5  # 1: who takes every trick matters (contract or chelem)
G_DECL = 6  # declarer or -1
G_DTYPE = 7  # 0 none, 1 capot/general, 2 general-bonus, 3 generale, 4 chelem
G_V = 8  # contract points
G_TOTAL_U = 9  # the mover's additive result if it took every card and trick
G_FIRST = 10  # value to the mover of taking the first trick
G_LAST = 11  # value to the mover of taking the last trick
G_TRICK = 12  # value to the mover of taking any trick
G_ALL3 = 13  # 1: Slobberhannes' all-three rule applies
G_ALL3_ADJ = 14  # result change when the mover takes all three
G_TOTAL_TRICKS = 15
G_POOL_IN = 16
G_DEALER = 17
G_ELDEST = 18
G_POOL = 19
G_SWEEP_CHIPS = 20
G_OVER_PTS = 21
G_OVER_CHIPS = 22
G_NSHARES = 23
G_SHARE0 = 24  # up to 4 pool shares
G_TRICK_PTS = 28  # raw points per trick (chips games' card points)
G_NONCE = 29  # per-solve salt of the table keys
G_RANGE = 30  # a bound on the absolute value of any result
G_PLAYB = 31  # 1: the bounds from the cards in hand apply (:func:`_hand_bounds`)
# The Hearts family (core/tricks.py:restricted_mask, core/hearts.py), masks and cards
# in the numbering of the arrays they come with (the solver remaps them):
G_HEARTS = 32  # 1: the leads and the first trick are restricted (:func:`_restricted`)
G_OPEN = 33  # the card that must open the first trick, or -1
G_CLEAN = 34  # the cards kept off the first trick while the hand holds another
G_UNBROKEN = 35  # the cards not led before hearts are broken (while the hand holds another)
G_BREAKERS = 36  # the cards in play whose play breaks hearts (broken: one is out of the hands)
G_MOON = 37  # 1: shooting the moon applies (a non-additive part, :func:`leaf_value`)
G_MOONPEN = 38  # the moon's penalty cards (whoever takes them all shoots the moon)
G_MOONLO = 39  # min(0, the least of the G_MOONV values)
G_MOONHI = 40  # max(0, the greatest of the G_MOONV values)
G_MOONV = 41  # G_MOONV + s: the mover's result change when player s shoots the moon
G_MOONM = 57  # G_MOONM + 4 * s + q: player q's result change when s shoots (s, q < 4: maxn)
G_SIZE = 80

# ------------------------------------------------------------------ state
S_LEADER = 0
S_TL = 1  # cards in the trick in progress
S_DONE = 2  # tricks finished
S_SWEEP = 3
S_FWME = 4  # first trick taken by the mover's side (1), by another (0), not yet (-1)
S_OTHERPT = 5  # someone other than the mover took a point card
S_LASTW = 6
S_KEY = 7
S_NODES = 8
S_TB = 9  # where the trick in progress starts in ``trick`` (one slot run per trick)
S_NEGL = 10  # sum of the negative ``upts`` of the cards not yet in a finished trick
S_POSL = 11  # sum of the positive ``upts`` of the cards not yet in a finished trick
S_LIMIT = 12  # node budget of the solve (0: none)
S_ABORT = 13  # set to 1 when the budget ran out: the results are then meaningless
S_MOON = 14  # the moon: who has taken the moon's penalty cards: -1 nobody yet, p only p, -2 two
S_CPS = 16
S_NTR = 32
S_SIZE = 48

INF = 1 << 40
TRICK_SIZE = 256  # trick slots: 17 tricks of up to 15 cards
WORK_SIZE = 32 * TRICK_SIZE  # the search's scratch space (32 slots per ply)
TT_BITS = 19  # table slots (two a bucket): 16 MB

# The search's packed memory ``mem``: every array of a solve in one int64
# array (a recursive call then passes two arrays, not fourteen), each at its
# offset; :func:`_unpack` returns the views.  ``order`` is kept flat there
# (``order1[13 * s + i]``).  The table ``tt`` holds four numbers per slot
# (key, low bound, high bound, and a tag: the solve's stamp, the trick index
# and the move) side by side, two slots a bucket: one cache line a probe.
P_G = 0
P_STR = P_G + G_SIZE
P_UPTS = P_STR + 52
P_PTS = P_UPTS + 52
P_ORDER = P_PTS + 52
P_HANDS = P_ORDER + 52
P_ST = P_HANDS + 16
P_TRICK = P_ST + S_SIZE
P_OWNER = P_TRICK + TRICK_SIZE  # owner[c]: who holds card c (cards never change hands)
P_WORK = P_OWNER + 52

# Zobrist table layout: (player, card) numbers, then the summary's numbers.
Z_LEADER = 16 * 52
Z_SWEEP = Z_LEADER + 16
Z_FW = Z_SWEEP + 20
Z_OP = Z_FW + 4
Z_NTR = Z_OP + 2
Z_CPS = Z_NTR + 16
Z_REL = Z_CPS + 16 * 256  # (suit, place among the suit's live cards, owner)
Z_PV = Z_REL + 52 * 16  # (suit, place, card points mod 16)
Z_BROKEN = Z_PV + 52 * 16  # the Hearts family: hearts broken
Z_MOON = Z_BROKEN + 1  # the moon state st[S_MOON] + 2
Z_QB = Z_MOON + 18  # (suit, place) of a live breaker outside hearts before hearts break
Z_SIZE = Z_QB + 52
P_ZOB = P_WORK + WORK_SIZE
P_SIZE = P_ZOB + Z_SIZE


@_jit_inline
def _wrap(x: int, n: int) -> int:
    """``x % n`` for ``0 <= x < 2 * n`` (a seat past the last wraps round), without a division."""
    return x - n if x >= n else x


@_jit_inline
def _mine(g: Any, p: int) -> bool:
    me = g[G_ME]
    if g[G_SIDE] == 1:
        return (p & 1) == (me & 1)
    return p == me


# The trick rules (polignac.core.tricks), the kernel's own copy for speed:
# _follow, _beats and _taking; tests/bots/test_kernel_tricks.py checks them
# against core.tricks over every preset.


@_jit_inline
def _follow(h: Any, led: int) -> Any:
    """The cards of hand ``h`` that may be played to a trick led in suit ``led``
    (``led`` < 0: on lead): ``core.tricks.legal_mask``."""
    if led >= 0:
        f = h & (np.int64(0x1FFF) << np.int64(13 * led))
        if f != 0:
            return f
    return h


@_jit_inline
def _restricted(g: Any, h: Any, led: int, first: bool, broken: bool) -> Any:
    """The cards of hand ``h`` that may be played with the Hearts family's
    restrictions (``g[G_OPEN]``, ``g[G_CLEAN]``, ``g[G_UNBROKEN]``), led suit
    ``led`` (< 0: on lead), in the first trick or not, hearts broken or not:
    ``core.tricks.restricted_mask``."""
    if led >= 0:
        f = h & (np.int64(0x1FFF) << np.int64(13 * led))
        if f != 0:
            return f
        if first:
            f = h & ~g[G_CLEAN]
            if f != 0:
                return f
        return h
    if first:
        if g[G_OPEN] >= 0:
            f = h & (np.int64(1) << np.int64(g[G_OPEN]))
            if f != 0:
                return f
            return h
        f = h & ~g[G_CLEAN]
        if f != 0:
            h = f
    if not broken:
        f = h & ~g[G_UNBROKEN]
        if f != 0:
            return f
    return h


@_jit_inline
def _beats(c: int, bc: int, trump: int, strength: Any) -> bool:
    """Whether card ``c`` takes the trick from ``bc``, the card winning it so far
    (``core.tricks.beats``)."""
    if c // 13 == bc // 13:
        return strength[c] > strength[bc]
    return c // 13 == trump


@_jit_inline
def _taking(g: Any, strength: Any, trick: Any, base: int, count: int) -> int:
    """Index (in play order) of the card that takes ``trick[base:base + count]`` so far
    (``core.tricks.winning_index``)."""
    trump = g[G_TRUMP]
    best = 0
    bc = trick[base]
    for i in range(1, count):
        c = trick[base + i]
        if _beats(c, bc, trump, strength):
            best = i
            bc = c
    return best


@_jit_inline
def trick_winner(g: Any, strength: Any, trick: Any, base: int, leader: int) -> int:
    """Return the player who wins the full trick ``trick[base:base + n]`` led by ``leader``."""
    n = g[G_N]
    return _wrap(leader + _taking(g, strength, trick, base, n), n)


@_jit_inline
def _trick_points(upts: Any, pts: Any, trick: Any, tb: int, n: int) -> tuple[int, int, int]:
    """The trick ``trick[tb:tb + n]``'s raw card points, and its negative and
    positive search points (what playing and undoing the trick adjust)."""
    raw = 0
    neg = 0
    pos = 0
    for i in range(n):
        c = trick[tb + i]
        raw += pts[c]
        u = upts[c]
        if u < 0:
            neg += u
        else:
            pos += u
    return raw, neg, pos


@_jit_inline
def legal_mask(g: Any, hands: Any, trick: Any, st: Any) -> int:
    """Return the cards the player to act may play (with the Hearts family's
    restrictions when ``g[G_HEARTS]``: hearts are broken once a card of
    ``g[G_BREAKERS]`` has left the hands)."""
    n = g[G_N]
    p = _wrap(st[S_LEADER] + st[S_TL], n)
    if g[G_HEARTS] == 1:
        led = trick[st[S_TB]] // 13 if st[S_TL] > 0 else -1
        broken = True
        if led < 0:
            live = np.int64(0)
            for q in range(n):
                live |= hands[q]
            broken = g[G_BREAKERS] & ~live != 0
        return _restricted(g, hands[p], led, st[S_DONE] == 0, broken)
    if st[S_TL] > 0:
        return _follow(hands[p], trick[st[S_TB]] // 13)
    return hands[p]


@_jit_inline
def play_card(g: Any, strength: Any, upts: Any, pts: Any, zob: Any,
              hands: Any, trick: Any, st: Any, c: int) -> int:
    """Play card ``c`` for the player to act; return the mover's additive gain.

    When the card completes a trick the trick is resolved (winner, card
    points, summary).  No legality check: callers pass legal cards.
    """
    n = g[G_N]
    tl = st[S_TL]
    p = _wrap(st[S_LEADER] + tl, n)
    hands[p] ^= np.int64(1) << np.int64(c)
    st[S_KEY] ^= zob[p * 52 + c]
    tb = st[S_TB]
    trick[tb + tl] = c
    tl += 1
    if tl < n:
        st[S_TL] = tl
        return 0
    w = trick_winner(g, strength, trick, tb, st[S_LEADER])
    done = st[S_DONE]
    gain = 0
    raw, neg, pos = _trick_points(upts, pts, trick, tb, n)
    st[S_NEGL] -= neg
    st[S_POSL] -= pos
    if _mine(g, w):
        for i in range(n):
            gain += upts[trick[tb + i]]
        gain += g[G_TRICK]
        if done == 0:
            gain += g[G_FIRST]
        if done + 1 == g[G_TOTAL_TRICKS]:
            gain += g[G_LAST]
    elif raw != 0 or g[G_MODE] == 0:
        for i in range(n):
            if pts[trick[tb + i]] != 0:
                st[S_OTHERPT] = 1
    if g[G_MOON] == 1:
        for i in range(n):
            if (g[G_MOONPEN] >> np.int64(trick[tb + i])) & 1 != 0:
                mo = st[S_MOON]
                if mo == -1:
                    st[S_MOON] = w
                elif mo != w:
                    st[S_MOON] = -2
                break
    if done == 0:
        st[S_SWEEP] = w
        st[S_FWME] = 1 if w == g[G_ME] else 0
    elif st[S_SWEEP] != w:
        st[S_SWEEP] = -2
    st[S_CPS + w] += raw + g[G_TRICK_PTS]
    st[S_NTR + w] += 1
    st[S_LASTW] = w
    st[S_LEADER] = w
    st[S_TL] = 0
    st[S_TB] = tb + n
    st[S_DONE] = done + 1
    return gain


@_jit_inline
def leaf_value(g: Any, st: Any) -> int:
    """Return the non-additive part of the mover's result of a finished deal."""
    me = g[G_ME]
    n = g[G_N]
    if g[G_MODE] == 1:
        chips = 0
        if g[G_POOL_IN] == 1 and me == g[G_DEALER]:
            chips -= g[G_POOL]
        sw = st[S_SWEEP]
        if sw >= 0:
            if sw == me:
                return chips + g[G_SWEEP_CHIPS] * (n - 1)
            return chips - g[G_SWEEP_CHIPS]
        over = False
        for q in range(n):
            if st[S_CPS + q] >= g[G_OVER_PTS]:
                over = True
                if q == me:
                    chips -= g[G_OVER_CHIPS] * (n - 1)
                else:
                    chips += g[G_OVER_CHIPS]
        if over:
            return chips
        same = True
        for q in range(1, n):
            if st[S_CPS + q] != st[S_CPS]:
                same = False
        if same:
            return chips
        mc = st[S_CPS + me]
        mt = 1 if st[S_NTR + me] > 0 else 0
        md = (me - g[G_ELDEST]) % n
        place = 0
        for q in range(n):
            if q == me:
                continue
            qc = st[S_CPS + q]
            qt = 1 if st[S_NTR + q] > 0 else 0
            qd = (q - g[G_ELDEST]) % n
            if qc < mc or (qc == mc and (qt < mt or (qt == mt and qd < md))):
                place += 1
        if place < g[G_NSHARES]:
            chips += g[G_SHARE0 + place]
        return chips
    adj = 0
    if g[G_SLAM] == 1:
        sw = st[S_SWEEP]
        dt = g[G_DTYPE]
        d = g[G_DECL]
        v = g[G_V]
        if dt == 4:
            if sw >= 0:
                adj = -g[G_TOTAL_U] if sw == me else -v
        elif dt == 3:
            if me == d:
                adj = 0 if sw == d else -v
            elif sw == d:
                adj = -v
        elif d >= 0:
            if sw == d:
                adj = -g[G_TOTAL_U] + (v if dt == 2 else 0) if me == d else -v
            elif me == d:
                adj = -v
    if g[G_ALL3] == 1 and st[S_FWME] == 1 and st[S_LASTW] == me and st[S_OTHERPT] == 0:
        adj += g[G_ALL3_ADJ]
    if g[G_MOON] == 1 and st[S_MOON] >= 0:
        adj += g[G_MOONV + st[S_MOON]]
    return adj


@_jit_inline
def _summary_key(g: Any, zob: Any, pts: Any, owner: Any, hands: Any, st: Any) -> int:
    """Table key at a trick boundary: the hands up to relabelling of ranks.

    The key does not include the solve's salt ``g[G_NONCE]``: the search
    picks the table slot from this key and stores it salted, so which slots
    a solve uses (and so its node count) does not depend on earlier solves.

    Each suit's cards still in hands are listed by strength and only their
    owners and point values enter the key: positions that differ only in
    which cards are gone are the same game.  Within a run of consecutive live
    cards of one owner the order does not matter either (they compare alike
    with every other card and never meet in a trick), so the run's point
    cards are keyed at its first places, in strength order.
    """
    n = g[G_N]
    live = np.int64(0)
    for q in range(n):
        live |= hands[q]
    k = zob[Z_LEADER + st[S_LEADER]]
    for s in range(4):
        m = (live >> np.int64(13 * s)) & 0x1FFF
        slot = s * 13
        ro = -1  # the owner of the current run, the place of its next point card
        rp = 0
        while m != 0:
            c = 13 * s + low_index(m)
            m &= m - 1
            o = owner[c]
            if o != ro:
                ro = o
                rp = slot
            k ^= zob[Z_REL + slot * 16 + o]
            if pts[c] != 0:
                k ^= zob[Z_PV + rp * 16 + (pts[c] & 15)]
                rp += 1
            slot += 1
    if g[G_SLAM] == 1 or g[G_MODE] == 1:
        k ^= zob[Z_SWEEP + st[S_SWEEP] + 2]
    if g[G_ALL3] == 1:
        k ^= zob[Z_FW + st[S_FWME] + 1] ^ zob[Z_OP + st[S_OTHERPT]]
    if g[G_MODE] == 1:
        for q in range(g[G_N]):
            if st[S_NTR + q] > 0:
                k ^= zob[Z_NTR + q]
            k ^= zob[Z_CPS + q * 256 + (st[S_CPS + q] & 255)]
    if g[G_HEARTS] == 1:
        if g[G_BREAKERS] & ~live != 0:
            k ^= zob[Z_BROKEN]
        else:
            # before hearts break, a live breaker outside hearts (the Queen of
            # spades) is keyed at its place: it is not like the cards of its value
            qb = g[G_BREAKERS] & ~g[G_UNBROKEN]
            while qb != 0:
                c = low_index(qb)
                qb &= qb - 1
                s = c // 13
                below = live & ((np.int64(1) << np.int64(c)) - (np.int64(1) << np.int64(13 * s)))
                place = 13 * s
                while below != 0:
                    below &= below - 1
                    place += 1
                k ^= zob[Z_QB + place]
    if g[G_MOON] == 1:
        k ^= zob[Z_MOON + st[S_MOON] + 2]
    return k


if HAVE_NUMBA:
    from numba.cpython.unsafe.numbers import trailing_zeros

    _tz: Any = trailing_zeros  # an intrinsic (typing context first): called as tz(m)

    @_jit_inline
    def low_index(m: int) -> int:
        """Return the index of the lowest set bit of ``m`` (``m`` != 0)."""
        return _tz(m)
else:
    def low_index(m: int) -> int:
        """Return the index of the lowest set bit of ``m`` (``m`` != 0)."""
        return (int(m) & -int(m)).bit_length() - 1


@_jit_inline
def _bounds(g: Any, st: Any) -> tuple[int, int]:
    """Return (low, high) bounds on the mover's future result, or (-INF, INF).

    The additive part is bounded by the card values still out (kept up to date
    in ``st[S_NEGL]`` and ``st[S_POSL]`` by :func:`play_card`) and the trick
    bonuses still to come.
    """
    if g[G_MODE] == 1:
        return -INF, INF
    adj = 0
    if g[G_SLAM] == 1:
        if st[S_SWEEP] != -2:
            return -INF, INF
        d = g[G_DECL]
        if g[G_ME] == d and g[G_DTYPE] != 4:
            adj = -g[G_V]
    if g[G_ALL3] == 1 and st[S_OTHERPT] == 0 and st[S_FWME] != 0:
        return -INF, INF
    lo = st[S_NEGL]
    hi = st[S_POSL]
    if g[G_MOON] == 1:
        # the moon's change still possible: by the one player who has taken the
        # penalty cards so far, or by anyone when nobody has
        mo = st[S_MOON]
        if mo >= 0:
            d = g[G_MOONV + mo]
            if d < 0:
                lo += d
            else:
                hi += d
        elif mo == -1:
            lo += g[G_MOONLO]
            hi += g[G_MOONHI]
    b = g[G_TRICK] * (g[G_TOTAL_TRICKS] - st[S_DONE])
    if b < 0:
        lo += b
    else:
        hi += b
    if st[S_DONE] == 0:
        b = g[G_FIRST]
        if b < 0:
            lo += b
        else:
            hi += b
    b = g[G_LAST]
    if b < 0:
        lo += b
    else:
        hi += b
    return lo + adj, hi + adj


@_jit_inline
def _ducks(g: Any, hands: Any) -> bool:
    """Whether the mover can duck every trick it does not lead (see :func:`_hand_bounds`)."""
    me = g[G_ME]
    ph = hands[me]
    opp = np.int64(0)
    for q in range(g[G_N]):
        if q != me:
            opp |= hands[q]
    for s in range(4):
        sm = np.int64(0x1FFF) << np.int64(13 * s)
        pt = ph & sm
        ot = opp & sm
        if pt != 0 and ot != 0 and pt >= (ot & -ot):
            return False
    return True


@_jit_inline
def _hand_bounds(g: Any, hands: Any, st: Any, lo: int, hi: int) -> tuple[int, int]:
    """Narrow the bounds ``(lo, hi)`` at a trick boundary from the cards in hand.

    Only when ``g[G_PLAYB]`` (additive scoring, no trumps, no partners, no
    slam or all-three rule): the mover's future result then comes only from
    the tricks it wins.  Cards are numbered weakest first within a suit.

    * The mover takes every trick when it leads and, in each suit it holds,
      all its cards are above all its opponents' cards of the suit (or they
      hold none): the result is then all that is still out.
    * Otherwise the mover can duck every trick when, in each suit it holds,
      all its cards are below all its opponents' cards of the suit (or they
      hold none): whoever leads, the mover follows low (beaten) or discards,
      and when it leads, it leads low in a suit the others hold (one exists,
      else the case above applies) and is beaten; the condition holds as
      cards go, so it never takes a trick and its result is at least 0.
    """
    me = g[G_ME]
    n = g[G_N]
    ph = hands[me]
    opp = np.int64(0)
    for q in range(n):
        if q != me:
            opp |= hands[q]
    duck = True
    top = True
    for s in range(4):
        sm = np.int64(0x1FFF) << np.int64(13 * s)
        pt = ph & sm
        ot = opp & sm
        if pt == 0 or ot == 0:
            continue
        if pt < (ot & -ot):
            top = False
        else:
            duck = False
            if ot >= (pt & -pt):
                top = False
    if top and st[S_LEADER] == me:
        v = st[S_NEGL] + st[S_POSL] + g[G_TRICK] * (g[G_TOTAL_TRICKS] - st[S_DONE]) + g[G_LAST]
        if st[S_DONE] == 0:
            v += g[G_FIRST]
        return v, v
    if duck and lo < 0:
        lo = 0
    return lo, hi


@_jit_inline
def _trick_bounds(g: Any, strength: Any, upts: Any, hands: Any, trick: Any, st: Any,
                  tb: int, tl: int, alpha: int, beta: int) -> int:
    """Mid-trick cutoff from the trick in progress, or ``-INF`` for none.

    When the trick is already lost to the mover's side (its last card in the
    trick is played and someone else leads it) the cards in it are worth
    nothing to the mover (and with ``g[G_PLAYB]``, when the mover can duck
    every later trick, :func:`_ducks`, its future result is at least 0);
    when the mover's side leads it and no opponent still to play can beat
    the card, they are all the mover's.  The bounds of
    :func:`_bounds` narrowed so are returned when they decide the window.
    Cards are numbered weakest first within a suit.
    """
    neg = 0
    pos = 0
    for i in range(tl):
        u = upts[trick[tb + i]]
        if u < 0:
            neg += u
        else:
            pos += u
    if neg == 0 and pos == 0:
        # the bounds are those of the trick's start, unless the mover has
        # lost this trick already and ducks every later one
        if g[G_PLAYB] == 0:
            return -INF
        n = g[G_N]
        im = _wrap(g[G_ME] - st[S_LEADER] + n, n)  # the mover's place in the trick
        if im >= tl or im == _taking(g, strength, trick, tb, tl):
            return -INF
        lo, hi = _bounds(g, st)
        if lo < 0 and (beta <= 0 or hi == 0) and _ducks(g, hands):
            return 0
        return -INF
    lo, hi = _bounds(g, st)
    if lo <= -INF or hi >= INF:
        return -INF
    n = g[G_N]
    leader = st[S_LEADER]
    trump = g[G_TRUMP]
    led = trick[tb] // 13
    wi = _taking(g, strength, trick, tb, tl)
    wc = trick[tb + wi]
    wmine = _mine(g, _wrap(leader + wi, n))
    if wmine:
        # can an opponent still to play take the trick?
        above = ~((np.int64(2) << np.int64(wc)) - 1)
        ws = np.int64(0x1FFF) << np.int64(13 * (wc // 13))
        lm = np.int64(0x1FFF) << np.int64(13 * led)
        for i in range(tl, n):
            q = _wrap(leader + i, n)
            if _mine(g, q):
                continue
            h = hands[q]
            if h & lm != 0:
                if wc // 13 == led and h & lm & above != 0:
                    return -INF
            elif trump >= 0:
                tm = h & (np.int64(0x1FFF) << np.int64(13 * trump))
                if wc // 13 == trump:
                    if tm & ws & above != 0:
                        return -INF
                elif tm != 0:
                    return -INF
        lo += pos
        hi += neg
    else:
        for i in range(tl, n):
            if _mine(g, _wrap(leader + i, n)):
                return -INF
        lo -= neg
        hi -= pos
        if g[G_PLAYB] == 1 and lo < 0 and _ducks(g, hands):
            lo = 0
    if lo >= beta or lo == hi:
        return lo
    if hi <= alpha:
        return hi
    return -INF


@_jit_inline
def _undo_trick(g: Any, upts: Any, pts: Any, trick: Any, st: Any, tb: int, leader: int,
                sweep: int, fwme: int, otherpt: int, lastw: int, moon: int) -> None:
    """Undo the summary of the trick just completed at ``trick[tb:tb + n]`` (not the hands)."""
    n = g[G_N]
    wnr = st[S_LEADER]
    raw, neg, pos = _trick_points(upts, pts, trick, tb, n)
    st[S_NEGL] += neg
    st[S_POSL] += pos
    st[S_TB] = tb
    st[S_CPS + wnr] -= raw + g[G_TRICK_PTS]
    st[S_NTR + wnr] -= 1
    st[S_DONE] -= 1
    st[S_TL] = n
    st[S_LEADER] = leader
    st[S_SWEEP] = sweep
    st[S_FWME] = fwme
    st[S_OTHERPT] = otherpt
    st[S_LASTW] = lastw
    st[S_MOON] = moon


@_jit_inline
def _last_trick(g: Any, strength: Any, upts: Any, pts: Any, zob: Any,
                hands: Any, trick: Any, st: Any) -> int:
    """Future value when every hand holds one card at a trick boundary (forced play)."""
    n = g[G_N]
    leader = st[S_LEADER]
    sweep = st[S_SWEEP]
    fwme = st[S_FWME]
    otherpt = st[S_OTHERPT]
    lastw = st[S_LASTW]
    moon = st[S_MOON]
    tb = st[S_TB]
    gain = 0
    for i in range(n):
        q = _wrap(leader + i, n)
        gain = play_card(g, strength, upts, pts, zob, hands, trick, st, low_index(hands[q]))
    v = gain + leaf_value(g, st)
    _undo_trick(g, upts, pts, trick, st, tb, leader, sweep, fwme, otherpt, lastw, moon)
    for i in range(n):
        c = trick[tb + i]
        q = _wrap(leader + i, n)
        hands[q] |= np.int64(1) << np.int64(c)
        st[S_KEY] ^= zob[q * 52 + c]
    st[S_TL] = 0
    return v


@_jit_inline
def _unpack(mem: Any) -> tuple[Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any]:
    """The views of the packed memory: ``(g, strength, upts, pts, order1, zob,
    hands, trick, st, owner, work)``."""
    return (mem[P_G:P_G + G_SIZE], mem[P_STR:P_STR + 52], mem[P_UPTS:P_UPTS + 52],
            mem[P_PTS:P_PTS + 52], mem[P_ORDER:P_ORDER + 52], mem[P_ZOB:P_ZOB + Z_SIZE],
            mem[P_HANDS:P_HANDS + 16], mem[P_TRICK:P_TRICK + TRICK_SIZE],
            mem[P_ST:P_ST + S_SIZE], mem[P_OWNER:P_OWNER + 52], mem[P_WORK:P_WORK + WORK_SIZE])


SEARCH_SIG = "int64(int64[::1], int64[::1], int64, int64)"


@_jit_sig(SEARCH_SIG)
def search(mem: Any, tt: Any, alpha: int, beta: int) -> int:
    """Alpha-beta value of the position (the mover's future result, fail-soft).

    ``mem`` is the packed memory (:func:`_unpack`), ``tt`` the table.
    ``work`` is scratch space for the candidate lists, 32 slots per ply
    (indexed by the ply's trick slot, so no allocation happens in the search).
    """
    g, strength, upts, pts, _order1, zob, hands, trick, st, owner, work = _unpack(mem)
    st[S_NODES] += 1
    if st[S_LIMIT] > 0 and st[S_NODES] > st[S_LIMIT]:
        st[S_ABORT] = 1
        return 0
    n = g[G_N]
    tl = st[S_TL]
    slot = -1
    key = np.int64(0)
    best_move = -1
    if tl == 0:
        # (mid-trick the bounds are those of the trick's start, which the
        # window already lies within)
        lo, hi = _bounds(g, st)
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        if g[G_PLAYB] == 1:
            lo, hi = _hand_bounds(g, hands, st, lo, hi)
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
        if st[S_DONE] + 1 == g[G_TOTAL_TRICKS]:
            return _last_trick(g, strength, upts, pts, zob, hands, trick, st)
        key = _summary_key(g, zob, pts, owner, hands, st)
        slot = (key & ((1 << (TT_BITS - 1)) - 1)) * 8
        key ^= g[G_NONCE]
        if tt[slot + 4] == key:
            slot += 4
        if tt[slot] == key:
            tlo = tt[slot + 1]
            thi = tt[slot + 2]
            if tlo >= beta or tlo == thi:
                return tlo
            if thi <= alpha:
                return thi
            if tlo > alpha:
                alpha = tlo
            if thi < beta:
                beta = thi
            best_move = tt[slot + 3] & 0xFF
            if best_move >= 52:
                best_move = -1
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
    tb = st[S_TB]
    if tl > 0:
        c = _trick_bounds(g, strength, upts, hands, trick, st, tb, tl, alpha, beta)
        if c > -INF:
            return c
    a0 = alpha
    b0 = beta
    p = _wrap(st[S_LEADER] + tl, n)
    maxing = _mine(g, p)
    legal = legal_mask(g, hands, trick, st)
    base = (tb + tl) * 32
    # Candidate cards, equivalent ones merged: scan each suit weakest first
    # (the solver numbers each suit's cards weakest first, so that is bit
    # order); a card is skipped when the previous card of the run is ours, of
    # the same value, and no live card (another hand's or in the trick) lies
    # between.
    live = np.int64(0)
    for q in range(n):
        if q != p:
            live |= hands[q]
    for i in range(tl):
        live |= np.int64(1) << np.int64(trick[tb + i])
    nc = 0
    m = legal
    prev = -1
    while m != 0:
        c = low_index(m)
        m &= m - 1
        if (prev >= 0 and prev // 13 == c // 13 and upts[prev] == upts[c]
                and pts[prev] == pts[c]
                and live & ((np.int64(1) << np.int64(c)) - (np.int64(2) << np.int64(prev))) == 0
                and ((g[G_BREAKERS] >> np.int64(prev)) ^ (g[G_BREAKERS] >> np.int64(c))) & 1 == 0):
            work[base + nc - 1] = c  # keep the stronger representative
        else:
            work[base + nc] = c
            nc += 1
        prev = c
    # Move ordering: the table's move first.  Following: the mover ducks
    # (strongest card that does not take the lead first, a card that hurts
    # it before the others) and discards the cards that hurt it onto others'
    # tricks; the others feed the mover's winning tricks with those cards.
    # Leading: weakest first, a card that hurts the mover first when it may
    # be beaten (the mover's own lead under a higher card, the others' lead
    # under the mover's cards), the mover's short suits first.
    kb = base + 16
    wc = -1
    mwin = False
    if nc > 1 and tl > 0:
        wi = _taking(g, strength, trick, tb, tl)
        wc = trick[tb + wi]
        mwin = _mine(g, _wrap(st[S_LEADER] + wi, n))
    led = trick[tb] // 13
    # leading: the cards of the mover's opponents (for the mover) or the
    # mover's cards (for the others)
    om = np.int64(0)
    if nc > 1 and wc < 0:
        if maxing:
            for q in range(n):
                if not _mine(g, q):
                    om |= hands[q]
        else:
            om = hands[g[G_ME]]
    for i in range(nc if nc > 1 else 0):
        c = work[base + i]
        k = 0
        if c == best_move:
            k = -100000
        elif wc >= 0:
            beats = _beats(c, wc, g[G_TRUMP], strength)
            if c // 13 != led and not beats:
                # a discard
                if maxing == mwin:
                    k = -1000 - 20 * upts[c] - strength[c]
                else:
                    k = -1000 + 20 * upts[c] - strength[c]
            elif maxing:
                k = 80 - strength[c] if beats else 20 * upts[c] - strength[c]
            elif beats:
                k = 50 - strength[c]
            elif mwin:
                k = -500 + 20 * upts[c] - strength[c]
            else:
                k = -strength[c]
        else:
            # leading: weakest first; the mover prefers a suit in which an
            # opponent holds a higher card, the others a card below all of
            # the mover's cards of the suit (the mover cannot duck) and not
            # a suit the mover lacks (it would discard)
            sm = np.int64(0x1FFF) << np.int64(13 * (c // 13))
            below = (np.int64(1) << np.int64(c)) - 1
            k = strength[c]
            if maxing:
                if om & sm & ~below & ~(np.int64(1) << np.int64(c)) == 0:
                    k += 50
                elif upts[c] < 0:
                    k -= 30
                xm = hands[p] & sm  # a short suit first (it runs out: discards)
                while xm != 0:
                    xm &= xm - 1
                    k += 4
            elif om & sm == 0:
                k += 40
            elif om & sm & below != 0:
                k += 20
            elif upts[c] < 0:
                k -= 30
        work[kb + i] = k
    for i in range(1, nc):  # insertion sort, nc is small
        kc = work[kb + i]
        cc = work[base + i]
        j = i - 1
        while j >= 0 and work[kb + j] > kc:
            work[kb + j + 1] = work[kb + j]
            work[base + j + 1] = work[base + j]
            j -= 1
        work[kb + j + 1] = kc
        work[base + j + 1] = cc
    best = -INF if maxing else INF
    bm = -1
    for i in range(nc):
        c = work[base + i]
        leader = st[S_LEADER]
        sweep = st[S_SWEEP]
        fwme = st[S_FWME]
        otherpt = st[S_OTHERPT]
        lastw = st[S_LASTW]
        moon = st[S_MOON]
        gain = play_card(g, strength, upts, pts, zob, hands, trick, st, c)
        if st[S_TL] == 0:
            if st[S_DONE] == g[G_TOTAL_TRICKS]:
                v = gain + leaf_value(g, st)
            else:
                v = gain + search(mem, tt, alpha - gain, beta - gain)
            _undo_trick(g, upts, pts, trick, st, tb, leader, sweep, fwme, otherpt, lastw,
                        moon)
        else:
            v = search(mem, tt, alpha, beta)
        if st[S_ABORT] != 0:
            return 0
        st[S_TL] -= 1
        hands[p] ^= np.int64(1) << np.int64(c)
        st[S_KEY] ^= zob[p * 52 + c]
        if maxing:
            if v > best:
                best = v
                bm = c
            if best > alpha:
                alpha = best
        else:
            if v < best:
                best = v
                bm = c
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    if slot >= 0:
        # two entries a bucket (one cache line): the one of this position,
        # else the first unless it holds a bigger subtree (an earlier trick)
        # of this solve, else the second
        slot &= ~7
        stamp = (g[G_NONCE] & 0xFFFFFFFFFF) << 16  # this solve's entries
        if tt[slot + 4] == key:
            slot += 4
        elif tt[slot] != key:
            tag = tt[slot + 3]
            if (tag & ~0xFFFF) == stamp and ((tag >> 8) & 0xFF) < st[S_DONE]:
                slot += 4
            tt[slot] = key
            tt[slot + 1] = -INF
            tt[slot + 2] = INF
        if best <= a0:
            if best < tt[slot + 2]:
                tt[slot + 2] = best
        elif best >= b0:
            if best > tt[slot + 1]:
                tt[slot + 1] = best
        else:
            tt[slot + 1] = best
            tt[slot + 2] = best
        tt[slot + 3] = stamp | (st[S_DONE] << 8) | (bm & 0xFF)
    return best


@_jit
def _mtd(mem: Any, tt: Any) -> int:
    """Exact value by null-window searches (table reused).

    Proving that the mover reaches a value (all the others' replies refuted)
    costs far more than proving it does not (one reply each), so over a
    small range the searches go down from the top, only the last one
    succeeding; over a wide one they bisect.
    """
    g = mem[P_G:P_G + G_SIZE]
    st = mem[P_ST:P_ST + S_SIZE]
    lo, hi = _bounds(g, st)
    if lo <= -INF or hi >= INF:
        lo = -g[G_RANGE]
        hi = g[G_RANGE]
    while lo < hi:
        mid = hi if hi - lo <= 8 else (lo + hi + 1) // 2
        v = search(mem, tt, mid - 1, mid)
        if st[S_ABORT] != 0:
            return 0
        if v >= mid:
            lo = v
        else:
            hi = v
    return lo


@_jit
def card_values(mem: Any, tt: Any, out: Any) -> None:
    """Write into ``out[c]`` the exact future value of each legal card ``c``.

    ``mem`` is the packed memory of the position (:func:`_unpack`), ``tt``
    the table.  Cards that are not legal get ``-INF``.  Equivalent cards get
    the same value (each is searched; the table makes the repeats cheap).
    When the node budget ``st[S_LIMIT]`` runs out, ``st[S_ABORT]`` is set and
    ``out`` is meaningless.
    """
    g, strength, upts, pts, _order1, zob, hands, trick, st, _owner, _work = _unpack(mem)
    for c in range(52):
        out[c] = -INF
    legal = legal_mask(g, hands, trick, st)
    n = g[G_N]
    p = (st[S_LEADER] + st[S_TL]) % n
    saved = st.copy()
    for c in range(52):
        if (legal >> np.int64(c)) & 1 == 0:
            continue
        gain = play_card(g, strength, upts, pts, zob, hands, trick, st, c)
        if st[S_TL] == 0 and st[S_DONE] == g[G_TOTAL_TRICKS]:
            v = gain + leaf_value(g, st)
        else:
            v = gain + _mtd(mem, tt)
        nodes = st[S_NODES]
        abort = st[S_ABORT]
        st[:] = saved
        st[S_NODES] = nodes
        if abort != 0:
            st[S_ABORT] = 1
            return
        hands[p] ^= np.int64(1) << np.int64(c)
        out[c] = v


@_jit
def root_value(mem: Any, tt: Any) -> int:
    """Return the exact future value of the position (best play by the mover)."""
    return _mtd(mem, tt)


@_jit
def popcount(m: int) -> int:
    """Return the number of set bits of ``m`` (0 <= m < 2**62)."""
    v = m - ((m >> 1) & 0x5555555555555555)
    v = (v & 0x3333333333333333) + ((v >> 2) & 0x3333333333333333)
    v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0F
    v = v + (v >> 8)
    v = v + (v >> 16)
    v = v + (v >> 32)
    return v & 0x7F


@_jit
def random_playouts(g: Any, strength: Any, upts: Any, pts: Any, zob: Any,
                    hands0: Any, count: int, seed: int, taken: Any) -> int:
    """Play ``count`` random deals from ``hands0`` (eldest leads); return the cards played.

    ``hands0`` are the hands before the first card.  A uniformly random legal
    card at each turn (an xorshift generator seeded with ``seed``, scaled by
    multiply-shift), tricks resolved as in :func:`play_card`; in the Hearts
    family (``g[G_HEARTS]``) the holder of ``g[G_OPEN]`` leads, and the legal
    cards are :func:`_restricted`'s.  ``taken[p]`` accumulates the card points
    player ``p`` took over all the deals.  The loop keeps its state in locals
    and bitmasks (no per-card calls or Python objects).
    """
    n = g[G_N]
    trump = g[G_TRUMP]
    hands = hands0.copy()
    x = np.uint64(seed * 2 + 1)
    tricks = g[G_TOTAL_TRICKS]
    hearts = g[G_HEARTS] == 1
    for _ in range(count):
        for q in range(n):
            hands[q] = hands0[q]
        leader = g[G_ELDEST]
        if hearts and g[G_OPEN] >= 0:
            for q in range(n):
                if (hands[q] >> np.int64(g[G_OPEN])) & 1 != 0:
                    leader = q
        for _t in range(tricks):
            p = leader
            w = leader
            led = -1
            wc = 0
            raw = 0
            broken = True
            if hearts:
                live = np.int64(0)
                for q in range(n):
                    live |= hands[q]
                broken = g[G_BREAKERS] & ~live != 0
            for i in range(n):
                if hearts:
                    h = _restricted(g, hands[p], led, _t == 0, broken)
                else:
                    h = _follow(hands[p], led)
                cnt = popcount(h)
                x ^= x << np.uint64(13)
                x ^= x >> np.uint64(7)
                x ^= x << np.uint64(17)
                k = np.int64(((x >> np.uint64(32)) * np.uint64(cnt)) >> np.uint64(32))
                for _j in range(k):
                    h &= h - 1
                low = h & -h
                hands[p] ^= low
                c = low_index(low)
                raw += pts[c]
                if i == 0:
                    led = c // 13
                    wc = c
                elif _beats(c, wc, trump, strength):
                    wc = c
                    w = p
                p += 1
                if p == n:
                    p = 0
            taken[w] += raw
            leader = w
    return count * tricks * n


# ------------------------------------------------------------ best reply (max^n)
# Each player maximises its own future result (its side's in partnerships), with
# ties broken against the mover; additive games only (no contract, slam or
# chips).  ``mst`` holds the scalars below; the table stores a result vector
# (one value per player, at most 4 players) at trick boundaries.
M_NODES = 0
M_LIMIT = 1  # node budget (0: none)
M_ABORT = 2
M_KEY = 3  # incremental Zobrist key of the hands
M_NONCE = 4  # per-solve salt of the table keys
M_MOON = 5  # the moon state (as ``st[S_MOON]``): who has taken the moon's penalty cards
M_SIZE = 8
MX_BITS = 18
MX_VEC = 4 * 80  # result vectors: 4 slots per ply


@_jit_sig("int64(int64[:], int64[:], int64[:], int64[:], int64[:], int64[:], int64[:], "
          "int64[:], int64[:], int64[:], int64[:], int64, int64, int64, int64)")
def maxn(g: Any, strength: Any, upts: Any, zob: Any, hands: Any, trick: Any, vec: Any,
         mst: Any, tt_key: Any, tt_val: Any, rootv: Any, leader: int, tl: int, done: int,
         depth: int) -> int:
    """Best-reply search: write each player's future result into ``vec[4 * depth + q]``.

    The player to act picks the card whose result vector is best for itself
    (for its side in partnerships); among equal ones, the worst for the mover
    ``g[G_ME]``.  In the Hearts family the legal cards are :func:`_restricted`'s
    and the moon (``mst[M_MOON]``, ``g[G_MOONM]``) is settled at the last trick.
    At ``depth`` 0 each legal card's value for the mover goes to ``rootv[c]``.
    Returns 0; sets ``mst[M_ABORT]`` when the node budget runs out (the
    results are then meaningless).
    """
    n = g[G_N]
    me = g[G_ME]
    side = g[G_SIDE]
    base = done * n
    out = depth * 4
    mst[M_NODES] += 1
    if mst[M_LIMIT] > 0 and mst[M_NODES] > mst[M_LIMIT]:
        mst[M_ABORT] = 1
        return 0
    key = 0
    slot = 0
    if tl == 0 and depth > 0:
        key = mst[M_KEY] ^ zob[Z_LEADER + leader] ^ mst[M_NONCE]
        if g[G_MOON] == 1:  # (hearts broken is a function of the hands: in the key)
            key ^= zob[Z_MOON + mst[M_MOON] + 2]
        key |= 1
        slot = key & ((1 << MX_BITS) - 1)
        if tt_key[slot] == key:
            for q in range(n):
                vec[out + q] = tt_val[slot * 4 + q]
            return 0
    p = _wrap(leader + tl, n)
    h = hands[p]
    live = 0
    for q in range(n):
        live |= hands[q]
    if g[G_HEARTS] == 1:
        led = trick[base] // 13 if tl > 0 else -1
        h = _restricted(g, h, led, done == 0, tl > 0 or g[G_BREAKERS] & ~live != 0)
    elif tl > 0:
        h = _follow(h, trick[base] // 13)
    for i in range(tl):
        live |= 1 << int(trick[base + i])
    others = live & ~hands[p]
    mine_p = (p & 1) == (me & 1) if side == 1 else p == me
    have = False
    prev = -1
    child = out + 4
    m = h
    while m != 0:
        low = m & -m
        m ^= low
        c = low_index(low)
        if (depth > 0 and prev >= 0 and prev // 13 == c // 13 and upts[prev] == upts[c]
                and ((g[G_BREAKERS] >> np.int64(prev)) ^ (g[G_BREAKERS] >> np.int64(c))) & 1
                == 0):
            lo = strength[prev]
            hi = strength[c]
            if lo > hi:
                lo, hi = hi, lo
            between = False
            for d in range(13 * (c // 13), 13 * (c // 13) + 13):
                if (others >> np.int64(d)) & 1 and lo < strength[d] < hi:
                    between = True
            if not between:
                prev = c
                continue
        prev = c
        hands[p] ^= low
        mst[M_KEY] ^= zob[p * 52 + c]
        trick[base + tl] = c
        if tl + 1 == n:
            w = trick_winner(g, strength, trick, base, leader)
            gain = g[G_TRICK]
            if done == 0:
                gain += g[G_FIRST]
            if done + 1 == g[G_TOTAL_TRICKS]:
                gain += g[G_LAST]
            for i in range(n):
                gain += upts[trick[base + i]]
            moon = mst[M_MOON]
            if g[G_MOON] == 1:
                for i in range(n):
                    if (g[G_MOONPEN] >> np.int64(trick[base + i])) & 1 != 0:
                        if moon == -1:
                            mst[M_MOON] = w
                        elif moon != w:
                            mst[M_MOON] = -2
                        break
            if done + 1 == g[G_TOTAL_TRICKS]:
                for q in range(n):
                    vec[child + q] = 0
                if g[G_MOON] == 1 and mst[M_MOON] >= 0:
                    for q in range(n):
                        vec[child + q] += g[G_MOONM + 4 * mst[M_MOON] + q]
            else:
                maxn(g, strength, upts, zob, hands, trick, vec, mst, tt_key, tt_val, rootv,
                     w, tl - tl, done + 1, depth + 1)
            mst[M_MOON] = moon
            for q in range(n):
                if (side == 1 and (q & 1) == (w & 1)) or q == w:
                    vec[child + q] += gain
        else:
            maxn(g, strength, upts, zob, hands, trick, vec, mst, tt_key, tt_val, rootv,
                 leader, tl + 1, done, depth + 1)
        hands[p] ^= low
        mst[M_KEY] ^= zob[p * 52 + c]
        if mst[M_ABORT] != 0:
            return 0
        if depth == 0:
            rootv[c] = vec[child + me]
        better = not have or vec[child + p] > vec[out + p] or (
            vec[child + p] == vec[out + p] and not mine_p and vec[child + me] < vec[out + me])
        if better:
            have = True
            for q in range(n):
                vec[out + q] = vec[child + q]
    if tl == 0 and depth > 0:
        tt_key[slot] = key
        for q in range(n):
            tt_val[slot * 4 + q] = vec[out + q]
    return 0


def pure_kernel() -> types.ModuleType:
    """Return this module loaded again with compilation off: the plain-Python path.

    Raises:
        ImportError: the module file cannot be loaded.
    """
    name = __name__ + "_pure"
    mod = sys.modules.get(name)
    if mod is not None:
        return mod
    spec = importlib.util.spec_from_file_location(name, __file__)
    if spec is None or spec.loader is None:  # pragma: no cover
        raise ImportError(f"cannot load {__file__}")
    mod = importlib.util.module_from_spec(spec)
    mod.__dict__["_PURE"] = True
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod
