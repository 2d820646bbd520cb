"""Search bots: ``hard`` (determinized search), ``expert`` (plus inference and
match awareness) and the evaluation-only ``oracle`` (sees every hand).

``HardBot`` samples complete deals consistent with everything its seat has
seen (its hand, the cards played, revealed voids, the Knaves turn-up), solves
each with the exact open-hand solver (:mod:`polignac.bots.solver`) and plays
the card with the best average value.  Declarations are decided by the same
search: a contract is declared only when its mean solved result beats passing
(hands too weak to take most tricks pass without searching).  Pollack: every
scoring combination is announced, and "out" is claimed exactly when the side
has 21.  All bots are deterministic for a given ``rng`` seed and always legal.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from ..core.actions import ANNOUNCE_BASE, CLAIM, PASS, Action
from ..core.cards import Mask
from ..core.deal import Deal
from .base import SeatView
from .inference import play_log_likelihood, sample_hands
from .simple import MediumBot
from .solver import Position, Solver, default_solver


def _position(view: SeatView, hands: Sequence[Mask], declarer: int | None = None,
              leader: int | None = None) -> Position:
    return Position(
        rules=view.rules,
        hands=tuple(hands),
        trick=view.trick,
        leader=view.leader if leader is None else leader,
        winners=tuple(t.winner for t in view.tricks),
        taken=view.taken,
        declarer=view.declarer if declarer is None else declarer,
        dealer=view.dealer,
        pool_in=True,
        turn_up=-1 if view.turn_up is None else view.turn_up,
    )


def pollack_call(view: SeatView) -> Action | None:
    """Pollack: announce any scoring combination; claim exactly when the side has 21."""
    for a in view.legal:
        if a >= ANNOUNCE_BASE:
            return a
    if CLAIM in view.legal and view.side_totals[view.player & 1] >= view.rules.partie_target:
        return CLAIM
    return None


def _could_sweep(view: SeatView) -> bool:
    """Cheap filter: at most one card of the hand is below the top three ranks."""
    top = len(view.rules.rank_order) - 3
    strength = view.rules.strength()
    weak = sum(1 for c in range(52) if view.hand >> c & 1 and strength[c % 13] < top)
    return weak <= 1


class HardBot:
    """Determinized search.

    Options: ``samples`` (at most this many deals sampled per card decision,
    default 12), ``nodes`` (search-node budget per card decision, shared by
    the samples, default 150,000; 0: none): sampling stops at the first
    sample whose solve does not fit in what is left of the budget, and when
    not even the first fits (early in the deal) the bot plays ``medium``'s
    card.  A node count, unlike a time, is reproducible: the choice depends
    only on the view and the rng seed.  ``time`` (seconds; when set, also stop
    sampling once it is spent after at least one sample: no longer
    reproducible; default None), ``declare_samples`` (deals sampled to decide
    a contract, default 4).
    """

    name = "hard"

    def __init__(self, samples: int = 12, time: float | None = None,
                 declare_samples: int = 4, nodes: int = 150_000, **_: object) -> None:
        self.samples = int(samples)
        self.time = None if time is None else float(time)
        self.declare_samples = int(declare_samples)
        self.nodes = int(nodes)
        self.solver: Solver = default_solver()
        self.fallback = MediumBot()

    # ------------------------------------------------------------ decisions

    def act(self, view: SeatView, rng: random.Random) -> Action:
        """Choose a legal action for the viewer.

        Raises:
            ValueError: the viewer has no legal action (it is not its turn).
        """
        if not view.legal:
            raise ValueError("the viewer has no legal action: it is not its turn")
        if len(view.legal) == 1:
            return view.legal[0]
        call = pollack_call(view)
        if call is not None:
            return call
        if view.phase == 0:
            return self._declare(view, rng)
        cards = [a for a in view.legal if a < 52]
        if len(cards) == 1:
            return cards[0]
        return self._best_card(view, cards, rng)

    def _declare(self, view: SeatView, rng: random.Random) -> Action:
        contract = next(a for a in view.legal if a != PASS)
        if not _could_sweep(view):
            return PASS
        eldest = (view.dealer + 1) % view.num_players
        lead = view.player if view.rules.declaration == "generale" else eldest
        gain = 0.0
        for _ in range(self.declare_samples):
            hands = sample_hands(view, rng)
            yes = self.solver.value(_position(view, hands, view.player, lead), view.player)
            no = self.solver.value(_position(view, hands, -1, eldest), view.player)
            gain += yes - no
        return contract if gain > 0 else PASS

    def _utility(self, view: SeatView, value: float) -> float:
        return value

    def _weight(self, view: SeatView, hands: tuple[Mask, ...]) -> float:
        return 0.0

    def _best_card(self, view: SeatView, cards: list[Action], rng: random.Random) -> Action:
        start = time.perf_counter()
        totals = dict.fromkeys(cards, 0.0)
        samples: list[tuple[float, dict[int, int]]] = []
        left = self.nodes
        for _ in range(self.samples):
            hands = sample_hands(view, rng)
            values = self.solver.solve_within(_position(view, hands), left)
            if values is None:
                break
            samples.append((self._weight(view, hands), values))
            if self.nodes > 0:
                left -= self.solver.last_nodes
                if left <= 0:
                    break
            if self.time is not None and time.perf_counter() - start > self.time:
                break
        if not samples:
            action = self.fallback.act(view, rng)
            return action if action in cards else cards[0]
        top = max(w for w, _ in samples)
        for w, values in samples:
            weight = math.exp(w - top)
            for c in cards:
                totals[c] += weight * self._utility(view, values[c])
        return max(cards, key=lambda c: (totals[c], -c))


class ExpertBot(HardBot):
    """Hard plus inference and match awareness.

    Sampled deals are weighted by the likelihood of the other players'
    earlier plays under a softmax play model (:mod:`polignac.bots.inference`,
    option ``beta``, default 1.5).  Near the match threshold (penalty games
    with a threshold) each sample's result counts as ``result - 100`` when it
    would take the bot to the threshold, so that the bot minimises the chance
    of losing the match rather than its points.
    """

    name = "expert"

    def __init__(self, samples: int = 16, time: float | None = None,
                 declare_samples: int = 4, beta: float = 1.5, nodes: int = 200_000,
                 **_: object) -> None:
        super().__init__(samples=samples, time=time, declare_samples=declare_samples,
                         nodes=nodes)
        self.beta = float(beta)

    def _weight(self, view: SeatView, hands: tuple[Mask, ...]) -> float:
        return play_log_likelihood(view, hands, self.beta)

    def _utility(self, view: SeatView, value: float) -> float:
        r = view.rules
        if r.scoring != "penalty" or r.threshold is None or not view.match_totals:
            return value
        if r.match_end not in ("threshold-loser", "threshold-lowest-wins"):
            return value
        mine = view.match_totals[view.player]
        return value - 100.0 if mine - value >= r.threshold else value


class OracleBot(HardBot):
    """Evaluation only: sees every hand (``cheats = True``) and plays the solver's best card.

    ``act`` (without the deal) falls back to the hard bot's search.
    """

    name = "oracle"
    cheats = True

    def act_open(self, deal: Deal, player: int, rng: random.Random) -> Action:
        """Choose ``player``'s action seeing the true deal.

        Raises:
            ValueError: ``player`` is not to act.
        """
        view = SeatView.of(deal, player)
        if not view.legal:
            raise ValueError(f"player {player} is not to act")
        if len(view.legal) == 1:
            return view.legal[0]
        call = pollack_call(view)
        if call is not None:
            return call
        if view.phase == 0:
            contract = next(a for a in view.legal if a != PASS)
            eldest = (view.dealer + 1) % view.num_players
            lead = player if view.rules.declaration == "generale" else eldest
            yes = self.solver.value(_position(view, deal.hands, player, lead), player)
            no = self.solver.value(_position(view, deal.hands, -1, eldest), player)
            return contract if yes > no else PASS
        values = self.solver.solve(Position.from_deal(deal))
        return max(values, key=lambda c: (values[c], -c))
