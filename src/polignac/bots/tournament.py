"""Duplicate tournaments between bots, run in parallel, with confidence intervals.

Duplicate format: each *hand set* is one shuffled pack order (from the seed);
it is played ``n`` times, rotating the seating, so that every entrant holds
every hand.  An entrant's score on a hand set is its mean deal score over the
rotations; those per-hand-set means are the sampling unit of the 95%
intervals, so the luck of the cards cancels out of the comparison.

Work is split into tasks (one hand set, or one duplicate match) that a
:class:`~polignac.bots.backends.Backend` maps over (:mod:`polignac.bots.backends`:
serial, worker processes, or a Ray cluster); the results are sorted by task
before they are added up, so every backend gives the same result.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.cards import cards_of
from ..core.errors import RulesError
from ..core.families import families
from ..core.match import Match
from ..core.presets import get_rules
from ..core.rules import Rules
from .backends import Backend as Backend
from .backends import ProcessBackend as ProcessBackend
from .backends import RayBackend as RayBackend
from .backends import SerialBackend as SerialBackend
from .backends import make_backend as make_backend
from .base import Bot
from .registry import make_bot
from .runner import choose_action
from .stats import MeanCI, mean_ci

UNITS: dict[str, tuple[str, bool]] = {
    kind.name: (family.score_unit, kind.penalty)
    for family in families() for kind in family.scorings
}
"""Per scoring kind: the unit of a deal score (its family's ``score_unit``), and
whether lower is better."""


@dataclass(frozen=True)
class TournamentConfig:
    """What to play: a preset (with house rules), one bot spec per seat, how much."""

    preset: str
    bots: tuple[str, ...]
    deals: int = 100
    seed: int = 0
    players: int | None = None
    rules: Mapping[str, Any] = field(default_factory=dict)
    matches: int = 0
    """Duplicate whole matches to play for the match win rate (0: none)."""
    max_match_deals: int = 500
    start: int = 0
    """Index of the first hand set: hand set ``i`` is the same for a given seed
    whatever the start, so runs with consecutive ranges are slices of one run."""

    def resolve(self) -> tuple[Rules, int]:
        """The rules and the player count.

        Raises:
            RulesError: unknown preset or rule, a player count not allowed,
                or not one bot spec per player.
        """
        rules = get_rules(self.preset, dict(self.rules))
        n = rules.default_players if self.players is None else self.players
        rules.check_player_count(n)
        if len(self.bots) != n:
            raise RulesError(f"{len(self.bots)} bots for {n} players: give one bot per seat")
        if self.deals < 0 or self.matches < 0 or self.start < 0:
            raise RulesError("deals, matches and start must not be negative")
        return rules, n


@dataclass
class _Timing:
    seconds: float = 0.0
    moves: int = 0


@dataclass(frozen=True)
class _Task:
    config: TournamentConfig
    kind: str  # "deal" or "match"
    index: int


@dataclass
class _TaskResult:
    kind: str
    index: int
    scores: dict[str, list[float]]
    """Per spec: every entrant-rotation score (deal task) or 1.0/0.0 wins (match task)."""
    timing: dict[str, tuple[float, int]]


def _seed(config: TournamentConfig, kind: str, index: int) -> int:
    return (config.seed * 1_000_003 + index * 7919 + (0 if kind == "deal" else 104_729)) \
        & 0xFFFFFFFF


def _act(bot: Bot, match: Match, rng: random.Random, timing: _Timing) -> Match:
    t = time.perf_counter()
    action = choose_action(bot, match, rng)
    timing.seconds += time.perf_counter() - t
    timing.moves += 1
    return match.apply(action)


def _rotation(
    bots: list[Bot], specs: tuple[str, ...], rot: int
) -> tuple[list[int], list[Bot], list[str]]:
    """Rotation ``rot`` of the seating: entrant ``i`` sits at ``seat_of[i]``;
    ``by_seat`` and ``spec_at`` give the bot and its spec at each seat."""
    n = len(bots)
    seat_of = [(i + rot) % n for i in range(n)]
    by_seat = [bots[0]] * n
    spec_at = [specs[0]] * n
    for i, seat in enumerate(seat_of):
        by_seat[seat] = bots[i]
        spec_at[seat] = specs[i]
    return seat_of, by_seat, spec_at


def run_task(task: _Task) -> _TaskResult:
    """Play one hand set in every rotation, or one duplicate match in every rotation.

    Raises:
        RulesError, IllegalActionError: bad configuration or an illegal bot action.
    """
    config = task.config
    rules, n = config.resolve()
    specs = config.bots
    bots = [make_bot(s) for s in specs]
    timing = {s: _Timing() for s in specs}
    scores: dict[str, list[float]] = {s: [] for s in specs}
    base = _seed(config, task.kind, task.index)
    pack_rng = random.Random(base)
    if task.kind == "deal":
        order = cards_of(rules.pack_mask(n))
        pack_rng.shuffle(order)
        for rot in range(n):
            seat_of, by_seat, spec_at = _rotation(bots, specs, rot)
            rng = random.Random(base * 31 + rot)
            match = Match.new(rules, n, 0).deal_from_pack(order)
            while match.current is not None:
                seat = match.current_seats[match.current.to_act]
                match = _act(by_seat[seat], match, rng, timing[spec_at[seat]])
            result = match.results[-1].scores
            for i, s in enumerate(seat_of):
                scores[specs[i]].append(float(result[s]))
    else:
        for rot in range(n):
            seat_of, by_seat, spec_at = _rotation(bots, specs, rot)
            rng = random.Random(base * 31 + rot)
            deal_rng = random.Random(base)
            match = Match.new(rules, n, 0)
            while not match.finished and len(match.results) < config.max_match_deals:
                if match.current is None:
                    match = match.deal_random(deal_rng)
                    continue
                seat = match.current_seats[match.current.to_act]
                match = _act(by_seat[seat], match, rng, timing[spec_at[seat]])
            for i, s in enumerate(seat_of):
                scores[specs[i]].append(1.0 if s in match.winners else 0.0)
    return _TaskResult(task.kind, task.index, scores,
                       {s: (t.seconds, t.moves) for s, t in timing.items()})


@dataclass(frozen=True)
class BotSummary:
    """One distinct bot spec's results (entrants with the same spec pooled)."""

    bot: str
    entrants: int
    score: MeanCI | None
    diff: MeanCI | None
    """Paired per-hand-set difference from the first spec (None for the first)."""
    match_win_rate: MeanCI | None
    seconds: float
    moves: int

    @property
    def ms_per_move(self) -> float:
        """Mean thinking time per action, in milliseconds."""
        return 1000 * self.seconds / self.moves if self.moves else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "bot": self.bot,
            "entrants": self.entrants,
            "score": None if self.score is None else self.score.to_dict(),
            "diff_vs_first": None if self.diff is None else self.diff.to_dict(),
            "match_win_rate": (None if self.match_win_rate is None
                               else self.match_win_rate.to_dict()),
            "moves": self.moves,
            "ms_per_move": self.ms_per_move,
        }


