"""``polignac analyze``: every action of a record with its expected value, the best
action's, the open-hand value, and the mistakes and blunders
(:mod:`polignac.bots.analysis`); ``--out`` writes the annotated record.  Given a
folder, every record in it (``*.json``), on worker processes or a Ray cluster
(``--backend``); ``--out DIR`` writes the annotated copies."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from ..bots.analysis import (
    DEFAULT_NODES,
    DEFAULT_SAMPLES,
    MODELS,
    Settings,
    analyze_record,
    analyze_records,
    annotate,
    match_summary,
)
from ..bots.backends import BACKENDS, Backend, close_backend
from ..core import RecordError, replay
from .common import CliError, cli_backend, read_json, write_json
from .records import example_record

HEADS = {"penalty": "penalty points", "points": "points", "chips": "chips",
         "card-points": "card points"}


def register(subparsers: Any, help_line: str) -> argparse.ArgumentParser:
    """Add the ``analyze`` subcommand to ``subparsers`` (``help_line``: its line in
    --help) and return its parser."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "analyze", help=help_line,
        description="For every action with a choice: its expected value and the best "
        "action's from what that seat knew (sampled deals consistent with its view, each "
        "solved exactly), the open-hand value (all cards visible), and mistakes (cost >= "
        "0.5) and blunders (>= 1.5); then a per-player, per-deal summary.")
    p.add_argument("file", nargs="?", metavar="RECORD",
                   help="a record (JSON), or a folder: every *.json record in it")
    p.add_argument("--example", action="store_true", help="analyse the bundled example record")
    p.add_argument("--json", action="store_true", help="print the analysis as one JSON object")
    p.add_argument("--out", metavar="FILE", help="write the record with the annotations to FILE "
                   "(for a folder: a folder, where each annotated record keeps its name)")
    p.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, metavar="N",
                   help=f"sampled deals per action (default {DEFAULT_SAMPLES}; every "
                   "consistent deal when there are at most N)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="default: 0")
    p.add_argument("--model", choices=MODELS, default="paranoid",
                   help="the others' play in the solves (default: paranoid)")
    p.add_argument("--nodes", type=int, default=DEFAULT_NODES, metavar="N",
                   help=f"search node budget per solve (default {DEFAULT_NODES:,})")
    p.add_argument("--jobs", type=int, metavar="J",
                   help="analyse deals in J processes (same result; default 1); with "
                   "--backend ray, the CPUs of the local cluster (default: all)")
    p.add_argument("--backend", choices=BACKENDS, default="process",
                   help="where the deals are analysed: process (the default), serial, or "
                   "ray (a Ray cluster, same result; pip install polignac[cluster])")
    p.add_argument("--address", metavar="ADDR",
                   help="with --backend ray: the cluster to use (default: start a local one)")
    p.set_defaults(run=run_analyze_args)
    return p


def run_analyze_args(args: argparse.Namespace) -> int:
    """Run ``polignac analyze`` from parsed arguments (see :func:`run_analyze`)."""
    return run_analyze(args.file, args.example, args.json, args.out, args.samples, args.seed,
                       args.model, args.nodes, args.jobs, sys.stdout, args.backend,
                       args.address)


