"""The open-hand solver against brute force over the core, and the kernel against the core."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

from polignac.bots import fast
from polignac.bots.solver import Position, Solver, build, final_result
from polignac.core import Deal, get_rules
from polignac.core.cards import RANK_LETTERS, CardSet, make_card

FAMILIES = [
    ("polignac", 4, None),
    ("polignac", 3, "capot"),
    ("polignac-threshold-general", 4, "general"),
    ("polignac-fr", 4, None),
    ("polignac-fr-generale", 4, "generale"),
    ("polignac-party", 5, None),
    ("slobberhannes", 4, None),
    ("knaves", 3, None),
    ("bassadewitz", 4, None),
    ("bassadewitz-points", 4, None),
    ("pollack", 4, None),
]


def start(preset: str, n: int, contract: str | None, rng: random.Random) -> Deal:
    """A shuffled deal in trick play (a random declarer makes ``contract``)."""
    rules = get_rules(preset)
    deal = Deal.shuffled(rules, n, dealer=rng.randrange(n), rng=rng)
    if deal.phase_name == "declare":
        who = rng.randrange(n) if contract else -1
        while deal.phase_name == "declare":
            deal = deal.apply_text(contract if deal.to_act == who else "pass")
    return deal


def advance(deal: Deal, cards_left: int, rng: random.Random) -> Deal:
    """Play cards until the player to act has ``cards_left`` cards (some mid-trick).

    Half the time one player is helped to win every trick (slams matter).
    """
    hero = rng.randrange(deal.num_players) if rng.random() < 0.5 else -1
    target = deal.num_players * cards_left + rng.randrange(deal.num_players)
    while sum(h.bit_count() for h in deal.hands) > target:
        legal = [a for a in deal.legal_actions() if a < 52]
        if hero >= 0:
            strength = deal.rules.strength()
            legal.sort(key=lambda c: strength[c % 13])
            card = legal[-1] if deal.to_act == hero else legal[0]
        else:
            card = rng.choice(legal)
        deal = deal.apply(card)
    return deal


def brute(deal: Deal, me: int) -> int:
    """Plain paranoid minimax over the core (the mover's or its side's result)."""
    if deal.done:
        return final_result(deal, me)
    legal = [a for a in deal.legal_actions() if a < 52]
    p = deal.to_act
    mine = (p & 1) == (me & 1) if deal.rules.scoring == "pollack" else p == me
    vals = [brute(deal.apply(c), me) for c in legal]
    return max(vals) if mine else min(vals)


@pytest.mark.parametrize(("preset", "n", "contract"), FAMILIES)
def test_solver_matches_brute_force(preset: str, n: int, contract: str | None) -> None:
    rng = random.Random(sum(map(ord, preset)) + n)
    compiled = Solver()
    pure = Solver(pure=True)
    for trial in range(8):
        left = 2 + trial % 2 if n <= 4 else 2
        deal = advance(start(preset, n, contract, rng), left, rng)
        me = deal.to_act
        want = {c: brute(deal.apply(c), me) for c in deal.legal_actions() if c < 52}
        pos = Position.from_deal(deal)
        assert compiled.solve(pos) == want, (preset, deal.history)
        assert compiled.value(pos) == max(want.values())
        if trial < 2:
            assert pure.solve(pos) == want


def into_trick_with_points(deal: Deal, rng: random.Random) -> Deal:
    """Play on (at most one trick) until a card with points lies in the trick in progress."""
    points = deal.rules.point_table()
    for _ in range(deal.num_players):
        if deal.done or (deal.trick and any(points[c] for c in deal.trick)):
            break
        legal = [a for a in deal.legal_actions() if a < 52]
        scored = [c for c in legal if points[c]]
        deal = deal.apply(rng.choice(scored or legal))
    return deal


@pytest.mark.parametrize(("preset", "n", "contract"), FAMILIES)
def test_solver_mid_trick_with_points(preset: str, n: int, contract: str | None) -> None:
    """Positions inside a trick that holds point cards (the mid-trick bounds), and the
    kernel's renumbering of the cards by strength (non-monotone rank orders in most
    presets), against brute force."""
    rng = random.Random(sum(map(ord, preset)) * 3 + n)
    compiled = Solver()
    pure = Solver(pure=True)
    for trial in range(8):
        deal = advance(start(preset, n, contract, rng), 2 + trial % 2 if n <= 4 else 2, rng)
        deal = into_trick_with_points(deal, rng)
        if deal.done or not deal.trick:
            continue
        me = deal.to_act
        want = {c: brute(deal.apply(c), me) for c in deal.legal_actions() if c < 52}
        pos = Position.from_deal(deal)
        assert compiled.solve(pos) == want, (preset, deal.history)
        for other in range(n):  # the value for every player, not only the one to act
            assert compiled.value(pos, other) == pure.value(pos, other)
        if trial < 2:
            assert pure.solve(pos) == want


@pytest.mark.parametrize(("preset", "n", "contract"), FAMILIES)
def test_kernel_matches_core_on_random_games(preset: str, n: int, contract: str | None) -> None:
    """Random games through the compact kernel and the core side by side."""
    rng = random.Random(7 + n)
    for _ in range(5):
        deal = start(preset, n, contract, rng)
        pos = Position.from_deal(deal)
        g, strength, upts, pts, _order, hands, trick, st, _banked = build(pos)
        zob = np.zeros(fast.Z_SIZE, np.int64)
        gain = 0
        while not deal.done:
            assert int(fast.legal_mask(g, hands, trick, st)) == deal.legal_card_mask()
            card = rng.choice([a for a in deal.legal_actions() if a < 52])
            gain += int(fast.play_card(g, strength, upts, pts, zob, hands, trick, st, card))
            deal = deal.apply(card)
            assert [int(h) for h in hands[:n]] == list(deal.hands)
            assert int(st[fast.S_LEADER]) == deal.leader
            assert int(st[fast.S_TL]) == len(deal.trick)
        me = pos.to_act
        assert gain + int(fast.leaf_value(g, st)) == final_result(deal, me)


def test_table_key_is_rank_relative() -> None:
    """Positions that differ only in which cards are gone share a table key (and a
    value); moving a card to another hand, or a point card's place, changes it."""
    rules = get_rules("polignac")
    by_strength = sorted((r for r in range(13) if rules.strength()[r] >= 0),
                         key=lambda r: rules.strength()[r])  # 8 ranks, weakest first
    jack = RANK_LETTERS.index("J")

    def position(suit0: list[list[int]], jack_owner: int) -> Position:
        hands = []
        for p in range(4):
            m = sum(1 << make_card(by_strength[i], 0) for i in suit0[p])
            m |= sum(1 << make_card(by_strength[i], 1) for i in (0, 1, 2, 3) if i == p)
            if p == jack_owner:
                m |= 1 << make_card(jack, 2)
            else:
                m |= 1 << make_card(by_strength[p], 2)
            hands.append(m)
        return Position(rules, tuple(hands), (), 0, (), (0, 0, 0, 0))

    def key(pos: Position) -> int:
        solver = Solver()
        g, _s, _u, pts, _o, zob, hands, _t, st, owner, _w = solver._setup(pos)[0]
        return int(fast._summary_key(g, zob, pts, owner, hands, st))

    assert by_strength[5] == jack  # the only suit-0 card with points, left out below
    base = position([[0], [1], [2], [3]], 1)
    same = position([[1], [2], [4], [6]], 1)  # other suit-0 cards, in the same order
    assert key(base) == key(same)
    assert Solver().value(base) == Solver().value(same)
    assert key(base) != key(position([[1], [0], [2], [3]], 1))  # two cards swap hands
    assert key(base) != key(position([[0], [1], [2], [3]], 3))  # the Jack in another hand
    assert key(base) != key(position([[0], [1], [2], [5]], 1))  # a point card in its place


