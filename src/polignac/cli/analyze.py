"""``polignac analyze``: every action of a record with its expected value, the best
action's, the open-hand value, and the mistakes and blunders
(:mod:`polignac.bots.analysis`); ``--out`` writes the annotated record."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from ..bots.analysis import (
    DEFAULT_NODES,
    DEFAULT_SAMPLES,
    MODELS,
    Settings,
    analyze_record,
    annotate,
    match_summary,
)
from ..core import RecordError
from .common import CliError, read_json, write_json
from .records import example_record

HEADS = {"penalty": "penalty points", "points": "points", "chips": "chips",
         "card-points": "card points"}


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``analyze`` subcommand to ``subparsers`` and return its parser."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "analyze", help="analyse every action of a record (expected values, mistakes)",
        description="For every action with a choice: its expected value and the best "
        "action's from what that seat knew (sampled deals consistent with its view, each "
        "solved exactly), the open-hand value (all cards visible), and mistakes (cost >= "
        "0.5) and blunders (>= 1.5); then a per-player, per-deal summary.")
    p.add_argument("file", nargs="?", metavar="RECORD", help="a record (JSON)")
    p.add_argument("--example", action="store_true", help="analyse the bundled example record")
    p.add_argument("--json", action="store_true", help="print the analysis as one JSON object")
    p.add_argument("--out", metavar="FILE", help="write the record with the annotations to FILE")
    p.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, metavar="N",
                   help=f"sampled deals per action (default {DEFAULT_SAMPLES}; every "
                   "consistent deal when there are at most N)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="default: 0")
    p.add_argument("--model", choices=MODELS, default="paranoid",
                   help="the others' play in the solves (default: paranoid)")
    p.add_argument("--nodes", type=int, default=DEFAULT_NODES, metavar="N",
                   help=f"search node budget per solve (default {DEFAULT_NODES:,})")
    p.add_argument("--jobs", type=int, default=1, metavar="J",
                   help="analyse deals in J processes (same result; default 1)")
    p.set_defaults(run=run_analyze_args)
    return p


def run_analyze_args(args: argparse.Namespace) -> int:
    """Run ``polignac analyze`` from parsed arguments (see :func:`run_analyze`)."""
    import sys

    return run_analyze(args.file, args.example, args.json, args.out, args.samples, args.seed,
                       args.model, args.nodes, args.jobs, sys.stdout)


def run_analyze(path: str | None, example: bool, as_json: bool, out_path: str | None,
                samples: int, seed: int, model: str, nodes: int, jobs: int,
                out: TextIO) -> int:
    """Analyse the record at ``path`` (or the example) and print the analysis.

    Raises:
        CliError: no record or both given, bad numbers, a missing or non-JSON file
            (status 2), a record that does not replay (status 1).
    """
    if path is None and not example:
        raise CliError("analyze: give a RECORD file, or --example for the bundled one")
    if path is not None and example:
        raise CliError("analyze: give a RECORD file or --example, not both")
    if not 1 <= samples <= 1000:
        raise CliError(f"analyze: --samples must be 1 to 1000, not {samples}")
    if nodes < 1:
        raise CliError(f"analyze: --nodes must be at least 1, not {nodes}")
    if not 1 <= jobs <= 64:
        raise CliError(f"analyze: --jobs must be 1 to 64, not {jobs}")
    record = example_record() if path is None else read_json(path)
    where = "example" if path is None else path
    settings = Settings(samples=samples, model=model, nodes=nodes, seed=seed)
    try:
        analyses = analyze_record(record, settings, jobs=jobs)
    except RecordError as exc:
        raise CliError(f"{where}: {exc}", status=1) from None
    players = [str(p) for p in record["players"]]
    totals = match_summary(analyses, len(players))
    if out_path is not None:
        write_json(out_path, annotate(record, analyses))
    if as_json:
        out.write(json.dumps({"players": players, "deals": analyses, "totals": totals},
                             ensure_ascii=False) + "\n")
    else:
        for line in render(players, analyses, totals):
            print(line, file=out)
        if out_path is not None:
            print(f"\nWrote the annotated record to {out_path}.", file=out)
    return 0


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


def render(players: Sequence[str], analyses: Sequence[Mapping[str, Any]],
           totals: Sequence[Mapping[str, Any]]) -> list[str]:
    """The text report: per deal, the actions analysed and the summary; then the totals."""
    lines: list[str] = []
    if not analyses:
        return ["The record has no deals."]
    unit = str(analyses[0]["unit"])
    sign = -1 if unit == "penalty" else 1
    head = HEADS.get(unit, unit)
    a0 = analyses[0]
    lines.append(f"Values in {head} for the seat that acted ({'lower' if sign < 0 else 'higher'}"
                 f" is better); {a0['model']} model, {a0['samples']} sampled deals per action, "
                 f"seed {a0['seed']}; mistake >= {a0['mistake']}, blunder >= {a0['blunder']}.")
    width = max(len(p) for p in players)
    for number, a in enumerate(analyses, start=1):
        lines.append("")
        lines.append(f"Deal {number}")
        lines.append(f"  {'#':>3}  {'seat':<{width}}  {'action':<8} {'expected':>8}  "
                     f"{'best':<8} {'expected':>8}  {'cost':>5}  {'open':>9}  mark")
        for i, e in enumerate(a["actions"], start=1):
            if "loss" not in e:
                if e.get("note") in ("too-deep", "time"):
                    lines.append(f"  {i:>3}  {players[e['seat']]:<{width}}  "
                                 f"{e['action']:<8} ({e['note']})")
                continue
            best = "=" if e["best"] == e["action"] else e["best"]
            opened = f"{_num(sign * e['open'])}/{_num(sign * e['open_best'])}"
            lines.append(
                f"  {i:>3}  {players[e['seat']]:<{width}}  {e['action']:<8} "
                f"{_num(sign * e['value']):>8}  {best:<8} {_num(sign * e['best_value']):>8}  "
                f"{_num(e['loss']):>5}  {opened:>9}"
                f"  {e.get('mark', '')}".rstrip())
        lines.extend(_summary(players, a["players"], width, "  "))
    lines.append("")
    lines.append("Match")
    lines.extend(_summary(players, totals, width, ""))
    return lines


def _summary(players: Sequence[str], rows: Sequence[Mapping[str, Any]], width: int,
             indent: str) -> list[str]:
    out = [f"{indent}  {'seat':<{width}}  decisions  mistakes  blunders  expected loss  "
           "open-hand loss"]
    for r in rows:
        out.append(f"{indent}  {players[r['seat']]:<{width}}  {r['decisions']:>9}  "
                   f"{r['mistakes']:>8}  {r['blunders']:>8}  {_num(r['loss']):>13}  "
                   f"{r['open_loss']:>14}")
    return out


__all__ = ["register", "render", "run_analyze"]
