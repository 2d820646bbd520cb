"""``polignac rulebook DIR``: write the generated regions of the project's rule book.

The book is ``docs/rules/`` in the repository: a page per preset, its rules
generated from the same text as ``polignac rules`` (``polignac.i18n.rulebook``),
prose written by hand around them. This command rewrites the generated regions,
creates the page of a preset that has none, and leaves the prose alone;
``--check`` only says what is stale (exit status 1), as the test does.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from ..i18n.rulebook import book, problems
from .common import CliError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
             help_line: str) -> None:
    """Add the ``rulebook`` command to ``subparsers`` (``help_line``: its line in --help)."""
    p = subparsers.add_parser(
        "rulebook", help=help_line,
        description="Rewrite the generated regions of the rule book's pages in DIR "
        "(docs/rules in the repository) from the same text as polignac rules, and "
        "create the page of a preset that has none; the hand-written prose is kept.")
    p.add_argument("dir", metavar="DIR", help="the book's folder, e.g. docs/rules")
    p.add_argument("--check", action="store_true",
                   help="write nothing; list what is stale and exit 1 if anything is")


def read_book(folder: Path) -> dict[str, str]:
    """Every ``*.md`` page of the book in ``folder`` (file name -> text).

    Raises:
        CliError: ``folder`` is not a folder, or a page cannot be read.
    """
    if not folder.is_dir():
        raise CliError(f"rulebook: {folder} is not a folder")
    try:
        return {p.name: p.read_text("utf-8") for p in sorted(folder.glob("*.md"))}
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"rulebook: {exc}") from None


def run_rulebook(folder: str, check: bool, out: TextIO) -> int:
    """Refresh (or with ``check`` only inspect) the book in ``folder``; return the exit status.

    Raises:
        CliError: the folder or a page cannot be read or written, or a page has
            a generated region of an unknown name.
    """
    path = Path(folder)
    pages = read_book(path)
    try:
        wanted = book(pages)
        found = problems(pages)
    except KeyError as exc:
        raise CliError(f"rulebook: {exc.args[0]}") from None
    if check:
        for line in found:
            print(line, file=out)
        return 1 if found else 0
    for name, text in wanted.items():
        if pages.get(name) != text:
            try:
                (path / name).write_text(text, "utf-8")
            except OSError as exc:
                raise CliError(f"rulebook: {exc}") from None
            print(f"wrote {path / name}", file=out)
    for line in problems(wanted):
        print(line, file=out)
    return 0