def run_analyze(path: str | None, example: bool, as_json: bool, out_path: str | None,
                samples: int, seed: int, model: str, nodes: int, jobs: int | None,
                out: TextIO, backend: str = "process", address: str | None = None) -> int:
    """Analyse the record at ``path`` (or the example, or every record of the
    folder ``path``) and print the analysis; ``backend`` and ``address`` as in
    :func:`polignac.cli.common.cli_backend`.

    Raises:
        CliError: no record or both given, bad numbers or backend, a missing or
            non-JSON file (status 2), a record that does not replay (status 1).
    """
    if path is None and not example:
        raise CliError("analyze: give a RECORD file, or --example for the bundled one")
    if path is not None and example:
        raise CliError("analyze: give a RECORD file or --example, not both")
    if not 1 <= samples <= 1000:
        raise CliError(f"analyze: --samples must be 1 to 1000, not {samples}")
    if nodes < 1:
        raise CliError(f"analyze: --nodes must be at least 1, not {nodes}")
    if jobs is not None and not 1 <= jobs <= 64:
        raise CliError(f"analyze: --jobs must be 1 to 64, not {jobs}")
    settings = Settings(samples=samples, model=model, nodes=nodes, seed=seed)
    if path is not None and Path(path).is_dir():
        return _run_folder(Path(path), as_json, out_path, settings, out,
                           cli_backend(backend, jobs, address))
    record = example_record() if path is None else read_json(path)
    where = "example" if path is None else path
    try:
        if backend == "process":
            analyses = analyze_record(record, settings, jobs=jobs or 1)
        else:
            runner = cli_backend(backend, jobs, address)
            try:
                analyses = analyze_records([record], settings, runner)[0]
            finally:
                close_backend(runner)
    except RecordError as exc:
        raise CliError(f"{where}: {exc}", status=1) from None
    except ConnectionError as exc:
        raise CliError(f"--address {address}: {exc}") from None
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


def _run_folder(folder: Path, as_json: bool, out_path: str | None, settings: Settings,
                out: TextIO, backend: Backend) -> int:
    """Analyse every ``*.json`` record of ``folder`` on ``backend`` (and close it).

    A file that is not a record that replays is reported and skipped (status 1).

    Raises:
        CliError: no record in the folder, or ``--out`` is a file or the folder itself.
    """
    try:
        files = sorted(p for p in folder.iterdir() if p.suffix == ".json" and p.is_file())
        if not files:
            raise CliError(f"{folder}: no *.json record in this folder")
        target = None if out_path is None else Path(out_path)
        if target is not None:
            if target.exists() and not target.is_dir():
                raise CliError(f"--out {out_path}: for a folder of records, --out is a folder")
            if target.exists() and target.resolve() == folder.resolve():
                raise CliError(f"--out {out_path}: that is the folder of the records; "
                               "give another one (the records are not overwritten)")
        records: list[tuple[Path, Any]] = []
        errors: list[dict[str, str]] = []
        for p in files:
            try:
                record = read_json(str(p))
                replay(record)
                records.append((p, record))
            except (CliError, RecordError) as exc:
                text = str(exc).removeprefix(f"{p}: ")
                errors.append({"file": p.name, "error": text})
                print(f"polignac analyze: {p}: {text} (skipped)", file=sys.stderr)
        try:
            results = analyze_records([r for _p, r in records], settings, backend)
        except ConnectionError as exc:
            raise CliError(f"--address: {exc}") from None
    finally:
        close_backend(backend)
    if target is not None:
        target.mkdir(parents=True, exist_ok=True)
    summaries: list[dict[str, Any]] = []
    for (p, record), analyses in zip(records, results, strict=True):
        players = [str(x) for x in record["players"]]
        totals = match_summary(analyses, len(players))
        if target is not None:
            write_json(str(target / p.name), annotate(record, analyses))
        summaries.append({"file": p.name, "players": players, "deals": analyses,
                          "totals": totals})
    if as_json:
        out.write(json.dumps({"records": summaries, "errors": errors}, ensure_ascii=False)
                  + "\n")
    else:
        for s in summaries:
            players = s["players"]
            width = max(len(x) for x in players)
            n = len(s["deals"])
            print(f"{s['file']}: {n} deal{'' if n == 1 else 's'}", file=out)
            lines = _summary(players, s["totals"], width, "")
            for line in lines:
                print(line, file=out)
            print("", file=out)
        print(f"Analysed {len(summaries)} records ({len(errors)} skipped)"
              + ("" if target is None else f"; wrote the annotated copies to {target}/") + ".",
              file=out)
    return 1 if errors else 0


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
