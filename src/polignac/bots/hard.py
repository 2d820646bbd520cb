"""Search bots: ``hard`` (determinized search), ``expert`` (a larger budget spent
by sequential halving over the cards, tempered inference, match awareness) and
the evaluation-only ``oracle`` (sees every hand).

``HardBot`` samples complete deals consistent with everything its seat has
seen (its hand, the cards played, revealed voids, the Knaves turn-up, the
announcements made).  Early
and in the middle of the deal it plays each legal card in every sampled deal
and finishes the deal with ``medium`` playing every seat (each from its own
view of the sampled deal): PIMC with heuristic playouts, a one-step policy
improvement over ``medium``.  In the endgame (at most ``late`` cards in hand)
it solves each sample exactly with the best-reply (max^n) model of
:mod:`polignac.bots.solver`.  It plays the card with the best mean result;
near-equal cards go to ``medium``'s choice.  Declarations are decided by the
exact (paranoid: the others try to break the contract) solver: a contract is
declared only when its mean solved result beats passing (hands too weak to
take most tricks pass without searching).  Calls beyond card play: every
scoring combination is announced, and "out" is claimed exactly when the side
has reached the partie's target.
All bots are deterministic for a given ``rng`` seed and always legal.
"""
from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Iterator, Mapping, Sequence

from ..core.actions import ANNOUNCE_BASE, CLAIM, PASS, Action
from ..core.cards import Mask
from ..core.deal import DECLARE, PASS_CARDS, Deal
from .base import SeatView
from .inference import play_log_likelihood, policy_log_likelihood, replay_from_start, sample_hands
from .simple import MediumBot
from .solver import Position, Solver, default_solver, final_result


def position_of(view: SeatView, hands: Sequence[Mask], declarer: int | None = None,
                leader: int | None = None) -> Position:
    """The solver's position for ``view`` with every hand given (``hands``); the declarer
    and the leader default to the view's (a declaration is solved with others); the
    scoring family's state is the view's."""
    return Position(
        rules=view.rules,
        hands=tuple(hands),
        trick=view.trick,
        leader=view.leader if leader is None else leader,
        winners=tuple(t.winner for t in view.tricks),
        taken=view.taken,
        declarer=view.declarer if declarer is None else declarer,
        dealer=view.dealer,
        family_state=view.family_state,
        turn_up=-1 if view.turn_up is None else view.turn_up,
    )


def _world(view: SeatView, hands: Sequence[Mask]) -> Deal | None:
    """The deal with the sampled ``hands`` now, replayed from its start (None: inconsistent)."""
    d = replay_from_start(view, tuple(hands))
    if d is None:
        return None
    try:
        for a in view.history:
            d = d.apply(a)
    except ValueError:
        return None
    return d


def playout_result(deal: Deal, player: int) -> int:
    """A finished playout's result for ``player``: the solver's model plus what the
    deal's calls are worth to it in card points (the scoring family's
    ``calls_card_points``: by sides, the side's announcements, which the card
    play can win or lose)."""
    return final_result(deal, player) + deal.rules.scorer.calls_card_points(deal, player)


def call_for(view: SeatView) -> Action | None:
    """Calls beyond card play: announce any scoring combination; claim exactly when
    the side has reached the partie's target; else None."""
    for a in view.legal:
        if a >= ANNOUNCE_BASE:
            return a
    if CLAIM in view.legal and view.side_totals[view.player & 1] >= view.rules.partie_target:
        return CLAIM
    return None


