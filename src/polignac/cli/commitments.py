"""``polignac commitments head SOURCE``: print the head of a server's commitment log
(``SEQ:HASH``), so that an operator or a watcher can keep it elsewhere and later
check with ``polignac verify --log SOURCE --head SEQ:HASH`` that the log still holds
it (docs/server.md, "Keeping the chain's head")."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .common import CliError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
             help_line: str) -> None:
    """Add the ``commitments`` command to ``subparsers``."""
    p = subparsers.add_parser(
        "commitments", help=help_line,
        description="The server's commitment log (docs/server.md, \"The commitment log\"). "
        "`head` prints its last entry as SEQ:HASH, one line: append it to a file kept "
        "elsewhere (e.g. from cron), and check later with `polignac verify --log SOURCE "
        "--heads FILE` that the log still holds every entry kept.")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    head = actions.add_parser("head", help="print the log's head as SEQ:HASH",
                              description="Print the commitment log's head (its last "
                              "entry) as SEQ:HASH; 0:000…0 for an empty log.")
    head.add_argument("source", metavar="SOURCE",
                      help="the server's address (http://HOST:PORT) or its database (a "
                           "database URL, a data folder or a polignac.db file)")
    head.add_argument("--json", action="store_true",
                      help='print {"seq", "hash", "entry"} (entry: the whole last entry)')
    p.set_defaults(func=run_commitments)


def read_head(source: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The head of the log at ``source`` (``{"seq", "hash"}``) and its last entry (None
    for an empty log).

    Raises:
        CliError: the log cannot be read, or its head is not its last entry (status 2).
    """
    from ..core.commitlog import GENESIS, Entry, LogError
    from .verify import _get_json, _is_http, log_from_database, page_head

    if _is_http(source):
        first = _get_json(f"{source.rstrip('/')}/api/commitments?after=0&limit=1")
        top = page_head(first, source)
        if top["seq"] == 0:
            return {"seq": 0, "hash": top["hash"]}, None
        page = _get_json(f"{source.rstrip('/')}/api/commitments?after={top['seq'] - 1}"
                         f"&limit=1&until={top['seq']}")
        found = page.get("entries") if isinstance(page, dict) else None
        if not isinstance(found, list):
            raise CliError(f"{source} did not answer a page of the commitment log")
        try:
            entries = [Entry.from_json(e) for e in found]
        except LogError as exc:
            raise CliError(f"{source}: {exc}") from None
        last = entries[-1] if entries else None
    else:
        chain, problems = log_from_database(source)
        if problems:
            raise CliError(f"{source}: the chain is not sound: " + "; ".join(problems[:3]))
        last = chain[-1] if chain else None
        top = {"seq": last.seq, "hash": last.hash} if last else {"seq": 0, "hash": GENESIS}
    if last is not None and (last.seq, last.hash) != (top["seq"], top["hash"]):
        raise CliError(f"{source}: the head (entry {top['seq']}) is not the last entry")
    if last is not None and not last.sound:
        raise CliError(f"{source}: entry {last.seq}: its hash is not the hash of its fields")
    return {"seq": top["seq"], "hash": top["hash"]}, None if last is None else last.to_json()


def run_commitments(args: argparse.Namespace) -> int:
    """Run ``polignac commitments ACTION``; 0.

    Raises:
        CliError: the log cannot be read (status 2).
    """
    top, entry = read_head(args.source)
    if args.json:
        print(json.dumps({**top, "entry": entry}), file=sys.stdout)
    else:
        print(f"{top['seq']}:{top['hash']}", file=sys.stdout)
    return 0


__all__ = ["read_head", "register", "run_commitments"]
