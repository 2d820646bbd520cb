"""Shared pieces of the command line: errors, house rules, JSON files, backends."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import Rules, RulesError, get_rules

if TYPE_CHECKING:  # the bots layer is imported only by the commands that use a backend
    from ..bots.backends import Backend


class CliError(Exception):
    """A user error: printed as one line on stderr, exit status ``status``."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def within(args: argparse.Namespace, option: str, lo: float, hi: float, unit: str = "",
           above: bool = False) -> None:
    """Check that the option ``--option`` (``args.option``) is from ``lo`` (above it
    when ``above``) to ``hi``.

    Raises:
        CliError: it is not; the message names the option, its value and the range
            (``--jobs 0: choose from 1 to 256``).
    """
    value = getattr(args, option)
    if not (lo < value if above else lo <= value) or value > hi:
        raise CliError(f"--{option.replace('_', '-')} {value}: choose from "
                       f"{'above ' if above else ''}{lo} to {hi}{unit}")


def parse_rule_options(items: Sequence[str] | None) -> dict[str, str]:
    """Read ``--rule NAME=VALUE`` options into a dict.

    Raises:
        CliError: an item has no ``=``.
    """
    out: dict[str, str] = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise CliError(f"--rule {item!r}: write NAME=VALUE, for example threshold=10")
        out[name.strip().replace("-", "_")] = value.strip()
    return out


def cli_backend(kind: str, jobs: int | None, address: str | None,
                preload: Sequence[str] = ()) -> Backend:
    """The backend that ``--backend``, ``--jobs`` and ``--address`` ask for.

    Raises:
        CliError: ``--jobs`` below 1, ``--address`` without ``--backend ray``,
            ``--jobs`` with ``--address``, ``ray`` without Ray installed, or
            nothing answers at ``--address``.
    """
    if jobs is not None and jobs < 1:
        raise CliError(f"--jobs must be at least 1, got {jobs}")
    if address is not None and kind != "ray":
        raise CliError("--address is for --backend ray")
    if address is not None and jobs is not None:
        raise CliError("--jobs is for a local cluster: a cluster at --address uses its own CPUs")
    from ..bots.backends import MissingExtraError, make_backend

    try:
        return make_backend(jobs, kind, address, preload)
    except (ValueError, MissingExtraError) as exc:
        raise CliError(f"--backend {kind}: {exc}") from None
    except ConnectionError as exc:
        raise CliError(f"--address {address}: {exc}") from None


def load_rules(
    preset: str, rule_items: Sequence[str] | None = None, rules_file: str | None = None
) -> Rules:
    """Return ``preset`` with the overrides of ``--rules-file`` and then ``--rule``.

    Raises:
        CliError: unknown preset, unreadable file, unknown or invalid rule.
    """
    overrides: dict[str, Any] = {}
    if rules_file is not None:
        data = read_json(rules_file)
        if not isinstance(data, dict):
            raise CliError(f"{rules_file}: a rules file must hold a JSON object "
                           'of parameters, for example {"threshold": 10}')
        overrides.update(data)
    overrides.update(parse_rule_options(rule_items))
    try:
        return get_rules(preset, overrides)
    except RulesError as exc:
        raise CliError(str(exc)) from None


def read_json(path: str) -> Any:
    """Read a JSON file.

    Raises:
        CliError: the file is missing, unreadable or not JSON (status 2).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except OSError as exc:
        raise CliError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CliError(f"{path}: not a text file (expected JSON)") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno}, "
                       f"column {exc.colno}") from None


def write_json(path: str, data: Any) -> None:
    """Write ``data`` as indented JSON.

    Raises:
        CliError: the file cannot be written.
    """
    try:
        Path(path).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                              encoding="utf-8")
    except OSError as exc:
        raise CliError(f"{path}: cannot write: {exc.strerror or exc}") from None
