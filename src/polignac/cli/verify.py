"""``polignac verify``: check that every deal of a record follows from its committed
seed and the players' cuts (``polignac.core.shuffle``)."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from ..core import RecordError
from ..core.shuffle import verify_record
from .common import CliError, read_json

LABELS = {"ok": "ok", "failed": "FAILED", "not-verifiable": "not verifiable"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
             help_line: str) -> None:
    """Add the ``verify`` command to ``subparsers`` (``help_line``: its line in --help)."""
    p = subparsers.add_parser(
        "verify", help=help_line,
        description="Check every deal of a game record: the revealed seed matches the "
        "commitment published before the deal, and the hands follow from the seed and "
        "the players' cuts. Exit status 0 when every deal passes, 1 when one fails. "
        "A finished deal whose proof (shuffle, seed) is missing fails, unless --lenient.")
    p.add_argument("file", metavar="RECORD", help="a record (JSON), e.g. a table's record.json")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--strict", action="store_true",
                      help="the deal still in play, whose seed is not revealed yet, fails too")
    mode.add_argument("--lenient", action="store_true",
                      help="a finished deal without its proof is reported as not verifiable "
                           "instead of failing (records made without proofs, e.g. by "
                           "play-random)")


def run_verify(path: str, as_json: bool, strict: bool, out: TextIO,
               lenient: bool = False) -> int:
    """Check the record at ``path`` and print a table (or JSON) of its deals.

    Returns 0 when every deal passes, else 1.  A finished deal without its proof
    fails unless ``lenient`` (then it is not verifiable); a deal still in play is
    not verifiable, which fails only when ``strict``.

    Raises:
        CliError: the file is missing or not JSON (status 2), or the record's
            preset, rules or players are unusable (status 1).
    """
    record = read_json(path)
    try:
        checks = verify_record(record, lenient=lenient)
    except RecordError as exc:
        raise CliError(f"{path}: {exc}", status=1) from None
    failed = [c for c in checks if c.status == "failed"]
    unverified = [c for c in checks if c.status == "not-verifiable"]
    ok = not failed and not (strict and unverified)
    if as_json:
        out.write(json.dumps({"ok": ok, "deals": [c.to_json() for c in checks]}) + "\n")
        return 0 if ok else 1
    print(f"{'deal':>4}  {'result':<14}  {'cuts':>4}  {'commitment':<17}  notes", file=out)
    for c in checks:
        commit = "-" if c.commitment is None else f"{c.commitment[:8]}…{c.commitment[-8:]}"
        print(f"{c.deal:>4}  {LABELS[c.status]:<14}  {c.cuts:>4}  {commit:<17}  "
              f"{'; '.join(c.problems)}".rstrip(), file=out)
    passed = len(checks) - len(failed) - len(unverified)
    print(f"{passed} of {len(checks)} deals verified, {len(failed)} failed, "
          f"{len(unverified)} not verifiable.", file=out)
    for c in failed:
        print(f"Deal {c.deal} failed: {'; '.join(c.problems)}", file=out)
    if strict and unverified:
        print("--strict: deals " + ", ".join(str(c.deal) for c in unverified)
              + " cannot be verified.", file=out)
    return 0 if ok else 1


__all__ = ["register", "run_verify"]