def test_table_key_ignores_order_within_a_run() -> None:
    """Live cards of one owner with no other live card between them are
    interchangeable: moving the Jack within such a run keeps the key and the
    value; moving it to another run of the same owner changes the key."""
    rules = get_rules("polignac")
    rest = ["7D", "8D 9D", "TD AD", "JD QD"]

    def position(clubs: list[str], leader: int) -> Position:
        hands = tuple(CardSet.parse(f"{c} {d}").mask for c, d in zip(clubs, rest, strict=True))
        return Position(rules, hands, (), leader, (), (0, 0, 0, 0))

    def key(pos: Position) -> int:
        g, _s, _u, pts, _o, zob, hands, _t, st, owner, _w = Solver()._setup(pos)[0]
        return int(fast._summary_key(g, zob, pts, owner, hands, st))

    for leader in range(4):
        # places by strength: 7 p1, 8 p2, then p0's run of two (the Jack on top
        # of it, or at its bottom), then K p3
        top = position(["AC JC", "7C", "8C", "KC"], leader)
        bottom = position(["JC QC", "7C", "8C", "KC"], leader)
        assert key(top) == key(bottom)
        for me in range(4):  # fresh tables: each value is searched
            assert Solver().value(top, me) == Solver(pure=True).value(bottom, me)
    # the Jack in p0's other run (p3's card between): another key
    low = position(["JC KC", "7C", "8C", "QC"], 0)
    high = position(["9C JC", "7C", "8C", "AC"], 0)
    assert key(low) != key(high)


