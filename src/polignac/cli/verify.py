"""``polignac verify``: check that every deal of a record follows from its committed
seed and the players' cuts (``polignac.core.shuffle``), and, with ``--log``, that
each deal's commitment is the one the server logged when it dealt it
(``polignac.core.commitlog``), or, for a deal dealt before the log existed, the one
the table's stored deal event carries (``commitlog.before_chain``)."""

from __future__ import annotations

import argparse
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from ..core import RecordError
from ..core.commitlog import (
    GENESIS,
    MAX_DEAL,
    Entry,
    LogError,
    check_chain,
    check_record_deals,
    is_hex64,
)
from ..core.shuffle import DealCheck, verify_record
from .common import CliError, read_json

LABELS = {"ok": "ok", "failed": "FAILED", "not-verifiable": "not verifiable"}
LOG_PAGE = 1000
"""Entries asked for in each request to a server's log."""
MAX_LOG_PAGES = 100
"""Requests to a server's log at most (a table's deals fit in one or two)."""
HTTP_TIMEOUT = 30.0
MAX_ANSWER = 8 << 20
"""Bytes read of one answer of a server's log at most."""
MAX_HEADS = 10_000
"""Kept heads checked at most in one run (``--head`` and ``--heads``)."""
MAX_HEADS_FILE = 1 << 20
"""Bytes of a ``--heads`` file at most."""
_HEAD = re.compile(r"([0-9]{1,16}):([0-9a-fA-F]{64})")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
             help_line: str) -> None:
    """Add the ``verify`` command to ``subparsers`` (``help_line``: its line in --help)."""
    p = subparsers.add_parser(
        "verify", help=help_line,
        description="Check every deal of a game record: the revealed seed matches the "
        "commitment published before the deal, and the hands follow from the seed and "
        "the players' cuts. Exit status 0 when every deal passes, 1 when one fails. "
        "A finished deal whose proof (shuffle, seed) is missing fails, unless --lenient. "
        "With --log, each deal's commitment must also be the one in the server's "
        "commitment log, so a record whose deal was forged again (a new seed with a "
        "matching commitment) fails; a deal dealt before the server had its commitment "
        "log (migration 0008) is checked against the table's stored event log instead "
        "(noted: that log is the server's own database). Cuts the server refused are "
        "listed.")
    p.add_argument("file", metavar="RECORD", nargs="?", default=None,
                   help="a record (JSON), e.g. a table's record.json (optional with --head "
                        "or --heads: then only the log is checked)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--log", metavar="SOURCE", default=None,
                   help="the server's commitment log: its address (http://HOST:PORT, read "
                        "through GET /tables/ID/commitments), or its database (a database "
                        "URL such as sqlite:///polignac-data/polignac.db, a data folder "
                        "or a polignac.db file), whose whole hash chain is checked too")
    p.add_argument("--head", action="append", default=[], metavar="SEQ:HASH",
                   help="an entry of the log kept elsewhere (as `polignac commitments head` "
                        "prints it): fails unless the log holds that very entry and the "
                        "chain from it to the log's head is sound; repeatable; needs --log")
    p.add_argument("--heads", metavar="FILE", default=None,
                   help="kept entries, one SEQ:HASH a line (blank lines and # comments "
                        "skipped), checked as --head")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--strict", action="store_true",
                      help="the deal still in play, whose seed is not revealed yet, fails too")
    mode.add_argument("--lenient", action="store_true",
                      help="a finished deal without its proof is reported as not verifiable "
                           "instead of failing (records made without proofs, e.g. by "
                           "play-random)")


def record_table(record: Mapping[str, Any]) -> str:
    """The table id that the record's deals were committed for.

    Raises:
        CliError: no deal carries a ``shuffle`` with a table id (status 1).
    """
    deals = record.get("deals")
    for deal in deals if isinstance(deals, list) else []:
        shuffle = deal.get("shuffle") if isinstance(deal, Mapping) else None
        if isinstance(shuffle, Mapping) and isinstance(shuffle.get("table"), str):
            return str(shuffle["table"])
    raise CliError("--log: no deal of the record carries a shuffle with its table id: "
                   "there is nothing to look up in the log", status=1)


