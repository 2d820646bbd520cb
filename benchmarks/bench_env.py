"""Environment step time, observation included, against OpenSpiel's Hearts from Python.

Rows, each a loop of random deals driven from Python (a uniformly random legal
action at every decision):

- ``pettingzoo <preset>``: our native AEC environment; a step is
  ``env.last()`` (the acting agent's observation tensor and action mask) then
  ``env.step(action)``;
- ``openspiel <preset>``: the ``python_polignac`` OpenSpiel game; a step is
  ``state.observation_tensor(player)``, ``state.legal_actions()`` and
  ``state.apply_action(action)``; the dealing chance nodes are timed but not
  counted as steps;
- ``openspiel hearts``: the C++ Hearts the same way (its pass and deal chance
  nodes timed, not counted), with ``information_state_tensor`` (Hearts has no
  observation tensor).

The ratio is time per step of the row / Hearts' (below 1.0: faster than
Hearts).  Median over ``--repeats`` rounds; each round times every row once.
This is not a test.

Run::

    .venv/bin/python benchmarks/bench_env.py [--deals N] [--repeats R] [--preset P ...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import pyspiel

from polignac.research.openspiel_game import load_game
from polignac.research.pettingzoo_env import raw_env

Runner = Callable[[int, int], int]  # (deals, seed) -> steps


def pettingzoo_runner(preset: str) -> Runner:
    env = raw_env(preset)

    def run(deals: int, seed: int) -> int:
        rng = random.Random(seed)
        steps = 0
        for d in range(deals):
            env.reset(seed=seed * 100_000 + d)
            for _agent in env.agent_iter():
                obs, _r, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        return steps

    return run


def openspiel_runner(game: pyspiel.Game, infostate: bool = False) -> Runner:
    def run(deals: int, seed: int) -> int:
        rng = random.Random(seed)
        steps = 0
        for _ in range(deals):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    continue
                if infostate:
                    state.information_state_tensor(state.current_player())
                else:
                    state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
        return steps

    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--preset", nargs="*", default=["polignac", "pollack"])
    args = ap.parse_args()
    rows: list[tuple[str, Runner]] = [("openspiel hearts",
                                      openspiel_runner(pyspiel.load_game("hearts"), True))]
    for preset in args.preset:
        rows.append((f"pettingzoo {preset}", pettingzoo_runner(preset)))
        rows.append((f"openspiel {preset}", openspiel_runner(load_game(preset))))
    per_step: dict[str, list[float]] = {label: [] for label, _ in rows}
    for r in range(args.repeats):
        for label, run in rows:
            t = time.perf_counter()
            steps = run(args.deals, args.seed + r)
            per_step[label].append((time.perf_counter() - t) / steps)
    hearts = statistics.median(per_step["openspiel hearts"])
    print(f"{'row':<24} {'us/step':>9} {'vs hearts':>10}")
    for label, _ in rows:
        med = statistics.median(per_step[label])
        print(f"{label:<24} {med * 1e6:>9.1f} {med / hearts:>10.2f}")


if __name__ == "__main__":
    main()
