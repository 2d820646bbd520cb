"""Train a small policy against random opponents with REINFORCE (numpy only).

    .venv/bin/python examples/train_policy.py --minutes 3
    .venv/bin/python examples/train_policy.py --quick        # a few seconds

The learner is ``player_0`` of the PettingZoo environment (the dealer changes
every deal, so it sits everywhere); the others play uniformly at random among
their legal actions.  The policy is linear-softmax over the observation tensor
(one weight row per action, illegal actions masked out), trained with
REINFORCE and a running-mean baseline on the deal's return.  Every evaluation
window prints the learner's mean return next to the uniform random policy's
(measured at the start on the same kind of deals); a plot is saved when
matplotlib is available.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from polignac.research.pettingzoo_env import raw_env


class LinearPolicy:
    """Softmax over ``W @ obs + b`` restricted to the legal actions."""

    def __init__(self, obs_size: int, num_actions: int, seed: int) -> None:
        self.w = np.zeros((num_actions, obs_size))
        self.b = np.zeros(num_actions)
        self.rng = np.random.default_rng(seed)

    def probs(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.w @ obs + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def sample(self, obs: np.ndarray, mask: np.ndarray) -> tuple[int, np.ndarray]:
        p = self.probs(obs, mask)
        return int(self.rng.choice(len(p), p=p)), p


def play_deal(env, policy: LinearPolicy | None, rng: random.Random, seed: int
              ) -> tuple[float, list[tuple[np.ndarray, int, np.ndarray]]]:
    """One deal; returns the learner's return and its (obs, action, probs) steps."""
    env.reset(seed=seed)
    steps: list[tuple[np.ndarray, int, np.ndarray]] = []
    total = 0.0
    for agent in env.agent_iter():
        learner = agent == "player_0" and policy is not None
        obs, reward, terminated, truncated, _ = env.last(observe=learner)
        if agent == "player_0":
            total += reward
        if terminated or truncated:
            env.step(None)
            continue
        if learner:
            action, p = policy.sample(obs["observation"], obs["action_mask"])
            steps.append((obs["observation"], action, p))
        else:  # a random opponent: no need to encode its observation
            legal = env.deal.legal_actions()
            action = legal[rng.randrange(len(legal))]
        env.step(action)
    return total, steps


def main(argv: Sequence[str] | None = None) -> list[tuple[int, float]]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="polignac")
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--quick", action="store_true", help="a few seconds (for tests)")
    ap.add_argument("--window", type=int, default=2000, help="deals per evaluation window")
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plot", default="train_policy.png", help="where to save the plot")
    args = ap.parse_args(argv)
    if args.quick:
        args.minutes, args.window = 0.02, 50

    env = raw_env(args.preset)
    rng = random.Random(args.seed)
    size = env.observation_space("player_0")["observation"].shape[0]
    n_actions = env.action_space("player_0").n
    policy = LinearPolicy(size, n_actions, args.seed)

    base_deals = args.window
    baseline_random = float(np.mean([play_deal(env, None, rng, 10**6 + i)[0]
                                     for i in range(base_deals)]))
    print(f"{args.preset}: random policy's mean return over {base_deals} deals: "
          f"{baseline_random:+.3f}")
    print(f"{'deals':>8} {'seconds':>8} {'mean return':>12} {'vs random':>10}")

    deadline = time.perf_counter() + 60 * args.minutes
    start = time.perf_counter()
    baseline = 0.0
    window: list[float] = []
    curve: list[tuple[int, float]] = []
    episode = 0
    while time.perf_counter() < deadline or not curve:
        ret, steps = play_deal(env, policy, rng, episode)
        episode += 1
        window.append(ret)
        adv = ret - baseline
        baseline += 0.01 * (ret - baseline)
        for obs, action, p in steps:
            grad = -p
            grad[action] += 1.0
            policy.w += args.lr * adv * np.outer(grad, obs)
            policy.b += args.lr * adv * grad
        if len(window) == args.window:
            mean = float(np.mean(window))
            curve.append((episode, mean))
            print(f"{episode:>8} {time.perf_counter() - start:>8.1f} {mean:>+12.3f} "
                  f"{mean - baseline_random:>+10.3f}", flush=True)
            window = []
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6, 4))
        ax.plot([e for e, _ in curve], [m for _, m in curve], marker="o", label="learner")
        ax.axhline(baseline_random, color="grey", linestyle="--", label="random policy")
        ax.set_xlabel("deals")
        ax.set_ylabel("mean return per deal")
        ax.set_title(f"REINFORCE, linear policy vs random ({args.preset})")
        ax.legend()
        fig.tight_layout()
        Path(args.plot).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(args.plot)
        print(f"plot saved to {args.plot}")
    except ImportError:
        print("matplotlib not installed: no plot")
    return curve


if __name__ == "__main__":
    main()