def _get_json(url: str) -> Any:
    """GET ``url`` and read its JSON answer.

    Raises:
        CliError: no answer, an error status, too long or not JSON (status 2).
    """
    try:
        with urllib.request.urlopen(url, timeout=HTTP_TIMEOUT) as answer:
            body = answer.read(MAX_ANSWER + 1)
    except urllib.error.HTTPError as exc:
        raise CliError(f"--log: {url} answered {exc.code}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise CliError(f"--log: cannot read {url}: {exc}") from None
    if len(body) > MAX_ANSWER:
        raise CliError(f"--log: the answer of {url} is longer than {MAX_ANSWER} bytes")
    try:
        return json.loads(body)
    except ValueError:
        raise CliError(f"--log: the answer of {url} is not JSON") from None


def _pages(url_of: Callable[[int], str], after: int, unit: str,
           too_many: Callable[[int], str]) -> Iterator[tuple[str, dict[str, Any], list[Entry]]]:
    """Each page of a paged commitment route from ``after`` on: its URL, the page and its
    entries, until a page has no ``next`` (``unit`` names what ``next`` counts).

    Raises:
        CliError: the server does not answer, answers what is not a page of the log, a
            ``next`` that does not move on, or more than ``MAX_LOG_PAGES`` pages
            (``too_many(after)`` says so) (status 2).
    """
    for _ in range(MAX_LOG_PAGES):
        url = url_of(after)
        page = _get_json(url)
        if not isinstance(page, dict) or not isinstance(page.get("entries"), list):
            raise CliError(f"--log: {url} did not answer a page of the commitment log")
        try:
            got = [Entry.from_json(e) for e in page["entries"]]
        except LogError as exc:
            raise CliError(f"--log: {url}: {exc}") from None
        yield url, page, got
        following = page.get("next")
        if following is None:
            return
        if not isinstance(following, int) or following <= after:
            raise CliError(f"--log: {url}: next must be {unit} after {after}")
        after = following
    raise CliError(too_many(after))


def _before_log(page: dict[str, Any], url: str) -> dict[int, str]:
    """A page's ``before_log`` (a server from before it: none) as deal -> commitment.

    Raises:
        CliError: not a list of ``{"deal", "commitment"}`` (status 2).
    """
    items = page.get("before_log", [])
    out: dict[int, str] = {}
    for item in items if isinstance(items, list) else [None]:
        deal = item.get("deal") if isinstance(item, dict) else None
        commit = item.get("commitment") if isinstance(item, dict) else None
        if not isinstance(deal, int) or isinstance(deal, bool) or not 0 < deal <= MAX_DEAL \
                or not is_hex64(commit):
            raise CliError(f"--log: {url}: before_log must list {{deal, commitment}} (a deal "
                           "number and 64 lower-case hex digits)")
        out[deal] = commit
    return out


def log_from_server(base: str, table: str) -> tuple[list[Entry], dict[int, str]]:
    """The entries of ``table`` in the commitment log of the server at ``base``, and
    its deals dealt before the log existed with the commitment the table's stored
    event log gives (``before_log``: deal -> commitment).

    Raises:
        CliError: the server does not answer, or answers what is not a log (status 2).
    """
    root = f"{base.rstrip('/')}/tables/{urllib.parse.quote(table, safe='')}/commitments"
    entries: list[Entry] = []
    before: dict[int, str] = {}
    for url, page, got in _pages(
            lambda after: f"{root}?after={after}&limit={LOG_PAGE}", 0, "a deal number",
            lambda _after: f"--log: more than {MAX_LOG_PAGES * LOG_PAGE} entries for "
                           f"table {table}"):
        entries += got
        before.update(_before_log(page, url))
    return entries, before


def _is_http(source: str) -> bool:
    return source.startswith(("http://", "https://"))


def database_url(source: str) -> str:
    """The database URL of ``source``: a URL as is, a data folder's ``polignac.db``,
    or a database file."""
    if "://" in source:
        return source
    path = Path(source)
    return f"sqlite:///{(path / 'polignac.db' if path.is_dir() else path).resolve()}"


def log_from_database(source: str) -> tuple[list[Entry], list[str]]:
    """The whole commitment log of a server's database, and what is wrong with the
    chain (entries changed, missing or out of order, a last entry that is not the
    head row's).

    Raises:
        CliError: the database cannot be opened or has no commitment log (status 2).
    """
    from sqlalchemy.exc import SQLAlchemyError

    from ..server.store.commitments import read_chain_and_head
    from ..server.store.db import make_engine

    url = database_url(source)
    if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).is_file():
        raise CliError(f"--log: there is no database at {url.removeprefix('sqlite:///')}")
    try:
        engine = make_engine(url)
        try:
            chain, head = read_chain_and_head(engine)
        finally:
            engine.dispose()
    except SQLAlchemyError as exc:
        raise CliError(f"--log: cannot read the commitment log of {source}: "
                       f"{str(exc).splitlines()[0][:200]}") from None
    problems = check_chain(chain)
    last = (chain[-1].seq, chain[-1].hash) if chain else (0, GENESIS)
    if last != (head["seq"], head["hash"]):
        problems.append(f"the chain's head (entry {head['seq']}, {str(head['hash'])[:16]}…) "
                        f"is not its last entry (entry {last[0]}, {last[1][:16]}…)")
    return chain, problems


