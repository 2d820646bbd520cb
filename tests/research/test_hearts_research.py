"""The Hearts family in the research layer: hidden passes in the information state,
resampled states the viewer cannot tell apart, ISMCTS's view (needs pyspiel)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pyspiel")

from polignac.research.openspiel_game import load_game


@pytest.mark.parametrize(("preset", "players"), [("black-lady", 4), ("black-maria", 3),
                                                 ("black-maria", 5)])
def test_resampled_states_look_the_same_to_the_viewer(preset: str, players: int) -> None:
    game = load_game(preset, players)
    rng = random.Random(4)
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            for q in range(players):
                other = state.resample_from_infostate(q, rng.random)
                assert other.information_state_string(q) == state.information_state_string(q)
                assert other.information_state_tensor(q) == state.information_state_tensor(q)
                assert other.current_player() == state.current_player()
            state.apply_action(rng.choice(state.legal_actions()))


def test_information_state_hides_other_passes() -> None:
    game = load_game("black-lady", 4, dealer=0)  # passes left; player 1 passes first
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    first = state.legal_actions()[0]
    state.apply_action(first)
    assert state.visible_actions(1) == [first]
    assert state.visible_actions(2) == []
    assert "received" not in state.information_state_string(2)
    while state.current_player() != 1 or len(state.player_actions()) < 12:
        state.apply_action(state.legal_actions()[0])
    assert "received[" in state.information_state_string(2)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_pettingzoo_plays_the_passing_then_the_cards(seed: int) -> None:
    import numpy as np

    from polignac.research.pettingzoo_env import env

    e = env("black-lady")
    e.reset(seed=seed)
    steps = 0
    for _agent in e.agent_iter():
        obs, _reward, term, trunc, _info = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) and all(a < 52 for a in legal)
        e.step(int(legal[-1]))
        steps += 1
    assert steps in (52, 64)  # one deal in four keeps its cards
