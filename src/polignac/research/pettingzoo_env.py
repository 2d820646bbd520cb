"""Every preset as a PettingZoo AEC environment (native: it drives the core directly).

>>> from polignac.research.pettingzoo_env import env
>>> e = env("slobberhannes")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), obs["observation"].shape, int(obs["action_mask"].sum()) > 0
(['action_mask', 'observation'], (595,), True)

One episode is one deal.  Agents are ``player_0`` .. ``player_{n-1}`` in play
order (the core's player numbers); the dealer is drawn from the seeded random
generator at each reset (or fixed with ``dealer=``).  Observations are dicts:
``observation`` (float32, the layout of :mod:`polignac.research.encoding`, the
same as OpenSpiel's observation tensor) and ``action_mask`` (int8, 67 actions:
the legal actions of the agent to act, zeros for the others).  Rewards come
at the end of the deal, as OpenSpiel's returns
(:func:`polignac.research.encoding.deal_returns`).  An illegal action raises
:class:`polignac.core.errors.IllegalActionError` (a ``ValueError``).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.actions import NUM_ACTIONS, action_name
from ..core.cards import CODES, cards_of
from ..core.deal import Deal
from ..core.presets import get_rules
from .encoding import deal_returns, encode_observation, observation_size


class PolignacAEC(AECEnv):  # type: ignore[misc]
    """One deal of ``preset`` for ``players`` players (0: the preset's default)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "polignac_v0",
                "is_parallelizable": False}

    def __init__(self, preset: str = "polignac", players: int = 0,
                 render_mode: str | None = None, dealer: int | None = None,
                 **overrides: Any) -> None:
        super().__init__()
        self.rules = get_rules(preset, overrides)
        n = players or self.rules.default_players
        self.rules.check_player_count(n)
        self.n = n
        self.fixed_dealer = dealer
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        size = observation_size(n)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._rng = random.Random()
        self.deal: Deal | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Shuffle and deal a new deal (seeded by ``seed`` when given)."""
        if seed is not None:
            self._rng = random.Random(seed)
        dealer = (self.fixed_dealer if self.fixed_dealer is not None
                  else self._rng.randrange(self.n))
        self.deal = Deal.shuffled(self.rules, self.n, dealer, self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.deal.to_act]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation tensor and action mask."""
        assert self.deal is not None, "call reset() first"
        i = self._index[agent]
        obs = np.zeros(observation_size(self.n), np.float32)
        encode_observation(self.deal, i, obs)
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if not self.deal.done and self.deal.to_act == i:
            mask[self.deal.legal_actions()] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to act (None for an agent whose deal is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.deal is not None and action is not None
        self.deal = self.deal.apply(int(action))
        self._cumulative_rewards[agent] = 0.0
        if self.deal.done:
            for a, r in zip(self.agents, deal_returns(self.deal), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
        else:
            self.agent_selection = self.agents[self.deal.to_act]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The deal as text (``ansi``), or printed (``human``)."""
        if self.deal is None:
            return None
        d = self.deal
        lines = [f"{d.rules.preset} dealer {d.dealer} {d.phase_name}"]
        for p in range(self.n):
            lines.append(f"player_{p}: " + " ".join(CODES[c] for c in cards_of(d.hands[p])))
        lines.append("actions: " + " ".join(action_name(a) for a in d.history))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def raw_env(preset: str = "polignac", players: int = 0, render_mode: str | None = None,
            **kwargs: Any) -> PolignacAEC:
    """The environment without PettingZoo's wrappers."""
    return PolignacAEC(preset, players, render_mode, **kwargs)


def env(preset: str = "polignac", players: int = 0, render_mode: str | None = None,
        **kwargs: Any) -> AECEnv:
    """The environment wrapped in PettingZoo's order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(preset, players, render_mode, **kwargs))


__all__ = ["PolignacAEC", "env", "raw_env"]