def before_log_from_database(source: str, table: str) -> dict[int, str]:
    """``table``'s deals dealt before the commitment log existed, with the commitment
    its stored deal event carries (``commitments.py:before_chain_of``).

    Raises:
        CliError: the database cannot be read (status 2).
    """
    from sqlalchemy.exc import SQLAlchemyError

    from ..server.store.commitments import before_chain_of
    from ..server.store.db import make_engine

    try:
        engine = make_engine(database_url(source))
        try:
            with engine.connect() as conn:
                return before_chain_of(conn, table)
        finally:
            engine.dispose()
    except SQLAlchemyError as exc:
        raise CliError(f"--log: cannot read the event log of {source}: "
                       f"{str(exc).splitlines()[0][:200]}") from None


def parse_head(text: str, where: str) -> tuple[int, str]:
    """A kept entry ``SEQ:HASH`` (``where``: the option or file line, for the error).

    Raises:
        CliError: not a number (ASCII digits) and 64 hex digits (status 2).
    """
    found = _HEAD.fullmatch(text.strip())
    if found is None:
        raise CliError(f"{where}: {text.strip()[:80]!r} is not SEQ:HASH (an entry number, a "
                       "colon and its 64 hex digits, as `polignac commitments head` prints)")
    return int(found[1]), found[2].lower()


def read_heads(options: list[str], path: str | None) -> list[tuple[int, str]]:
    """The kept entries of ``--head`` options and of the ``--heads`` file.

    Raises:
        CliError: a malformed one, an unreadable or too large file, or more than
            :data:`MAX_HEADS` (status 2).
    """
    heads = [parse_head(text, "--head") for text in options]
    if path is not None:
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_HEADS_FILE + 1)
        except OSError as exc:
            raise CliError(f"--heads {path}: {exc.strerror or exc}") from None
        if len(data) > MAX_HEADS_FILE:
            raise CliError(f"--heads {path}: longer than {MAX_HEADS_FILE} bytes")
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            if line.strip() and not line.lstrip().startswith("#"):
                heads.append(parse_head(line, f"--heads {path}, line {number}"))
    if len(heads) > MAX_HEADS:
        raise CliError(f"--head/--heads: at most {MAX_HEADS} kept entries")
    return heads


def page_head(page: Any, where: str) -> dict[str, Any]:
    """The log's head (``{"seq", "hash"}``) a page of ``GET /api/commitments`` gives.

    Raises:
        CliError: ``page`` is not such a page (``where`` says whose) (status 2).
    """
    top = page.get("head") if isinstance(page, dict) else None
    if not isinstance(top, dict) or not isinstance(top.get("seq"), int) \
            or not isinstance(top.get("hash"), str):
        raise CliError(f"{where} did not answer a page of the commitment log")
    return {"seq": top["seq"], "hash": top["hash"]}


def chain_from_server(base: str, after: int) -> tuple[list[Entry], dict[str, Any]]:
    """The entries of the whole chain after entry ``after`` at the server at ``base``,
    up to its head, and that head (``GET /api/commitments``, paged).

    Raises:
        CliError: the server does not answer, answers what is not a log, or has more
            than ``MAX_LOG_PAGES * LOG_PAGE`` entries after ``after`` (status 2).
    """
    root = f"{base.rstrip('/')}/api/commitments"
    entries: list[Entry] = []
    head: dict[str, Any] = {}
    for url, page, got in _pages(
            lambda at: f"{root}?after={at}&limit={LOG_PAGE}", after, "an entry number",
            lambda at: f"--log: more than {MAX_LOG_PAGES * LOG_PAGE} entries after entry "
                       f"{at}: check a later kept head"):
        head = page_head(page, f"--log: {url}")
        entries += got
    return entries, head


