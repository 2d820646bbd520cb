"""PettingZoo conformance of the native AEC environment, for every preset."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from polignac.core.cards import cards_of
from polignac.core.presets import PRESETS
from polignac.research.encoding import deal_returns
from polignac.research.openspiel_game import load_game
from polignac.research.pettingzoo_env import env, raw_env

pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent", "ignore:Observation is not a NumPy array")

OTHER_COUNTS = [("polignac", 3), ("polignac", 6), ("polignac-party", 10), ("polignac-fr", 8),
                ("slobberhannes", 5)]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_api_and_seed(preset: str) -> None:
    api_test(env(preset), num_cycles=1000, verbose_progress=False)
    seed_test(lambda: env(preset), num_cycles=1000)


@pytest.mark.parametrize(("preset", "players"), OTHER_COUNTS)
def test_api_other_counts(preset: str, players: int) -> None:
    api_test(env(preset, players), num_cycles=1000, verbose_progress=False)
    seed_test(lambda: env(preset, players), num_cycles=1000)


def test_rewards_are_the_deal_returns_and_observations_match_openspiel() -> None:
    e = raw_env("knaves")
    e.reset(seed=5)
    deal = e.deal
    assert deal is not None
    game = load_game("knaves", dealer=deal.dealer)
    state = game.new_initial_state()
    state.apply_action(deal.turn_up)
    hands = [cards_of(h) for h in deal.initial_hands]
    for r in range(len(hands[0])):
        for j in range(3):
            state.apply_action(hands[(deal.dealer + 1 + j) % 3][r])
    rng = random.Random(0)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, _truncated, _ = e.last()
        totals[agent] += reward
        i = int(agent.split("_")[1])
        if not terminated:
            assert np.array_equal(obs["observation"], np.array(state.observation_tensor(i),
                                                               np.float32))
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            assert legal == state.legal_actions()
            action = rng.choice(legal)
            state.apply_action(action)
            e.step(action)
        else:
            e.step(None)
    assert state.is_terminal()
    assert list(totals.values()) == state.returns() == deal_returns(state.deal)