def _could_sweep(view: SeatView) -> bool:
    """Cheap filter: at most one card of the hand can be beaten by a card of its
    suit that the hand does not hold."""
    strength = view.rules.strength()
    others = view.rules.pack_mask(view.num_players) & ~view.hand
    weak = 0
    for c in range(52):
        if view.hand >> c & 1:
            suit = others >> (13 * (c // 13)) & 0x1FFF
            if any(suit >> r & 1 and strength[r] > strength[c % 13] for r in range(13)):
                weak += 1
    return weak <= 1


class HardBot:
    """Determinized search: medium playouts, then an exact endgame.

    Options:

    * ``roll`` (99): with more than ``late`` and at most ``roll`` cards in
      hand, each legal card is scored by ``medium`` playouts over
      ``rollouts`` (16) sampled deals (the same deals for every card); with more
      than ``roll`` cards the bot plays ``medium``'s card.
    * ``late`` (3): with at most this many cards in hand, each of up to
      ``samples`` (12) sampled deals is solved exactly within a node budget
      of ``nodes`` (150,000, shared by the samples; sampling stops at the
      first sample that does not fit; none fits: ``medium``'s card).
    * ``model`` (``"reply"``): the endgame model, ``"reply"`` (best reply /
      max^n, :meth:`Solver.best_reply_within`) or ``"paranoid"``.
    * ``tol`` (0.0): cards whose mean result is within ``tol`` of the best
      all count as best; ``medium`` chooses among them.
    * ``time`` (seconds; when set, also stop sampling once it is spent after
      at least one sample: no longer reproducible; default None),
      ``declare_samples`` (deals sampled to decide a contract, default 4).

    Counts of samples, playouts and nodes, unlike times, are reproducible:
    the choice depends only on the view and the rng seed.
    """

    name = "hard"

    def __init__(self, samples: int = 12, time: float | None = None,
                 declare_samples: int = 4, nodes: int = 150_000, tol: float = 0.0,
                 late: int = 3, model: str = "reply", roll: int = 99,
                 rollouts: int = 16) -> None:
        self.roll = int(roll)
        self.rollouts = int(rollouts)
        if model not in ("reply", "paranoid"):
            raise ValueError(f"hard: model must be 'reply' or 'paranoid', got {model!r}")
        self.model = model
        self.samples = int(samples)
        self.tol = float(tol)
        self.late = int(late)
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
        if view.phase == PASS_CARDS:  # the Hearts family's passing: medium's choice
            return self.fallback.act(view, rng)
        call = call_for(view)
        if call is not None:
            return call
        if view.phase == DECLARE:
            return self._declare(view, rng)
        cards = [a for a in view.legal if a < 52]
        if len(cards) == 1:
            return cards[0]
        return self._best_card(view, cards, rng)

    def _declare(self, view: SeatView, rng: random.Random) -> Action:
        contract = next(a for a in view.legal if a != PASS)
        if not _could_sweep(view):
            return PASS
        gain = 0.0
        for _ in range(self.declare_samples):
            hands = sample_hands(view, rng)
            gain += (self._contract_value(view, hands, contract, True, rng)
                     - self._contract_value(view, hands, contract, False, rng))
        return contract if gain > 0 else PASS

    def _contract_value(self, view: SeatView, hands: Sequence[Mask], contract: Action,
                        declare: bool, rng: random.Random) -> float:
        """The seat's result in one deal if it declares ``contract`` (or passes).

        Exact under the paranoid model (the others try to break a contract)
        within the node budget ``nodes``; past it, one ``medium`` playout of
        the deal (everyone else passing, or declaring as ``medium`` would).
        """
        eldest = (view.dealer + 1) % view.num_players
        lead = view.player if view.rules.contract.declarer_leads else eldest
        pos = (position_of(view, hands, view.player, lead) if declare
               else position_of(view, hands, -1, eldest))
        value = self.solver.value_within(pos, self.nodes, view.player)
        if value is not None:
            return value
        d = _world(view, hands)
        if d is None:  # pragma: no cover - sampled hands always replay
            return 0.0
        return playout_result(self._playout(d.apply(contract if declare else PASS), rng),
                              view.player)

    def _playout(self, deal: Deal, rng: random.Random) -> Deal:
        """``deal`` finished with ``medium`` in every seat, each from its own view."""
        while not deal.done:
            deal = deal.apply(self.fallback.act(SeatView.of(deal, deal.to_act), rng))
        return deal

    def _medium_card(self, view: SeatView, cards: list[Action], rng: random.Random) -> Action:
        """``medium``'s card (the fallback when the search has nothing to go on)."""
        action = self.fallback.act(view, rng)
        return action if action in cards else cards[0]

    def _utility(self, view: SeatView, value: float) -> float:
        return value

    def _weight(self, view: SeatView, hands: tuple[Mask, ...]) -> float:
        return 0.0

    def _samples(self, view: SeatView, rng: random.Random,
                 k: int) -> Iterator[tuple[float, tuple[Mask, ...]]]:
        """Up to ``k`` sampled deals with their log-weights, drawn lazily."""
        for _ in range(k):
            hands = sample_hands(view, rng)
            yield self._weight(view, hands), hands

    def _late(self, view: SeatView) -> int:
        """Cards in hand at or below which the exact endgame solves the deal: none in a
        family the solver does not model (``Family.exact_solver``; every family now)."""
        return self.late if view.rules.family.exact_solver else 0

    def _best_card(self, view: SeatView, cards: list[Action], rng: random.Random) -> Action:
        late = self._late(view)
        if late < view.hand.bit_count() <= self.roll:
            return self._rollout_card(view, cards, rng)
        if view.hand.bit_count() > late:
            return self._medium_card(view, cards, rng)
        start = time.perf_counter()
        samples: list[tuple[float, Mapping[int, float]]] = []
        left = self.nodes
        for weight, hands in self._samples(view, rng, self.samples):
            pos = position_of(view, hands)
            values = (self.solver.best_reply_within(pos, left) if self.model == "reply"
                      else self.solver.solve_within(pos, left))
            if values is None:
                break
            samples.append((weight, values))
            if self.nodes > 0:
                left -= self.solver.last_nodes
                if left <= 0:
                    break
            if self.time is not None and time.perf_counter() - start > self.time:
                break
        if not samples:
            return self._medium_card(view, cards, rng)
        return self._weighted_pick(view, cards, samples, rng)

    def _rollout_card(self, view: SeatView, cards: list[Action], rng: random.Random) -> Action:
        """PIMC with ``medium`` playouts: each card's mean result over sampled deals."""
        worlds: list[tuple[float, Deal]] = []
        for weight, hands in self._samples(view, rng, self.rollouts):
            world = _world(view, hands)
            if world is not None:
                worlds.append((weight, world))
        if not worlds:
            return self._medium_card(view, cards, rng)
        return self._rollout_pick(view, cards, worlds, rng)

    def _rollout_pick(self, view: SeatView, cards: list[Action],
                      worlds: list[tuple[float, Deal]], rng: random.Random) -> Action:
        """The card with the best weighted mean result of ``medium`` playouts in ``worlds``."""
        scored = [(w, {c: playout_result(self._playout(world.apply(c), rng), view.player)
                       for c in cards}) for w, world in worlds]
        return self._weighted_pick(view, cards, scored, rng)

    def _weighted_pick(self, view: SeatView, cards: list[Action],
                       scored: Sequence[tuple[float, Mapping[int, float]]],
                       rng: random.Random) -> Action:
        """The card with the best weighted mean utility over ``scored``
        (log-weight, result per card); cards within ``tol`` of it go to
        ``medium``'s choice."""
        totals = dict.fromkeys(cards, 0.0)
        top = max(w for w, _ in scored)
        wsum = 0.0
        for w, values in scored:
            weight = math.exp(w - top)
            wsum += weight
            for c in cards:
                totals[c] += weight * self._utility(view, values[c])
        best = max(totals.values())
        near = [c for c in cards if totals[c] >= best - self.tol * wsum - 1e-9]
        return near[0] if len(near) == 1 else self._medium_pick(view, near, rng)

    def _medium_pick(self, view: SeatView, cards: list[Action], rng: random.Random) -> Action:
        """``medium``'s choice among ``cards`` (the search's best, or near best)."""
        action = self.fallback.act(dataclasses.replace(view, legal=tuple(cards)), rng)
        return action if action in cards else cards[0]


def halving_schedule(k: int, playouts: int, cap: int, first: int = 1) -> list[tuple[int, int]]:
    """Sequential halving of ``k`` cards with about ``playouts`` playouts in all.

    One ``(alive, worlds)`` pair per round: ``alive`` cards are each played
    out in the first ``worlds`` sampled deals (cumulative, at most ``cap``),
    then the better half (rounded up) goes on.  The first round gives every
    card at least ``first`` deals; the rest of the budget is shared equally by
    the rounds, so a card that survives longer is measured on more deals: the
    budget goes to the close decisions.

    Raises:
        ValueError: ``k`` < 1.
    """
    if k < 1:
        raise ValueError(f"halving needs at least one card, got {k}")
    rounds = max(1, math.ceil(math.log2(k)))
    share = playouts // rounds
    out: list[tuple[int, int]] = []
    alive = k
    worlds = min(cap, max(first, share // k, 1))
    left = playouts - k * worlds
    out.append((alive, worlds))
    for r in range(1, rounds):
        alive = (alive + 1) // 2
        worlds = min(cap, worlds + max(0, left // ((rounds - r) * alive)))
        left -= alive * (worlds - out[-1][1])
        out.append((alive, worlds))
    return out


def temper(logw: Sequence[float], ess: float) -> float:
    """The largest power ``tau`` in [0, 1] of the likelihoods ``exp(logw)`` whose
    effective sample size is at least ``ess`` times their number.

    So inference sharpens the sample only as far as it keeps enough distinct
    deals (``tau`` 0: every deal counts the same).  Deals of log-weight
    ``-inf`` (impossible) are left out of the count.
    """
    finite = [w for w in logw if w > -math.inf]  # impossible deals weigh 0 at any tau
    if not finite:
        return 1.0

    def enough(tau: float) -> bool:
        top = max(tau * w for w in finite)
        e = [math.exp(tau * w - top) for w in finite]
        return sum(e) ** 2 >= ess * len(e) * sum(x * x for x in e)

    if enough(1.0):
        return 1.0
    lo, hi = 0.0, 1.0
    for _ in range(20):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if enough(mid) else (lo, mid)
    return lo


class ExpertBot(HardBot):
    """Hard with a larger, better spent budget, inference and match awareness.

    * Playouts: about ``work`` (5,000) ``medium`` moves per decision, the
      inference's replays of the others' moves (at most a quarter) and the
      playouts' moves together, so the number of playouts scales with the
      cards left to play (Knaves' long deals get fewer), but never below
      hard's ``rollouts`` (16) per legal card.  They are spread over the legal
      cards by sequential halving (:func:`halving_schedule`): every card on
      the first ``rollouts`` sampled deals, then the better half on more
      deals, and so on, at most ``worlds`` (160) deals; all cards are
      compared on the same deals.
    * Inference (``infer``): ``"medium"`` (default) weights each sampled deal
      by how likely the other players' earlier actions were if they play like
      ``medium`` (each took ``medium``'s action with probability ``1 - eps``,
      ``eps`` 0.2; :func:`polignac.bots.inference.policy_log_likelihood`),
      tempered (:func:`temper`) so that the weights keep an effective sample
      size of at least ``ess`` (0.5) of the deals: the sample never collapses
      onto a few deals.  A deal's replay stops once it falls ``floor`` (12)
      log-units behind the best so far (it would weigh next to nothing).
      ``"heuristic"`` uses a softmax play model (``beta`` 1.5) instead,
      ``"none"`` no inference.
    * Endgame (at most ``late`` = 3 cards): up to ``samples`` (48) weighted
      deals solved exactly (best reply) within ``nodes`` (600,000).
    * Match awareness: near the match threshold (penalty games with a
      threshold) each sample's result counts as ``result - 100`` when it
      would take the bot to the threshold, so that the bot minimises the
      chance of losing the match rather than its points.
    * ``tol``, ``model``, ``roll``, ``time`` and ``declare_samples``: as
      :class:`HardBot`'s.

    Counts, not times: the choice depends only on the view and the rng seed.

    Raises:
        ValueError: an unknown ``infer`` or ``model``, ``eps`` outside (0, 1)
            or ``ess`` outside [0, 1].
    """

    name = "expert"

    def __init__(self, samples: int = 48, time: float | None = None,
                 declare_samples: int = 4, beta: float = 1.5, nodes: int = 600_000,
                 rollouts: int = 16, infer: str = "medium", eps: float = 0.2,
                 ess: float = 0.5, work: int = 5_000, worlds: int = 160,
                 floor: float = 12.0, tol: float = 0.0, late: int = 3, model: str = "reply",
                 roll: int = 99) -> None:
        super().__init__(samples=samples, time=time, declare_samples=declare_samples,
                         nodes=nodes, tol=tol, late=late, model=model, roll=roll,
                         rollouts=rollouts)
        if infer not in ("medium", "heuristic", "none"):
            raise ValueError(
                f"expert: infer must be 'medium', 'heuristic' or 'none', got {infer!r}")
        if not 0.0 < float(eps) < 1.0:
            raise ValueError(f"expert: eps must lie strictly between 0 and 1, got {eps}")
        if not 0.0 <= float(ess) <= 1.0:
            raise ValueError(f"expert: ess must lie between 0 and 1, got {ess}")
        self.infer = infer
        self.eps = float(eps)
        self.ess = float(ess)
        self.beta = float(beta)
        self.work = int(work)
        self.worlds = max(1, int(worlds))
        self.floor = float(floor)

    def _log_likelihood(self, view: SeatView, hands: tuple[Mask, ...], floor: float) -> float:
        if self.infer == "none" or not view.history:
            return 0.0
        if self.infer == "heuristic":
            return play_log_likelihood(view, hands, self.beta)
        return policy_log_likelihood(view, hands, self.fallback, self.eps, floor)

    def _weighted(self, view: SeatView, rng: random.Random,
                  k: int) -> list[tuple[float, tuple[Mask, ...]]]:
        """``k`` sampled deals with their tempered log-likelihoods (impossible ones left out)."""
        drawn: list[tuple[float, tuple[Mask, ...]]] = []
        best = -math.inf
        for _ in range(k):
            hands = sample_hands(view, rng)
            w = self._log_likelihood(view, hands, best - self.floor)
            best = max(best, w)
            drawn.append((w, hands))
        drawn = [(w, h) for w, h in drawn if w > -math.inf]
        tau = temper([w for w, _ in drawn], self.ess)
        return [(tau * w, h) for w, h in drawn]

    def _samples(self, view: SeatView, rng: random.Random,
                 k: int) -> Iterator[tuple[float, tuple[Mask, ...]]]:
        """The endgame's deals: weighted as for the playouts."""
        yield from self._weighted(view, rng, k)

    def _rollout_card(self, view: SeatView, cards: list[Action], rng: random.Random) -> Action:
        """Sequential halving over ``cards`` with ``medium`` playouts in weighted deals."""
        left = max(1, sum(view.hand_sizes))  # the moves of one playout
        # the inference replays the others' earlier moves in every deal: at most a
        # quarter of the work, the playouts get the rest (at least hard's count)
        theirs = 0 if self.infer == "none" else len(view.history) * (view.num_players - 1)
        theirs //= view.num_players
        cap = min(self.worlds, max(self.rollouts, self.work // max(1, 4 * theirs)))
        budget = max(self.rollouts * len(cards), (self.work - cap * theirs) // left)
        schedule = halving_schedule(len(cards), budget, cap, self.rollouts)
        worlds: list[tuple[float, Deal]] = []
        for w, hands in self._weighted(view, rng, schedule[-1][1]):
            world = _world(view, hands)
            if world is not None:
                worlds.append((w, world))
        if not worlds:
            return self._medium_card(view, cards, rng)
        results: dict[int, list[float]] = {c: [] for c in cards}
        alive = list(cards)
        n = 0
        for r, (_, upto) in enumerate(schedule):
            n = min(upto, len(worlds))
            for c in alive:
                got = results[c]
                got.extend(playout_result(self._playout(worlds[i][1].apply(c), rng), view.player)
                           for i in range(len(got), n))
            if r < len(schedule) - 1:
                top = max(w for w, _ in worlds[:n])
                weights = [math.exp(w - top) for w, _ in worlds[:n]]

                def mean(c: int, weights: list[float] = weights) -> float:
                    return sum(x * self._utility(view, v)
                               for x, v in zip(weights, results[c], strict=True))

                alive = sorted(alive, key=mean, reverse=True)[:schedule[r + 1][0]]
        scored = [(worlds[i][0], {c: results[c][i] for c in alive}) for i in range(n)]
        return self._weighted_pick(view, alive, scored, rng)

    def _utility(self, view: SeatView, value: float) -> float:
        r = view.rules
        if not r.kind.penalty or r.threshold is None or not view.match_totals:
            return value
        if r.match_end not in ("threshold-loser", "threshold-lowest-wins"):
            return value
        mine = view.match_totals[view.player]
        return value - 100.0 if mine - value >= r.threshold else value


class OracleBot(HardBot):
    """Evaluation only: sees every hand (``cheats = True``).

    The same model as ``hard`` on the true deal: with at most ``late`` cards
    the exact best-reply solve, otherwise one ``medium`` playout per legal
    card from the true deal (which, against ``medium`` opponents, predicts
    their play exactly).  ``act`` (without the deal) falls back to the hard
    bot's search.
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
        if view.phase == PASS_CARDS:
            return self.fallback.act(view, rng)
        call = call_for(view)
        if call is not None:
            return call
        if view.phase == DECLARE:
            contract = next(a for a in view.legal if a != PASS)
            if not _could_sweep(view):
                return PASS
            yes = self._contract_value(view, deal.hands, contract, True, rng)
            no = self._contract_value(view, deal.hands, contract, False, rng)
            return contract if yes > no else PASS
        cards = [a for a in view.legal if a < 52]
        if len(cards) == 1:
            return cards[0]
        values: dict[int, int] | None = None
        if view.hand.bit_count() <= self._late(view):
            pos = Position.from_deal(deal)
            values = (self.solver.best_reply_within(pos, self.nodes) if self.model == "reply"
                      else self.solver.solve_within(pos, self.nodes))
        if values is None:
            if view.hand.bit_count() > self.roll:
                return self._best_card(view, cards, rng)
            return self._rollout_pick(view, cards, [(0.0, deal)], rng)
        return self._weighted_pick(view, cards, [(0.0, values)], rng)
