"""``polignac puzzles build``: puzzles from played games, each answer proved by the
exact solver (:mod:`polignac.bots.puzzles`), written one JSON object a line
(docs/puzzles.md), with a summary of the scan."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from ..bots.puzzles import (
    DEFAULT_DEALS,
    DEFAULT_MARGIN,
    DEFAULT_MAX_CARDS,
    DEFAULT_NODES,
    THEMES,
    PuzzleSettings,
    Scan,
    find_puzzles,
)
from ..core import PolignacError
from .common import CliError, read_json

MAX_RECORDS = 100_000
"""The most records one run reads."""


def register(subparsers: Any, help_line: str) -> argparse.ArgumentParser:
    """Add the ``puzzles`` subcommand (and its ``build``) to ``subparsers`` and return
    its parser."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "puzzles", help=help_line,
        description="Puzzles from played games: positions where the best card is "
        "proved by the exact solver on every deal the player could not rule out, "
        "and the card played lost points.")
    sub = p.add_subparsers(dest="puzzles_command", metavar="ACTION", parser_class=type(p))
    b = sub.add_parser("build", help="scan records and write their puzzles (JSONL)",
                       description="Scan game records (JSON files, as polignac analyze "
                       "reads them) for puzzles and write them one JSON object a line.")
    b.add_argument("records", nargs="+", metavar="RECORD", help="a game record (JSON)")
    b.add_argument("--out", metavar="FILE.jsonl",
                   help="write the puzzles here (default: stdout, and the summary to stderr)")
    b.add_argument("--max-cards", type=int, default=DEFAULT_MAX_CARDS, metavar="N",
                   help=f"only positions with at most N cards in the mover's hand, 1 to 13 "
                   f"(default {DEFAULT_MAX_CARDS})")
    b.add_argument("--margin", type=int, default=DEFAULT_MARGIN, metavar="M",
                   help="the answer beats every other card by at least M on every "
                   f"consistent deal, 1 to 1000 (default {DEFAULT_MARGIN})")
    b.add_argument("--deals", type=int, default=DEFAULT_DEALS, metavar="D",
                   help="skip positions with more than D consistent deals, 1 to 100000 "
                   f"(default {DEFAULT_DEALS})")
    b.add_argument("--nodes", type=int, default=DEFAULT_NODES, metavar="N",
                   help=f"search node budget per solve, 1 to 10^9 (default {DEFAULT_NODES:,})")
    p.set_defaults(run=run_puzzles_args)
    return p


def run_puzzles_args(args: argparse.Namespace) -> int:
    """Run ``polignac puzzles`` from parsed arguments (see :func:`run_build`)."""
    if args.puzzles_command != "build":
        raise CliError("puzzles: say what to do: polignac puzzles build RECORD...")
    settings = _settings(args.max_cards, args.margin, args.deals, args.nodes)
    return run_build(args.records, args.out, settings, sys.stdout,
                     sys.stderr if args.out is None else sys.stdout)


def _settings(max_cards: int, margin: int, deals: int, nodes: int) -> PuzzleSettings:
    """Raises:
        CliError: a bound out of its range.
    """
    for name, value, hi in (("max-cards", max_cards, 13), ("margin", margin, 1000),
                            ("deals", deals, 100_000), ("nodes", nodes, 10**9)):
        if not 1 <= value <= hi:
            raise CliError(f"puzzles build: --{name} {value}: choose from 1 to {hi}")
    return PuzzleSettings(max_cards=max_cards, margin=margin, deals=deals, nodes=nodes)


def run_build(paths: Sequence[str], out_path: str | None, settings: PuzzleSettings,
              out: TextIO, report: TextIO) -> int:
    """Read the records at ``paths``, write their puzzles to ``out_path`` (or ``out``)
    one JSON object a line, and print the summary to ``report``.

    Raises:
        CliError: too many records, a missing or non-JSON file, a record that is
            not an object or does not replay (with its file name), an unwritable
            ``out_path`` (status 2; nothing is written).
    """
    if len(paths) > MAX_RECORDS:
        raise CliError(f"puzzles build: {len(paths)} records: at most {MAX_RECORDS:,} a run")
    total = Scan()
    lines: list[str] = []
    for path in paths:
        record = read_json(path)
        if not isinstance(record, dict):
            raise CliError(f"{path}: not a game record (expected a JSON object)")
        try:
            puzzles, scan = find_puzzles(record, settings, Path(path).name)
        except (PolignacError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise CliError(f"{path}: not a game record that replays: {exc}") from None
        total.add(scan)
        lines.extend(json.dumps(p, ensure_ascii=False, sort_keys=True) for p in puzzles)
    text = "".join(line + "\n" for line in lines)
    if out_path is None:
        out.write(text)
    else:
        try:
            Path(out_path).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CliError(f"--out {out_path}: cannot write: {exc.strerror or exc}") from None
    for line in summary(total, out_path):
        print(line, file=report)
    return 0


def summary(scan: Scan, out_path: str | None = None) -> list[str]:
    """The summary lines of a scan (the only part of the output that is not
    deterministic is the time)."""
    per_deal = scan.seconds / scan.deals if scan.deals else 0.0
    themes = ", ".join(f"{t} {scan.themes[t]}" for t in THEMES if scan.themes[t]) or "none"
    lines = [
        f"Read {scan.records} record{'' if scan.records == 1 else 's'} "
        f"({scan.deals} deal{'' if scan.deals == 1 else 's'}); tried {scan.positions} "
        f"position{'' if scan.positions == 1 else 's'} ({scan.too_many_deals} skipped for "
        f"too many consistent deals, {scan.too_deep} over the node budget).",
        f"Found {scan.puzzles} puzzle{'' if scan.puzzles == 1 else 's'}; by theme: {themes}.",
        f"Time: {scan.seconds:.1f} s ({per_deal:.3f} s a deal).",
    ]
    if out_path is not None:
        lines.append(f"Wrote the puzzles to {out_path}.")
    return lines


__all__ = ["MAX_RECORDS", "register", "run_build", "summary"]
