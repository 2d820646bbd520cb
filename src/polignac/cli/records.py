"""``polignac play-random`` and ``polignac replay``: make and read game records."""

from __future__ import annotations

import json
import random
from importlib import resources
from typing import Any, TextIO

from ..core import Match, RecordError, Rules, replay, summary, to_record
from . import render
from .common import CliError, read_json, write_json

EXAMPLE = "polignac-4p-seed1.json"
"""The bundled example record (``polignac replay --example``)."""


def random_match(rules: Rules, players: int | None, seed: int) -> Match:
    """Play a whole match with random legal actions from ``random.Random(seed)``.

    The first dealer is chosen with the same generator, then each deal is
    shuffled and every action chosen from it, in that order.

    Raises:
        RulesError: the player count is not allowed.
    """
    rng = random.Random(seed)
    n = rules.default_players if players is None else players
    rules.check_player_count(n)
    names = [f"Random {s}" for s in range(n)]
    match = Match.new(rules, n, rng.randrange(n), names)
    while not match.finished:
        if match.needs_deal:
            match = match.deal_random(rng)
        else:
            match = match.apply(rng.choice(match.legal_actions()))
    return match


def run_play_random(rules: Rules, players: int | None, seed: int, out_path: str | None,
                    out: TextIO) -> int:
    """Play a random match and write its record (to stdout without ``out_path``).

    Raises:
        CliError: a bad player count, or the file cannot be written.
    """
    try:
        match = random_match(rules, players, seed)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    record = to_record(match)
    if out_path is None:
        out.write(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
        return 0
    write_json(out_path, record)
    winners = ", ".join(str(s) for s in match.winners) or "none"
    print(f"Wrote {out_path}: {rules.preset}, {match.num_players} players, "
          f"{len(match.results)} deals; winners: seats {winners}.", file=out)
    return 0


def example_record() -> Any:
    """The bundled example record, parsed."""
    text = resources.files("polignac").joinpath("data", "records", EXAMPLE).read_text(
        encoding="utf-8")
    return json.loads(text)


def run_replay(path: str | None, as_json: bool, out: TextIO) -> int:
    """Replay a record file (or the example) and print its summary.

    Raises:
        CliError: the file is missing or not JSON (status 2), or the record does not
            replay (status 1; the message names the deal, the action and the rule).
    """
    record = example_record() if path is None else read_json(path)
    try:
        match = replay(record)
    except RecordError as exc:
        where = "example" if path is None else path
        raise CliError(f"{where}: {exc}", status=1) from None
    data = summary(match)
    if as_json:
        out.write(json.dumps(data, ensure_ascii=False) + "\n")
    else:
        for line in render.summary_table(data):
            print(line, file=out)
    return 0


__all__ = ["example_record", "random_match", "run_play_random", "run_replay", "write_json"]