def test_node_budget_is_reproducible() -> None:
    """A node budget gives the same answer whatever was solved before."""
    rng = random.Random(3)
    solver = Solver()
    deal = advance(start("polignac", 4, None, rng), 5, rng)
    pos = Position.from_deal(deal)
    full = solver.solve(pos)
    used = solver.last_nodes
    assert used > 10
    for _ in range(3):  # other solves in between must not change the count
        solver.solve(Position.from_deal(advance(start("polignac", 4, None, rng), 4, rng)))
        assert solver.solve_within(pos, used) == full
        assert solver.last_nodes == used
    assert solver.solve_within(pos, used - 1) is None
    assert solver.solve_within(pos, 0) == full
    value = solver.value(pos)
    used = solver.last_nodes
    assert solver.value_within(pos, used) == value == max(full.values())
    assert solver.value_within(pos, used - 1) is None


def test_compiled_kernel_reloads_from_cache() -> None:
    """The recursive search is cached by numba and reloads safely in a new process."""
    if not fast.HAVE_NUMBA:
        pytest.skip("numba is not installed")
    code = (
        "import random\n"
        "from polignac.bots.solver import Position, Solver\n"
        "from polignac.core import Deal, get_rules\n"
        "d = Deal.shuffled(get_rules('polignac'), 4, dealer=0, rng=random.Random(2))\n"
        "for _ in range(20):\n"
        "    d = d.apply(d.legal_actions()[0])\n"
        "print(Solver().value(Position.from_deal(d)))\n"
    )
    outs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           timeout=120, check=False) for _ in range(2)]
    assert [o.returncode for o in outs] == [0, 0], outs[-1].stderr
    assert outs[0].stdout == outs[1].stdout


@pytest.mark.parametrize(("preset", "n"), [("polignac", 4), ("knaves", 3), ("polignac-party", 5)])
def test_random_playouts_compiled_matches_pure(preset: str, n: int) -> None:
    """The playout loop: compiled and plain paths agree, and every point is taken once."""
    rng = random.Random(n)
    deal = start(preset, n, None, rng)
    g, strength, upts, pts, _o, hands, _t, _st, _b = build(Position.from_deal(deal))
    zob = np.zeros(fast.Z_SIZE, np.int64)
    outs = []
    for k in (fast, fast.pure_kernel()):
        taken = np.zeros(16, np.int64)
        cards = k.random_playouts(g, strength, upts, pts, zob, hands, 30, 5, taken)
        outs.append((int(cards), [int(t) for t in taken]))
    assert outs[0] == outs[1]
    assert outs[0][0] == 30 * sum(h.bit_count() for h in deal.hands)
    assert sum(outs[0][1]) == 30 * int(pts.sum())