def check_heads(source: str, heads: list[tuple[int, str]]) -> list[tuple[int, str, str]]:
    """Check each kept entry ``(seq, hash)`` against the log at ``source``: the log
    must hold that very entry, and the chain from the earliest kept one to the log's
    head must be sound (each entry's hash, each ``prev`` the hash before it), so that
    the head the log shows now extends every entry kept before.  What is wrong, as
    ``(seq, hash, problem)`` (seq 0: the chain as a whole); empty: every one holds.

    Raises:
        CliError: the log cannot be read (status 2).
    """
    wanted = [h for h in heads if h[0] > 0]
    out = [(seq, digest, f"entry 0 is the empty chain, whose hash is {GENESIS[:16]}…")
           for seq, digest in heads if seq == 0 and digest != GENESIS]
    if not wanted:
        return out
    if _is_http(source):
        low = min(seq for seq, _ in wanted)
        entries, top = chain_from_server(source, low - 1)
        problems = check_chain(entries)
        last = (entries[-1].seq, entries[-1].hash) if entries else (low - 1, "")
        if entries and last != (top["seq"], top["hash"]):
            problems.append(f"the chain's head (entry {top['seq']}) is not its last entry "
                            f"(entry {last[0]})")
    else:
        entries, problems = log_from_database(source)
        top = {"seq": entries[-1].seq if entries else 0}
    out += [(0, "", p) for p in problems]
    by_seq = {e.seq: e for e in entries}
    for seq, digest in wanted:
        logged = by_seq.get(seq)
        if logged is None:
            out.append((seq, digest, f"the log has no entry {seq} (its head is entry "
                                     f"{top['seq']})"))
        elif logged.hash != digest:
            out.append((seq, digest, f"entry {seq} of the log is {logged.hash[:16]}…, not the "
                                     f"kept {digest[:16]}…: the log was rewritten"))
    return out


def run_heads(source: str, heads: list[tuple[int, str]], as_json: bool, out: TextIO) -> int:
    """``polignac verify --log SOURCE --head ...`` without a record: print whether the
    log holds every kept entry; 0 when it does, else 1.

    Raises:
        CliError: the log cannot be read (status 2).
    """
    problems = check_heads(source, heads)
    if as_json:
        out.write(json.dumps({"ok": not problems, "log": {"source": source, "heads": [
            {"seq": s, "hash": h} for s, h in heads], "problems": [
            {"seq": s, "hash": h, "problem": p} for s, h, p in problems]}}) + "\n")
        return 0 if not problems else 1
    _print_heads(source, heads, problems, out)
    return 0 if not problems else 1


def _print_heads(source: str, heads: list[tuple[int, str]],
                 problems: list[tuple[int, str, str]], out: TextIO) -> None:
    for _, _, problem in problems:
        print(f"Kept head check against {source}: {problem}.", file=out)
    print(f"Commitment log {source}: " + (
        f"{len(heads)} kept head(s) hold: the log extends every one." if not problems
        else "a kept head does NOT hold."), file=out)


def against_log(record: Mapping[str, Any], checks: list[DealCheck], source: str
                ) -> tuple[list[DealCheck], list[str]]:
    """``checks`` with each deal also checked against the commitment log at ``source``
    (a deal that differs fails), and the problems of the log's chain itself.  A deal
    dealt before the log existed is checked against the table's stored event log
    instead (``core/commitlog.py:before_chain``; it then carries a note).

    Raises:
        CliError: the log cannot be read, or the record names no table.
    """
    table = record_table(record)
    if _is_http(source):
        entries, early = log_from_server(source, table)
        chain_problems = [f"entry {e.seq}: its hash is not the hash of its fields"
                          for e in entries if not e.sound]
    else:
        chain, chain_problems = log_from_database(source)
        entries = [e for e in chain if e.table == table]
        early = before_log_from_database(source, table)
    found = check_record_deals(record, entries, {(table, d): c for d, c in early.items()})
    out = []
    for check in checks:
        got = found.get(check.deal)
        if got is not None and got.problems:
            check = replace(check, status="failed", problems=(*check.problems, *got.problems))
        if got is not None and got.note is not None:
            check = replace(check, notes=(*check.notes, got.note))
        out.append(check)
    return out, chain_problems