@dataclass(frozen=True)
class TournamentResult:
    """A tournament's configuration, per-bot summaries and wall time."""

    config: TournamentConfig
    players: int
    unit: str
    lower_is_better: bool
    bots: tuple[BotSummary, ...]
    elapsed_s: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (see docs/bots.md for the shape)."""
        c = self.config
        return {
            "preset": c.preset,
            "rules": dict(c.rules),
            "players": self.players,
            "seats": list(c.bots),
            "deals": c.deals,
            "matches": c.matches,
            "seed": c.seed,
            "start": c.start,
            "unit": self.unit,
            "lower_is_better": self.lower_is_better,
            "bots": [b.to_dict() for b in self.bots],
            "elapsed_s": self.elapsed_s,
        }


def run_tournament(
    config: TournamentConfig,
    backend: Backend | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    """Play ``config`` on ``backend`` (default serial); ``progress(done, total)`` after each task.

    Raises:
        RulesError: bad preset, rule, player count or bot count.
        UnknownBotError: a bot spec is unknown.
        IllegalActionError: a bot chose an illegal action.
    """
    rules, n = config.resolve()
    for spec in dict.fromkeys(config.bots):
        make_bot(spec)  # fail early, in this process
    backend = SerialBackend() if backend is None else backend
    tasks = [_Task(config, "deal", i) for i in range(config.start, config.start + config.deals)]
    tasks += [_Task(config, "match", i) for i in range(config.matches)]
    start = time.perf_counter()
    results: list[_TaskResult] = []
    for done, res in enumerate(backend.map(run_task, tasks), 1):
        results.append(res)
        if progress is not None:
            progress(done, len(tasks))
    results.sort(key=lambda r: (r.kind, r.index))
    elapsed = time.perf_counter() - start
    specs = list(dict.fromkeys(config.bots))
    per_set: dict[str, list[float]] = {s: [] for s in specs}
    wins: dict[str, list[float]] = {s: [] for s in specs}
    secs = dict.fromkeys(specs, 0.0)
    moves = dict.fromkeys(specs, 0)
    for r in results:
        for s in specs:
            vals = r.scores[s]
            (per_set if r.kind == "deal" else wins)[s].append(sum(vals) / len(vals))
            secs[s] += r.timing[s][0]
            moves[s] += r.timing[s][1]
    summaries = []
    for s in specs:
        diff = None
        if s != specs[0] and per_set[s]:
            diff = mean_ci([a - b for a, b in zip(per_set[s], per_set[specs[0]], strict=True)])
        summaries.append(BotSummary(
            bot=s,
            entrants=config.bots.count(s),
            score=mean_ci(per_set[s]) if per_set[s] else None,
            diff=diff,
            match_win_rate=mean_ci(wins[s]) if wins[s] else None,
            seconds=secs[s],
            moves=moves[s],
        ))
    unit, lower = UNITS[rules.scoring]
    return TournamentResult(config, n, unit, lower, tuple(summaries), elapsed)


def iter_specs(text: str) -> Iterable[str]:
    """Split ``hard,hard:samples=3,late=2,medium`` into seat specs.

    A comma followed by ``key=value`` belongs to the previous spec's options.
    """
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "=" in part and ":" not in part and out:
            out[-1] += "," + part
        else:
            out.append(part)
    return out


# ----------------------------------------------------------------- reporting


def _fmt(ci: MeanCI | None, digits: int = 3) -> str:
    if ci is None:
        return "-"
    return f"{ci.mean:.{digits}f} ± {ci.half_width:.{digits}f}"


def table_rows(result: TournamentResult) -> list[list[str]]:
    """The result table as text cells (header first)."""
    rows = [["bot", "seats", f"mean {result.unit}", "diff vs first (paired)",
             "match wins", "ms/move"]]
    for b in result.bots:
        rows.append([b.bot, str(b.entrants), _fmt(b.score), _fmt(b.diff),
                     _fmt(b.match_win_rate, 2), f"{b.ms_per_move:.3f}"])
    return rows


def render_table(result: TournamentResult, write: Callable[[str], None] = print) -> None:
    """Print the result as a Rich table, or plain text when rich is missing."""
    rows = table_rows(result)
    better = "lower" if result.lower_is_better else "higher"
    title = (f"{result.config.preset}, {result.players} players, {result.config.deals} "
             f"hand sets x {result.players} rotations ({better} is better; ± 95% CI)")
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        write(title)
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        for r in rows:
            write("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))
        return
    table = Table(title=title)
    for h in rows[0]:
        table.add_column(h, justify="left" if h == "bot" else "right")
    for r in rows[1:]:
        table.add_row(*r)
    Console().print(table)


class Progress:
    """A progress callback: a Rich bar when rich is there, else a line every 10%."""

    def __init__(self, description: str = "playing", write: Callable[[str], None] | None = None
                 ) -> None:
        """Set up the display (nothing is drawn until the first update)."""
        self.description = description
        self.write = write
        self._bar: Any = None
        self._task: Any = None
        self._last = -1

    def __enter__(self) -> Progress:
        """Start the bar."""
        try:
            from rich.progress import Progress as RichProgress
        except ImportError:
            return self
        self._bar = RichProgress(transient=False)
        self._bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        """Stop the bar."""
        if self._bar is not None:
            self._bar.__exit__(None, None, None)

    def __call__(self, done: int, total: int) -> None:
        """Record that ``done`` of ``total`` tasks are finished."""
        if self._bar is not None:
            if self._task is None:
                self._task = self._bar.add_task(self.description, total=total)
            self._bar.update(self._task, completed=done)
            return
        tenth = done * 10 // max(total, 1)
        if tenth != self._last:
            self._last = tenth
            import sys

            (self.write or (lambda s: print(s, file=sys.stderr)))(
                f"{self.description}: {done}/{total}")


def plot_result(result: TournamentResult, path: str) -> None:
    """Draw each bot's mean score with its 95% interval to a PNG (matplotlib, Agg).

    Raises:
        ImportError: matplotlib is not installed (``pip install polignac[bots]``).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots = [b for b in result.bots if b.score is not None]
    fig, ax = plt.subplots(figsize=(6, 0.6 * len(bots) + 1.5))
    ys = list(range(len(bots)))
    means = [b.score.mean for b in bots if b.score is not None]
    errs = [b.score.half_width for b in bots if b.score is not None]
    ax.errorbar(means, ys, xerr=errs, fmt="o", capsize=4)
    ax.set_yticks(ys)
    ax.set_yticklabels([b.bot for b in bots])
    better = "lower" if result.lower_is_better else "higher"
    ax.set_xlabel(f"mean {result.unit} ({better} is better), 95% CI")
    ax.set_title(f"{result.config.preset}: {result.config.deals} duplicate hand sets")
    ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
