"""``polignac tournament``: a duplicate tournament between bots.

Wire it in with ``register(subparsers)``; the subparser's ``run`` default is
the handler (``args.run(args)`` returns the exit status).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..bots.backends import BACKENDS, close_backend
from ..bots.registry import UnknownBotError
from ..bots.tournament import (
    Progress,
    TournamentConfig,
    iter_specs,
    plot_result,
    render_table,
    run_tournament,
)
from ..core.errors import RulesError
from .common import CliError, cli_backend, parse_rule_options


def register(subparsers: Any, help_line: str) -> argparse.ArgumentParser:
    """Add the ``tournament`` subcommand to ``subparsers`` (``help_line``: its line in
    --help) and return its parser."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "tournament", help=help_line,
        description="Duplicate tournament: each hand set is played once per rotation of "
        "the seating, so every bot holds every hand. Prints the mean score per deal with "
        "95%% confidence intervals (hand sets are the sampling unit).")
    p.add_argument("--preset", default="polignac", metavar="P", help="default: polignac")
    p.add_argument("--bots", required=True, metavar="SPECS",
                   help="one bot spec per seat, comma-separated: hard,medium,medium,medium "
                   "(options: hard:samples=30)")
    p.add_argument("--players", type=int, metavar="N", help="default: the number of bots")
    p.add_argument("--deals", type=int, default=100, metavar="N",
                   help="duplicate hand sets (default 100)")
    p.add_argument("--matches", type=int, default=0, metavar="M",
                   help="also play M duplicate whole matches for the win rate (default 0)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="default: 0")
    p.add_argument("--start", type=int, default=0, metavar="K",
                   help="index of the first hand set (default 0): runs of the same seed "
                   "with --start 0, N, 2N... are slices of one long run")
    p.add_argument("--jobs", type=int, metavar="J",
                   help="worker processes (default 1); with --backend ray, the CPUs of the "
                   "local cluster (default: all)")
    p.add_argument("--backend", choices=BACKENDS, default="process",
                   help="where the hand sets are played: process (worker processes, the "
                   "default), serial, or ray (a Ray cluster; pip install polignac[cluster])")
    p.add_argument("--address", metavar="ADDR",
                   help="with --backend ray: the cluster to use (host:port of its head node "
                   "or auto; default: start a local one)")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE",
                   help="house rule (repeatable), e.g. --rule threshold=10")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--plot", metavar="FILE.png", help="draw the intervals to a PNG")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    """Run the tournament that ``args`` describe; return the exit status.

    Raises:
        CliError: bad preset, rule, bot spec, counts, or a plot without matplotlib.
    """
    specs = tuple(iter_specs(args.bots))
    outside = any(spec.startswith("openspiel-") for spec in specs)
    if outside:
        # Outside bots live in the research layer, above the bots: load them here.
        try:
            import polignac.research.ismcts  # noqa: F401  (registers openspiel-ismcts)
        except ImportError as exc:
            raise CliError(f"--bots {args.bots}: OpenSpiel bots need the research extra "
                           f"(pip install polignac[research]): {exc}") from None
    players = args.players if args.players is not None else len(specs)
    config = TournamentConfig(
        preset=args.preset, bots=specs, deals=args.deals, seed=args.seed, players=players,
        rules=parse_rule_options(args.rule), matches=args.matches, start=args.start,
    )
    backend = cli_backend(args.backend, args.jobs, args.address,
                          preload=("polignac.research.ismcts",) if outside else ())
    try:
        config.resolve()
        if args.quiet or args.json:
            result = run_tournament(config, backend)
        else:
            with Progress("hand sets") as progress:
                result = run_tournament(config, backend, progress)
    except (RulesError, UnknownBotError) as exc:
        raise CliError(str(exc)) from None
    except ConnectionError as exc:
        raise CliError(f"--address {args.address}: {exc}") from None
    finally:
        close_backend(backend)
    if args.json:
        json.dump(result.to_dict(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        render_table(result)
    if args.plot:
        try:
            plot_result(result, args.plot)
        except ImportError as exc:
            raise CliError(f"--plot needs matplotlib ({exc}): pip install polignac[bots]"
                           ) from None
    return 0