def run_verify(path: str | None, as_json: bool, strict: bool, out: TextIO,
               lenient: bool = False, log: str | None = None,
               heads: list[tuple[int, str]] | None = None) -> int:
    """Check the record at ``path`` and print a table (or JSON) of its deals.

    Returns 0 when every deal passes, else 1.  A finished deal without its proof
    fails unless ``lenient`` (then it is not verifiable); a deal still in play is
    not verifiable, which fails only when ``strict``.  With ``log`` (see
    :func:`against_log`), a deal whose commitment is not the logged one fails, and
    so does a broken chain; with ``heads`` (entries kept elsewhere, ``SEQ:HASH``), the
    log must hold each of them (:func:`check_heads`).  ``path`` None: only the heads.

    Raises:
        CliError: no record and no head, heads without a log, the file is missing or
            not JSON, the log cannot be read (status 2), or the record's preset, rules
            or players are unusable (status 1).
    """
    if heads and log is None:
        raise CliError("--head/--heads: give the log to check them against (--log SOURCE)")
    if path is None:
        if not heads:
            raise CliError("verify: give a RECORD, or kept heads (--head, --heads) and --log")
        assert log is not None
        return run_heads(log, heads, as_json, out)
    record = read_json(path)
    try:
        checks = verify_record(record, lenient=lenient)
    except RecordError as exc:
        raise CliError(f"{path}: {exc}", status=1) from None
    chain_problems: list[str] = []
    head_problems: list[tuple[int, str, str]] = []
    if log is not None:
        checks, chain_problems = against_log(record, checks, log)
        if heads:
            head_problems = check_heads(log, heads)
    failed = [c for c in checks if c.status == "failed"]
    unverified = [c for c in checks if c.status == "not-verifiable"]
    ok = not failed and not (strict and unverified) and not chain_problems \
        and not head_problems
    if as_json:
        result: dict[str, Any] = {"ok": ok, "deals": [c.to_json() for c in checks]}
        if log is not None:
            result["log"] = {"source": log, "problems": chain_problems}
            if heads:
                result["log"]["heads"] = [{"seq": s, "hash": h} for s, h in heads]
                result["log"]["head_problems"] = [
                    {"seq": s, "hash": h, "problem": p} for s, h, p in head_problems]
        out.write(json.dumps(result) + "\n")
        return 0 if ok else 1
    print(f"{'deal':>4}  {'result':<14}  {'cuts':>4}  {'commitment':<17}  notes", file=out)
    for c in checks:
        commit = "-" if c.commitment is None else f"{c.commitment[:8]}…{c.commitment[-8:]}"
        notes = [*c.problems, *c.notes,
                 *(f"{len(c.refused)} cut(s) refused",) * bool(c.refused)]
        print(f"{c.deal:>4}  {LABELS[c.status]:<14}  {c.cuts:>4}  {commit:<17}  "
              f"{'; '.join(notes)}".rstrip(), file=out)
    passed = len(checks) - len(failed) - len(unverified)
    print(f"{passed} of {len(checks)} deals verified, {len(failed)} failed, "
          f"{len(unverified)} not verifiable.", file=out)
    if log is not None:
        whole = "the table's entries are" if _is_http(log) else "the whole hash chain is"
        print(f"Commitment log {log}: " + (f"{whole} NOT sound: " + "; ".join(chain_problems)
              if chain_problems else f"{whole} sound") + ".", file=out)
        if heads:
            _print_heads(log, heads, head_problems, out)
    for c in checks:
        for line in c.refused:
            print(f"Deal {c.deal}: {line}", file=out)
    for c in failed:
        print(f"Deal {c.deal} failed: {'; '.join(c.problems)}", file=out)
    if strict and unverified:
        print("--strict: deals " + ", ".join(str(c.deal) for c in unverified)
              + " cannot be verified.", file=out)
    return 0 if ok else 1


__all__ = ["against_log", "before_log_from_database", "chain_from_server", "check_heads",
           "database_url", "log_from_database", "log_from_server", "parse_head",
           "read_heads", "record_table", "register", "run_heads", "run_verify"]
