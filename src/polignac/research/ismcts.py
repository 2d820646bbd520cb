"""OpenSpiel's information-set MCTS as a polignac bot: ``make_bot("openspiel-ismcts:sims=1000")``.

Importing this module registers ``openspiel-ismcts`` with
:func:`polignac.bots.registry.register_bot`.

The bot receives a :class:`~polignac.bots.base.SeatView` like every bot.  It
deals the cards it cannot see afresh, consistently with the view (its hand,
the turn-up, every card played, the voids shown, the announcements made: see
:mod:`polignac.research.sampling`), builds the ``python_polignac`` OpenSpiel
state of that deal and replays the deal's actions on it, then asks
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` for an action; the search
resamples the hidden cards again at every simulation through
:meth:`PolignacState.resample_from_infostate`.

The Python ISMCTS is used because OpenSpiel's C++ ``pyspiel.ISMCTSBot``
crashes (segmentation fault, pyspiel 2.0.2) when it searches a game written
in Python, before it ever calls the game's resampling hook.  Leaf values come
from random rollouts played on the core :class:`~polignac.core.deal.Deal`
directly (:class:`DealRolloutEvaluator`), much faster than through pyspiel.

Limits: one OpenSpiel game is one deal, so the bot plays each deal for its
own return and ignores the match score; a claim (a game scored by sides) is
judged as if the partie stood at 0-0 (so the bot claims only with 21 in the deal itself);
deals with a player count the preset does not allow (tie-break deals) are
played by the uniform random policy.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts as os_ismcts

from ..bots.base import SeatView
from ..bots.hearts import medium_pass
from ..bots.registry import register_bot
from ..core.actions import Action
from ..core.deal import PASS_CARDS
from ..core.errors import RulesError
from ..core.presets import PRESETS
from .encoding import deal_returns
from .openspiel_game import PolignacState, load_game
from .sampling import Knowledge, sample_hands


class DealRolloutEvaluator:
    """An OpenSpiel MCTS evaluator: the mean return of uniformly random play-outs,
    played on the core deal (uniform prior)."""

    def __init__(self, rollouts: int = 1, seed: int = 0) -> None:
        self.rollouts = rollouts
        self._rng = random.Random(seed)

    def evaluate(self, state: PolignacState) -> np.ndarray:
        """Average returns of ``rollouts`` random play-outs from ``state``."""
        deal = state.deal
        if deal is None:
            raise ValueError("the rollout evaluator needs a dealt state")
        total = np.zeros(deal.num_players)
        rand = self._rng.randrange
        for _ in range(self.rollouts):
            d = deal
            while not d.done:
                legal = d.legal_actions()
                d = d.apply(legal[rand(len(legal))])
            total += deal_returns(d)
        return total / self.rollouts

    def prior(self, state: PolignacState) -> list[tuple[int, float]]:
        """Uniform over the legal actions."""
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def state_from_view(view: SeatView, rng: random.Random) -> PolignacState:
    """An OpenSpiel state the viewer cannot tell from the real one (hidden cards sampled).

    Raises:
        RulesError: the preset does not allow this many players (a tie-break deal).
        SamplingError: no deal consistent with the view was found.
    """
    rules = view.rules
    base = PRESETS.get(rules.preset)
    overrides = rules.overrides_from(base) if base is not None else {}
    game = load_game(rules.preset, view.num_players, view.dealer, **overrides)
    tricks = tuple((t.leader, t.cards) for t in view.tricks)
    if view.trick:
        tricks += ((view.leader, view.trick),)
    known = ((view.pass_to, view.passed),) if view.pass_to >= 0 else ()
    know = Knowledge(rules, view.num_players, view.dealer, view.player, view.initial_hand,
                     view.turn_up, tricks, view.hand_sizes, view.announcements, view.history,
                     known)
    hands = sample_hands(know, rng)
    state: PolignacState = game.new_initial_state()
    queues = [sorted(_cards(h), key=lambda _c: rng.random()) for h in hands]
    k = 0
    while state.is_chance_node():
        owner = state.owner_of_position(k)
        state.apply_action(view.turn_up if owner < 0 else queues[owner].pop())
        k += 1
    for a in view.history:
        state.apply_action(a)
    return state


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


class OpenSpielISMCTSBot:
    """A seat played by OpenSpiel's ISMCTS (``sims`` simulations per move).

    Options: ``sims`` (1000), ``uct_c`` (exploration constant, in units of the
    game's return range; 0.5), ``rollouts`` per leaf (1), ``world_samples``
    (-1: a fresh sample at every simulation), ``final`` (``visits``: the most
    visited action; ``value``: the best mean value).
    """

    def __init__(self, sims: int = 1000, uct_c: float = 0.5, rollouts: int = 1,
                 world_samples: int = -1, final: str = "visits") -> None:
        if sims < 1 or rollouts < 1:
            raise RulesError("openspiel-ismcts: sims and rollouts must be at least 1")
        if final not in ("visits", "value"):
            raise RulesError("openspiel-ismcts: final must be visits or value")
        self.sims = sims
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.world_samples = world_samples
        self.final = final
        self.name = f"openspiel-ismcts:sims={sims}"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        """Search from a sampled state of the viewer's information set.

        Raises:
            ValueError: it is not the viewer's turn.
        """
        if not view.legal:
            raise ValueError("no legal action: it is not this bot's turn")
        if len(view.legal) == 1:
            return view.legal[0]
        if view.phase == PASS_CARDS:  # the Hearts family's passing: no search over it
            return medium_pass(view.rules, view.hand, view.legal)
        try:
            state = state_from_view(view, rng)
        except RulesError:
            return view.legal[rng.randrange(len(view.legal))]
        game = state.get_game()
        scale = game.max_utility() - game.min_utility()
        seed = rng.randrange(2**31)
        sampler_rng = random.Random(seed)
        final = (os_ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT if self.final == "visits"
                 else os_ismcts.ISMCTSFinalPolicyType.MAX_VALUE)
        bot = os_ismcts.ISMCTSBot(
            game, DealRolloutEvaluator(self.rollouts, seed), self.uct_c * scale, self.sims,
            max_world_samples=self.world_samples,
            random_state=np.random.RandomState(seed), final_policy_type=final)
        bot.set_resampler(lambda s, p: s.resample_from_infostate(p, sampler_rng.random))
        action = int(bot.step(state))
        if action not in view.legal:  # pragma: no cover - the search only sees legal actions
            raise RulesError(f"openspiel-ismcts chose an illegal action {action}")
        return action


def _factory(**options: Any) -> OpenSpielISMCTSBot:
    return OpenSpielISMCTSBot(**options)


register_bot("openspiel-ismcts", _factory)

__all__ = ["DealRolloutEvaluator", "OpenSpielISMCTSBot", "state_from_view"]
