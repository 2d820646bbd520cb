"""Entry point of the ``polignac`` command: parse the arguments, run a subcommand.

Every error is one line on stderr (``polignac: ...``) and a non-zero exit
status: 2 for bad usage or an unreadable file, 1 for a record that does not
replay, 130 after Ctrl-C.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import Any, NoReturn, TextIO

from ..core import PRESETS, PolignacError, Rules
from ..core.rules import parameters_for
from ..i18n import DEFAULT, LANGS, describe_rules
from ..i18n import preset_summary as i18n_preset_summary
from .common import CliError, load_rules

PROG = "polignac"


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (raised as :class:`CliError`)."""

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{self.prog}: {message} (see {self.prog} --help)")


# The subcommands defined in their own modules: name -> (module, one-line help). Each
# module's ``register(subparsers, help_line)`` adds its parser; main imports a module
# only for the command being run, so ``polignac --help`` or ``polignac rules`` load
# neither the bots (numba) nor the server.
COMMANDS: dict[str, tuple[str, str]] = {
    "rulebook": ("rulebook", "write the rule book's pages (docs/rules) from the rules text"),
    "tournament": ("tournament", "play bots against each other in a duplicate tournament"),
    "analyze": ("analyze", "analyse every action of a record (expected values, mistakes)"),
    "puzzles": ("puzzles", "build puzzles from played games, proved by the exact solver"),
    "serve": ("serve", "run the web app (lobby and tables)"),
    "verify": ("verify", "check that a record's deals follow from their seeds and cuts"),
    "commitments": ("commitments", "print the head of a server's commitment log, to keep "
                    "it elsewhere"),
    "bot-worker": ("botworker", "compute bot moves (and hints, analyses) for servers, "
                   "from a Redis queue"),
    "ratings": ("ratings", "recompute the players' ratings from the finished records"),
    "tournaments": ("schedules", "a club's recurring arenas on the server: add, list, "
                    "remove"),
}


def _register(name: str, module: str, help_line: str, sub: Any) -> None:
    """Import ``polignac.cli.<module>`` and add the ``name`` subcommand's parser."""
    try:
        register = import_module(f"{__package__}.{module}").register
    except ImportError as exc:  # an extra that is not installed: say which
        sub.add_parser(name, help=f"{help_line} (unavailable: {exc.name} is not installed)")
        return
    register(sub, help_line)