def brute_reply(deal: Deal, me: int) -> list[int]:
    """Plain max^n over the core: each player maximises its own result, ties against ``me``."""
    n = deal.num_players
    if deal.done:
        return [final_result(deal, q) for q in range(n)]
    p = deal.to_act
    mine = (p & 1) == (me & 1) if deal.rules.scoring == "pollack" else p == me
    best: list[int] | None = None
    for c in sorted(a for a in deal.legal_actions() if a < 52):
        v = brute_reply(deal.apply(c), me)
        if best is None or v[p] > best[p] or (v[p] == best[p] and not mine and v[me] < best[me]):
            best = v
    assert best is not None
    return best


@pytest.mark.parametrize(("preset", "n"), [("polignac", 4), ("polignac-party", 4),
                                           ("knaves", 3), ("pollack", 4)])
def test_best_reply_matches_brute_force(preset: str, n: int) -> None:
    rng = random.Random(sum(map(ord, preset)) + 7 * n)
    compiled = Solver()
    pure = Solver(pure=True)
    for trial in range(6):
        deal = advance(start(preset, n, None, rng), 2 + trial % 2, rng)
        me = deal.to_act
        want = {c: brute_reply(deal.apply(c), me)[me]
                for c in deal.legal_actions() if c < 52}
        pos = Position.from_deal(deal)
        assert compiled.best_reply_within(pos, 0) == want, (preset, deal.history)
        if trial < 2:
            assert pure.best_reply_within(pos, 0) == want


def test_best_reply_budget_and_fallback() -> None:
    rng = random.Random(3)
    deal = start("polignac", 4, None, rng)
    pos = Position.from_deal(deal)
    solver = Solver()
    assert solver.best_reply_within(pos, 1000) is None  # a whole deal: over budget
    assert solver.last_nodes == 1001
    # chips (Bassadewitz) and contracts are not covered: the paranoid solve answers
    for preset, contract in [("bassadewitz", None), ("polignac", "capot")]:
        deal = advance(start(preset, 4, contract, rng), 2, rng)
        pos = Position.from_deal(deal)
        assert solver.best_reply_within(pos, 0) == solver.solve(pos)


def _value_without_hand_bounds(solver: Solver, pos: Position, me: int) -> tuple[int, int]:
    """The value of ``pos`` for ``me`` and the nodes, with the bounds from the cards in
    hand off."""
    args, banked = solver._setup(pos, me)
    args[0][fast.G_PLAYB] = 0
    v = int(solver._k.root_value(solver._mem, solver._tt))
    return v + banked, int(args[8][fast.S_NODES])


@pytest.mark.parametrize(("preset", "n", "contract"), FAMILIES)
def test_hand_bounds_keep_the_value(preset: str, n: int, contract: str | None) -> None:
    """The bounds from the cards in hand (the mover ducks every trick, or takes
    every trick) change no value: random positions of 3 to 6 cards a hand, for
    every player, against the same solve with those bounds off (and brute force
    on the smallest)."""
    rng = random.Random(sum(map(ord, preset)) * 5 + n)
    solver = Solver()
    plain = Solver()
    saved = 0
    for trial in range(12):
        left = 3 + trial % 4 if n <= 4 else 3 + trial % 2
        deal = advance(start(preset, n, contract, rng), left, rng)
        pos = Position.from_deal(deal)
        for me in range(n):
            got = solver.value(pos, me)
            want, nodes = _value_without_hand_bounds(plain, pos, me)
            assert got == want, (preset, deal.history, me)
            saved += nodes - solver.last_nodes
        if left == 3 and trial < 4:
            assert solver.value(pos) == brute(deal, deal.to_act)
    applies = int(build(Position.from_deal(start(preset, n, contract, rng)))[0][fast.G_PLAYB])
    if applies:
        assert saved > 0  # the bounds did cut something in these positions
    else:
        assert saved == 0
