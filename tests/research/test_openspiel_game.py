"""Conformance of ``python_polignac`` with OpenSpiel's generic game tests.

The research extra is required: a missing ``pyspiel`` fails here loudly.
"""

from __future__ import annotations

import json
import pickle
import random

import numpy as np
import pyspiel
import pytest

from polignac.core.cards import SUIT_MASKS, cards_of
from polignac.core.presets import PRESETS
from polignac.research.encoding import (
    infostate_size,
    known_voids,
    observation_size,
)
from polignac.research.openspiel_game import SHORT_NAME, load_game

ALL_COUNTS = [(name, n) for name, rules in PRESETS.items() for n in rules.players]
DEFAULTS = [(name, rules.default_players) for name, rules in PRESETS.items()]


@pytest.mark.parametrize(("preset", "players"), ALL_COUNTS)
def test_random_sim_test(preset: str, players: int) -> None:
    game = load_game(preset, players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _sim_game(game: pyspiel.Game, rng: random.Random) -> None:
    """A port of open_spiel/python/tests/games_sim_test.py's sim_game."""
    assert game.min_utility() < game.max_utility()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    assert pickle.loads(pickle.dumps(game.get_type())) == game.get_type()
    state = game.new_initial_state()
    total = 0
    check_at = 1
    while not state.is_terminal():
        if total >= check_at:
            ser = pyspiel.serialize_game_and_state(game, state)
            new_game, new_state = pyspiel.deserialize_game_and_state(ser)
            assert str(new_game) == str(game) and str(new_state) == str(state)
            assert str(pickle.loads(pickle.dumps(state))) == str(state)
            check_at *= 2
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert outcomes and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            action = rng.choice([a for a, _ in outcomes])
        else:
            legal = state.legal_actions()
            assert legal == sorted(legal) and legal
            mask = state.legal_actions_mask()
            assert [i for i, m in enumerate(mask) if m] == legal
            action = rng.choice(legal)
        clone = state.clone()
        assert str(clone) == str(state) and clone.history() == state.history()
        state.apply_action(action)
        clone.apply_action(action)
        assert str(clone) == str(state) and clone.history() == state.history()
        total += 1
    assert state.legal_actions() == []
    for p in range(game.num_players()):
        assert state.legal_actions(p) == []
    returns = state.returns()
    for p, r in enumerate(returns):
        assert state.player_return(p) == r
        assert game.min_utility() <= r <= game.max_utility()
    if game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM:
        assert abs(sum(returns)) < 1e-9


@pytest.mark.parametrize(("preset", "players"), DEFAULTS)
def test_games_sim_checks(preset: str, players: int) -> None:
    game = load_game(preset, players)
    for seed in range(3):
        _sim_game(game, random.Random(seed))


def test_parameters_and_overrides() -> None:
    game = pyspiel.load_game(f"{SHORT_NAME}(preset=knaves)")
    assert game.num_players() == 3
    assert (game.min_utility(), game.max_utility()) == (-10.0, 17.0)
    game = load_game("polignac", 5, card_points={"JS": 3, "J": 1})
    assert json.loads(game.get_parameters()["rules"]) == {"card_points": {"JS": 3, "J": 1}}
    assert (game.min_utility(), game.max_utility()) == (-11.0, 0.0)  # 6 points + capot 5
    with pytest.raises(ValueError):
        load_game("pollack", 3)
    with pytest.raises(ValueError):
        load_game("no-such-preset")


@pytest.mark.parametrize(
    ("preset", "bounds"),
    [("polignac", (-10, 0)), ("polignac-threshold-general", (-10, 5)),
     ("polignac-fr", (-5, 0)), ("polignac-fr-generale", (-5, 0)),
     ("slobberhannes", (-4, 0)), ("bassadewitz", (-24, 12)), ("pollack", (-26, 26))],
)
def test_utility_bounds(preset: str, bounds: tuple[int, int]) -> None:
    game = load_game(preset)
    assert (game.min_utility(), game.max_utility()) == bounds


def _dealt(game: pyspiel.Game, seed: int) -> pyspiel.State:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    return state


def test_tensors_have_the_declared_sizes() -> None:
    for preset, n in [("polignac", 4), ("polignac-party", 10), ("knaves", 3), ("pollack", 4)]:
        game = load_game(preset, n)
        rules = PRESETS[preset]
        assert game.observation_tensor_size() == observation_size(n) == 107 + 122 * n
        assert game.information_state_tensor_size() == infostate_size(rules, n)
        state = _dealt(game, 1)
        obs = np.array(state.observation_tensor(0))
        assert obs[3:55].sum() == rules.hand_size(n)  # the hand block
        info = np.array(state.information_state_tensor(0))
        assert info[:n].tolist() == [1.0] + [0.0] * (n - 1)
        state.apply_action(state.legal_actions()[0])
        info = np.array(state.information_state_tensor(1))
        assert info[n + 104:].sum() == 1.0  # one action so far


def _play_until_void(game: pyspiel.Game, seed: int) -> pyspiel.State:
    rng = random.Random(seed)
    for _ in range(100):
        state = _dealt(game, rng.randrange(10**9))
        while not state.is_terminal():
            deal = state.deal
            if any(known_voids(deal)) and len(deal.past) >= 2:
                return state
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no void shown")


@pytest.mark.parametrize("preset", ["polignac", "knaves", "slobberhannes"])
def test_resample_keeps_what_the_player_knows(preset: str) -> None:
    game = load_game(preset)
    state = _play_until_void(game, 7)
    deal = state.deal
    viewer = deal.to_act
    voids = known_voids(deal)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differs = False
    for _ in range(20):
        other = state.resample_from_infostate(viewer, sampler)
        od = other.deal
        assert other.information_state_string(viewer) == state.information_state_string(viewer)
        assert other.information_state_tensor(viewer) == state.information_state_tensor(viewer)
        assert od.hands[viewer] == deal.hands[viewer] and od.turn_up == deal.turn_up
        assert od.history == deal.history and od.taken == deal.taken
        assert od.legal_actions() == deal.legal_actions()
        for p in range(deal.num_players):
            assert od.hands[p].bit_count() == deal.hands[p].bit_count()
            for s in range(4):
                if voids[p] >> s & 1:
                    assert not od.hands[p] & SUIT_MASKS[s]
        differs |= od.hands != deal.hands
    assert differs


def test_resample_keeps_pollack_announcements_true() -> None:
    game = load_game("pollack")
    rng = random.Random(3)
    for _ in range(300):
        state = _dealt(game, rng.randrange(10**9))
        while not state.is_terminal() and not state.deal.announcements:
            legal = [a for a in state.legal_actions() if a != 56]  # no claims
            calls = [a for a in legal if a >= 57]
            state.apply_action(calls[0] if calls else rng.choice(legal))
        if state.deal.announcements and not state.is_terminal():
            break
    else:
        raise AssertionError("no announcement made")
    announcer = state.deal.announcements[0][0]
    viewer = (announcer + 1) % 4
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(10):
        other = state.resample_from_infostate(viewer, sampler)
        assert other.deal.announcements == state.deal.announcements
        assert other.information_state_string(viewer) == state.information_state_string(viewer)


def test_resample_while_dealing_keeps_the_own_cards() -> None:
    game = load_game("knaves")
    state = game.new_initial_state()
    for c in cards_of(game.config.pack)[:10]:
        state.apply_action(c)
    other = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(1) == state.information_state_string(1)
    assert other.turn_up == state.turn_up
