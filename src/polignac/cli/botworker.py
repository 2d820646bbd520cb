"""``polignac bot-worker``: compute bot moves for servers anywhere, from a Redis queue.

Servers started with ``polignac serve --bot-queue redis://...`` put their bot
moves in the queue, and their hints and analyses in another stream; each worker
takes them, computes moves in ``--jobs`` local processes and the others in
``--heavy-jobs`` processes of their own (so that a minute of analysis never
delays a move), and answers (``polignac.server.jobs.botqueue``; docs/deploy.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal

from .common import CliError, within


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
             help_line: str) -> None:
    """Add the ``bot-worker`` command to ``subparsers`` (``help_line``: its line in --help)."""
    p = subparsers.add_parser(
        "bot-worker",
        help=help_line,
        description="Take bot moves from the Redis queue of servers started with "
        "--bot-queue, compute them in local processes, answer them. Stop with Ctrl-C "
        "or SIGTERM: the moves in progress are taken over by other workers.")
    p.add_argument("--redis", required=True, metavar="URL",
                   help="the queue's Redis, as the servers' --bot-queue: "
                        "redis://[:PASSWORD@]HOST:PORT/DB (rediss:// for TLS)")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="moves computed at once, each in a process (default: one per CPU)")
    p.add_argument("--heavy-jobs", type=int, default=1, metavar="M",
                   help="hints and analyses computed at once, each in a process of its own, "
                        "apart from the moves (default 1; 0: this worker takes none)")
    p.add_argument("--name", default=None, metavar="NAME",
                   help="this worker's name in the queue, unique among its workers "
                        "(default: HOST-PID)")
    p.add_argument("--prefix", default="polignac", metavar="P",
                   help="the queue's key prefix, as the servers' (default polignac)")
    p.add_argument("--claim-after", type=float, default=3.0, metavar="SECONDS",
                   help="seconds a move taken by a worker that stopped answering waits "
                        "before another worker takes it over (default 3)")
    p.set_defaults(func=run_bot_worker)


def _check(args: argparse.Namespace) -> None:
    """Raises:
        CliError: an option is out of range (the message names it).
    """
    if not args.redis.startswith(("redis://", "rediss://", "unix://")):
        raise CliError(f"--redis {args.redis!r}: give a redis:// (or rediss://, unix://) URL")
    if args.jobs is not None:
        within(args, "jobs", 1, 256)
    within(args, "heavy_jobs", 0, 256)
    if args.name is not None and not (0 < len(args.name) <= 100 and args.name.isprintable()):
        raise CliError(f"--name {args.name!r}: give 1 to 100 printable characters")
    if not (0 < len(args.prefix) <= 100 and args.prefix.isprintable()):
        raise CliError(f"--prefix {args.prefix!r}: give 1 to 100 printable characters")
    within(args, "claim_after", 0.5, 3600, " seconds")


def run_bot_worker(args: argparse.Namespace) -> int:
    """Run the worker until Ctrl-C or SIGTERM.

    Raises:
        CliError: a bad option, the extras are not installed, or Redis is out of reach.
    """
    _check(args)
    try:
        import redis

        from ..server.jobs.botmoves import machine_workers
        from ..server.jobs.botqueue import redacted
        from ..server.jobs.botworker import BotWorker
    except ImportError as exc:
        raise CliError(f"bot-worker needs the server and scale extras: pip install "
                       f"'polignac[server,scale]' ({exc.name} is missing)") from None
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    worker = BotWorker(args.redis, args.jobs or machine_workers(), args.name, args.prefix,
                       args.claim_after)
    workers = [worker]
    if args.heavy_jobs:
        workers.append(BotWorker(args.redis, args.heavy_jobs, worker.name, args.prefix,
                                 args.claim_after, kind="heavy"))
    print(f"polignac: bot worker {worker.name}, {worker.jobs} move(s) and {args.heavy_jobs} "
          f"hint(s) or analyses at once, queue {redacted(args.redis)} ({args.prefix})",
          flush=True)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        await asyncio.gather(*(w.run(stop) for w in workers))

    try:
        asyncio.run(main())
    except (redis.RedisError, OSError) as exc:
        raise CliError(f"the queue's Redis ({redacted(args.redis)}): {exc}") from None
    print(f"polignac: bot worker {worker.name} stopped ({worker.done} moves)", flush=True)
    return 0