def command_of(argv: Sequence[str]) -> str:
    """The subcommand named in ``argv`` (its first word that is not an option), or ""."""
    return next((word for word in argv if not word.startswith("-")), "")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser: every subcommand's options when ``only`` is None, else only
    those of the subcommand ``only`` (the others are listed by name and help line)."""
    parser = _Parser(prog=PROG, description="Polignac and its family of trick-avoidance "
                     "card games: rules, the web app, terminal play, bot tournaments "
                     "and game records.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("presets", help="list the presets (rule sets) by name")
    p.add_argument("--lang", choices=LANGS, default=DEFAULT,
                   help="the language of the summaries: en (default), fr or de")

    p = sub.add_parser("rules", help="print a preset's complete rules in words",
                       description="Print a preset's rules, with house rules applied.")
    p.add_argument("preset", metavar="PRESET", help="a preset name (see polignac presets)")
    p.add_argument("--players", type=int, metavar="N", help="describe the pack for N only")
    p.add_argument("--params", action="store_true",
                   help="list every rule parameter with its value and meaning instead")
    p.add_argument("--lang", choices=LANGS, default="en",
                   help="the language of the text: en (default), fr or de")
    p.add_argument("--markdown", action="store_true",
                   help="write the text as Markdown (as in the rule book, docs/rules)")
    _add_rule_options(p)
    p = sub.add_parser("play", help="play a match in the terminal against bots",
                       description="Play a match: you at one seat, bots at the others "
                       "(--opponents: random, easy, medium, hard, expert). Type help during "
                       "the match for the commands.")
    p.add_argument("--preset", default="polignac", metavar="P", help="default: polignac")
    p.add_argument("--players", type=int, metavar="N", help="default: the preset's default")
    p.add_argument("--seat", type=int, default=0, metavar="S", help="your seat, from 0")
    p.add_argument("--seed", type=int, metavar="S", help="seed the shuffles (replayable)")
    p.add_argument("--out", metavar="FILE", help="write the game record to FILE")
    p.add_argument("--opponents", default="medium", metavar="LEVEL",
                   help="bot level of the other seats (default: medium)")
    _add_rule_options(p)

    p = sub.add_parser("play-random", help="play a whole match with random legal actions",
                       description="Play a match with random legal actions from "
                       "random.Random(SEED) (the first dealer too) and write its record.")
    p.add_argument("--preset", default="polignac", metavar="P", help="default: polignac")
    p.add_argument("--players", type=int, metavar="N", help="default: the preset's default")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="default: 0")
    p.add_argument("--out", metavar="FILE", help="write the record here (default: stdout)")
    _add_rule_options(p)

    p = sub.add_parser("replay", help="replay a game record and print its scores",
                       description="Replay a game record (polignac-record/1) and print "
                       "the scores of each deal, the totals, winners and losers.")
    p.add_argument("file", nargs="?", metavar="FILE", help="a record (JSON)")
    p.add_argument("--example", action="store_true", help="replay the bundled example record")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    for name, (module, help_line) in COMMANDS.items():
        if only is None or only == name:
            _register(name, module, help_line, sub)
        else:  # named in --help; its module (and what it imports) is loaded when it runs
            sub.add_parser(name, help=help_line)
    return parser


def _add_rule_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rule", action="append", metavar="NAME=VALUE",
                   help="a house rule, for example --rule threshold=10 (repeatable)")
    p.add_argument("--rules-file", metavar="F.json",
                   help='house rules from a JSON object, for example {"threshold": 10}')


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    out = sys.stdout
    try:
        return _run(list(sys.argv[1:] if argv is None else argv), out)
    except CliError as exc:
        _error(str(exc))
        return exc.status
    except PolignacError as exc:
        _error(str(exc))
        return 1
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except BrokenPipeError:
        return 0
    except SystemExit as exc:  # argparse after --help
        return exc.code if isinstance(exc.code, int) else 0


def _error(message: str) -> None:
    text = message if message.startswith(PROG) else f"{PROG}: {message}"
    print(text, file=sys.stderr)


def _run(argv: list[str], out: TextIO) -> int:
    parser = build_parser(command_of(argv))
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(out)
        return 0
    if args.command == "presets":
        _presets(out, args.lang)
        return 0
    if args.command == "rules":
        rules = load_rules(args.preset, args.rule, args.rules_file)
        if args.params:
            _params(rules, out)
            return 0
        try:
            if args.markdown:
                from ..i18n.rulebook import rules_markdown

                out.write(rules_markdown(rules, args.players, args.lang, level=2))
            else:
                out.write(describe_rules(rules, args.players, args.lang))
        except PolignacError as exc:
            raise CliError(str(exc)) from None
        return 0
    if args.command == "play":
        from .play import run_play

        rules = load_rules(args.preset, args.rule, args.rules_file)
        return run_play(rules, args.players, args.seat, args.seed, args.out, out=out,
                        opponents=args.opponents)
    if args.command in ("tournament", "analyze", "puzzles"):
        status: int = args.run(args)
        return status
    if args.command in ("serve", "bot-worker", "ratings", "commitments", "tournaments"):
        served: int = args.func(args)
        return served
    if args.command == "rulebook":
        from .rulebook import run_rulebook

        return run_rulebook(args.dir, args.check, out)
    if args.command == "verify":
        from .verify import read_heads, run_verify

        return run_verify(args.file, args.json, args.strict, out, args.lenient, args.log,
                          read_heads(args.head, args.heads))
    if args.command == "play-random":
        from .records import run_play_random

        rules = load_rules(args.preset, args.rule, args.rules_file)
        return run_play_random(rules, args.players, args.seed, args.out, out)
    from .records import run_replay

    if args.file is None and not args.example:
        raise CliError("replay: give a record FILE, or --example for the bundled one")
    if args.file is not None and args.example:
        raise CliError("replay: give a record FILE or --example, not both")
    return run_replay(args.file, args.json, out)


def preset_summary(rules: Rules, lang: str = DEFAULT) -> str:
    """The preset's one-line summary in ``lang``: the rules pages' and the rule book's
    text (``preset.NAME.summary`` in the i18n catalogs, :func:`polignac.i18n.preset_summary`)."""
    return i18n_preset_summary(rules.preset, lang)


def _presets(out: TextIO, lang: str = DEFAULT) -> None:
    rows = [(name, r.game, _players(r), preset_summary(r, lang)) for name, r in PRESETS.items()]
    heads = ("preset", "game", "players", "summary")
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(heads[:3])]
    for row in (heads, *rows):
        cells = [c.ljust(w) for c, w in zip(row[:3], widths, strict=True)]
        print("  ".join([*cells, row[3]]).rstrip(), file=out)
    print("\nDetails: polignac rules PRESET. House rules: --rule NAME=VALUE "
          "(polignac rules PRESET --params lists them).", file=out)


def _players(rules: Rules) -> str:
    p = rules.players
    if len(p) > 1 and list(p) == list(range(p[0], p[-1] + 1)):
        return f"{p[0]}-{p[-1]}"
    return ",".join(map(str, p))


def _params(rules: Rules, out: TextIO) -> None:
    """The parameter group of the preset's game (core/rules.py:parameters_for)."""
    values = rules.to_dict()
    print(f"Rule parameters of preset {rules.preset!r}, game {rules.game!r} (change one "
          "with --rule NAME=VALUE):", file=out)
    for param in parameters_for(rules):
        print(f"\n{param.name} = {_value_text(values[param.name])}", file=out)
        print(f"    {param.doc}", file=out)
        if param.bounds:
            print(f"    Bounds: {param.bounds}.", file=out)


def _value_text(value: object) -> str:
    if isinstance(value, dict):
        return ",".join(f"{k}:{v}" for k, v in value.items()) or "(none)"
    if isinstance(value, list):
        return ",".join(map(str, value))
    if value is None:
        return "none"
    return str(value).lower() if isinstance(value, bool) else str(value)
