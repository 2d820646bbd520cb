"""``polignac serve``: run the web app on uvicorn.

The lead wires :func:`register` into ``polignac.cli.main``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .common import CliError, within


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
             help_line: str) -> None:
    """Add the ``serve`` command to ``subparsers`` (``help_line``: its line in --help)."""
    p = subparsers.add_parser("serve", help=help_line,
                              description="Run the web app. Open the printed URL in a browser.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--data", default="polignac-data", metavar="DIR",
                   help="folder of the SQLite database (default ./polignac-data)")
    p.add_argument("--database-url", default=None, metavar="URL",
                   help="a database URL instead, e.g. postgresql+psycopg://user@host/polignac")
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="another origin allowed to open WebSockets (repeatable)")
    p.add_argument("--grace", type=float, default=30.0, metavar="SECONDS",
                   help="seconds an absent player's seat waits before a bot plays for them "
                        "(default 30)")
    p.add_argument("--bot-delay", type=float, default=0.7, metavar="SECONDS",
                   help="seconds a bot waits before it acts (default 0.7)")
    p.add_argument("--trick-pause", type=float, default=1.5, metavar="SECONDS",
                   help="seconds a bot waits more after a trick is complete, so that people "
                        "can see it (default 1.5)")
    p.add_argument("--deal-delay", type=float, default=2.5, metavar="SECONDS",
                   help="seconds between the end of a deal and the next (default 2.5)")
    p.add_argument("--rate", type=float, default=10.0, metavar="N",
                   help="messages a second each connection may send (default 10, bursts of "
                        "3 seconds' worth)")
    # --- seats and tables
    p.add_argument("--create-rate", type=float, default=6.0, metavar="N",
                   help="tables each address, and each browser, may create a minute "
                        "(default 6)")
    p.add_argument("--create-burst", type=int, default=12, metavar="N",
                   help="tables each address, and each browser, may create at once "
                        "(default 12)")
    p.add_argument("--max-tables", type=int, default=1000, metavar="N",
                   help="tables in memory at most, server-wide (default 1000)")
    p.add_argument("--close-after", type=float, default=3600.0, metavar="SECONDS",
                   help="seconds a paused table (nobody at it) stays in memory before it "
                        "is closed (default 3600)")
    p.add_argument("--finished-keep", type=float, default=600.0, metavar="SECONDS",
                   help="seconds a finished table stays in memory (default 600)")
    # --- heavy requests (replays, score pads) run in worker processes
    p.add_argument("--job-workers", type=int, default=2, metavar="N",
                   help="worker processes for replays and score pads, per web process "
                        "(default 2)")
    p.add_argument("--job-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="seconds one replay or score pad may run in a worker before it is "
                        "stopped, answered 503 job-timeout (default 10)")
    p.add_argument("--hint-timeout", type=float, default=30.0, metavar="SECONDS",
                   help="seconds one hint may run in a worker before it is stopped, answered "
                        "503 job-timeout (default 30)")
    p.add_argument("--push-contact", default="mailto:polignac@localhost", metavar="URI",
                   help="how push services reach this site's operator, a mailto: or https: "
                        "URI: the VAPID 'sub' of its Web Push notifications (default "
                        "mailto:polignac@localhost)")
    # --- connections
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="a host name this server answers to, as browsers send it in the "
                        "Host header: NAME (any port), NAME:PORT or *.DOMAIN (repeatable; "
                        "always allowed: the --host address and localhost, 127.0.0.1, "
                        "[::1] with --port)")
    p.add_argument("--max-connections", type=int, default=16, metavar="N",
                   help="open table connections (WebSockets) per client address "
                        "(default 16)")
    p.add_argument("--header-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="seconds a request's headers have to arrive (default 10)")
    p.add_argument("--max-requests", type=int, default=16, metavar="N",
                   help="HTTP requests per client address at once (default 16; more wait "
                        "for a place, see --request-queue)")
    p.add_argument("--request-queue", type=int, default=64, metavar="N",
                   help="HTTP requests per client address that may wait up to 10 s for "
                        "a place when it has --max-requests at once (default 64: a "
                        "page's burst of scripts, several browsers behind one address); "
                        "one more is answered 429; 0: refuse at once")
    p.add_argument("--write-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="seconds an answer may wait for a client that does not read before "
                        "the connection is cut (default 10)")
    p.add_argument("--forwarded-allow-ips", default=None, metavar="ADDRESSES",
                   help="the reverse proxies (comma-separated addresses or networks) whose "
                        "X-Forwarded-For header names the client: for a request from one "
                        "of them, every per-client limit counts that address (open "
                        "sockets --max-connections, requests at once --max-requests, "
                        "tables --create-rate, seats asked for, sign-in tries, Find "
                        "players requests, the job pool's fair share); a request from "
                        "any other peer counts as that peer, whatever header it sends. "
                        "Default: $FORWARDED_ALLOW_IPS, else none: X-Forwarded-For is "
                        "ignored and every client is the socket's peer (behind a proxy, "
                        "set it, or all clients share the proxy's allowance; never name "
                        "an address a client can send from)")
    p.add_argument("--ping", type=float, default=20.0, metavar="SECONDS",
                   help="seconds between WebSocket pings, and to wait for the pong before "
                        "closing (default 20)")
    # --- bot moves run in worker processes of their own
    p.add_argument("--bot-workers", type=int, default=None, metavar="N",
                   help="worker processes for bot moves (default: one per CPU)")
    p.add_argument("--bot-move-timeout", type=float, default=5.0, metavar="SECONDS",
                   help="seconds one bot move may take before a cheaper level plays it "
                        "(default 5)")
    p.add_argument("--bot-queue", default=None, metavar="URL",
                   help="compute bot moves on `polignac bot-worker` processes, anywhere, "
                        "through this Redis: redis://[:PASSWORD@]HOST:PORT/DB (default: "
                        "the local worker processes of --bot-workers)")
    # --- Find players (docs/server.md, "Find players")
    p.add_argument("--seek-countdown", type=float, default=5.0, metavar="SECONDS",
                   help="seconds a group of people who asked to play is counted down "
                        "before its table (anyone may still leave), 0 to 120 (default 5)")
    p.add_argument("--seek-bot-waits", default="30,60,120", metavar="SECONDS,...",
                   help="the waits a request may choose before bots fill its empty seats, "
                        "besides never: 1 to 6 whole seconds from 1 to 3600, comma-"
                        "separated (default 30,60,120)")
    p.add_argument("--seek-per-address", type=int, default=5, metavar="N",
                   help="live requests to play (their page asked in the last 20 s) at most "
                        "from one client address, 1 to 100000 (default 5)")
    p.add_argument("--seek-per-network", type=int, default=20, metavar="N",
                   help="live requests to play at most from one network (a /24 of IPv4, "
                        "a /64 of IPv6), 1 to 100000 (default 20)")
    p.add_argument("--secure-cookies", action="store_true",
                   help="mark the cookies Secure (behind a reverse proxy that serves HTTPS)")
    # --- several web processes (docs/server.md, "Several processes")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="web processes on this machine, sharing the port (default 1); more "
                        "than one needs a bus other than memory:// (a PostgreSQL "
                        "--database-url gives one: LISTEN/NOTIFY)")
    p.add_argument("--bus", default="memory://", metavar="URL",
                   help="the bus between web processes, here and on other machines: "
                        "memory:// (one process, the default), redis://HOST[:PORT][/DB] or "
                        "postgresql://USER@HOST/DB")
    p.add_argument("--lease-seconds", type=float, default=5.0, metavar="SECONDS",
                   help="seconds a table's lease lasts unless its process renews it: a dead "
                        "process's tables are taken over within about this long (default 5)")
    p.add_argument("--bus-secret-file", default=None, metavar="FILE",
                   help="a file holding the secret all the site's web processes share (at "
                        "least 16 characters; or $POLIGNAC_BUS_SECRET): each bus message is "
                        "signed with it and one that is not is refused. --workers N on "
                        "one machine makes one when none is given")
    p.add_argument("--name", default=None, metavar="NAME",
                   help="this process's name in the logs and the table leases (default: the "
                        "host name; a process id and a random suffix are added)")
    p.add_argument("--schedule", default=None, metavar="FILE", type=Path,
                   help="a club's recurring arenas (TOML, docs/events.md): read at start, "
                        "its entries stored by id (a restart does not duplicate them)")
    p.set_defaults(func=run_serve)


def build_config(args: argparse.Namespace) -> object:
    """The :class:`~polignac.server.ServerConfig` for these arguments.

    Raises:
        CliError: the server extra is not installed, or the port is out of range.
    """
    try:
        from ..server import ServerConfig
    except ImportError as exc:
        raise CliError(f"the web app needs the server extra: pip install 'polignac[server]' "
                       f"({exc.name} is missing)") from None
    if not 0 < args.port < 65536:
        raise CliError(f"--port {args.port}: choose a port from 1 to 65535")
    if not 0 < args.rate <= 1e6:
        raise CliError(f"--rate {args.rate}: choose a number above 0")
    for option in ("grace", "bot_delay", "trick_pause", "deal_delay"):
        within(args, option, 0, 3600, " seconds")
    if not 0 < args.create_rate <= 1e6 or not 1 <= args.create_burst <= 1_000_000:
        raise CliError("--create-rate and --create-burst: choose numbers above 0")
    within(args, "max_tables", 1, 1_000_000)
    for option in ("close_after", "finished_keep"):
        within(args, option, 0, 30 * 24 * 3600, " seconds")
    within(args, "job_workers", 1, 64)
    within(args, "workers", 1, 256)
    within(args, "lease_seconds", 0.5, 3600, " seconds")
    if args.name is not None and not 0 < len(args.name) <= 64:
        raise CliError(f"--name {args.name!r}: give 1 to 64 characters")
    bus = _bus(args)
    secret = _secret(args, bus)
    within(args, "job_timeout", 0.1, 3600, " seconds")
    within(args, "hint_timeout", 0.1, 3600, " seconds")
    if not args.push_contact.startswith(("mailto:", "https://")) or \
            not 8 < len(args.push_contact) <= 200 or any(c.isspace() for c in args.push_contact):
        raise CliError(f"--push-contact {args.push_contact[:60]!r}: give a mailto: or "
                       "https:// URI (how push services reach you)")
    within(args, "max_connections", 1, 100_000)
    within(args, "max_requests", 1, 100_000)
    within(args, "request_queue", 0, 100_000)
    within(args, "write_timeout", 0, 3600, " seconds", above=True)
    for option in ("header_timeout", "ping"):
        within(args, option, 0, 3600, " seconds", above=True)
    from ..server.tables.connections import default_allowed_hosts

    for name in args.allowed_host:
        if not name or len(name) > 253 or any(c in name for c in " /\\@?#"):
            raise CliError(f"--allowed-host {name!r}: give a host name, NAME:PORT or *.DOMAIN")
        if "*" in name[1:] or (name.startswith("*") and name != "*"
                               and not name.startswith("*.")):
            raise CliError(f"--allowed-host {name!r}: a wildcard is *.DOMAIN or *")
    hosts = default_allowed_hosts(args.host, args.port) + tuple(
        n.lower() for n in args.allowed_host)
    if args.bot_workers is not None:
        within(args, "bot_workers", 1, 256)
    within(args, "bot_move_timeout", 0.1, 600, " seconds")
    from ..server.lobby.seeks import COUNTDOWN_MAX, check_bot_waits

    within(args, "seek_countdown", 0, COUNTDOWN_MAX, " seconds")
    within(args, "seek_per_address", 1, 100_000)
    within(args, "seek_per_network", 1, 100_000)
    try:
        bot_waits = check_bot_waits(args.seek_bot_waits)
    except ValueError as exc:
        raise CliError(f"--seek-bot-waits {args.seek_bot_waits[:60]!r}: {exc}") from None
    if args.bot_queue is not None and not args.bot_queue.startswith(
            ("redis://", "rediss://", "unix://")):
        raise CliError(f"--bot-queue {args.bot_queue!r}: give a redis:// (or rediss://, "
                       "unix://) URL")
    return ServerConfig(data_dir=Path(args.data), database_url=args.database_url,
                        allowed_origins=tuple(args.allow_origin), grace_seconds=args.grace,
                        bot_delay=args.bot_delay, deal_delay=args.deal_delay,
                        trick_pause=args.trick_pause,
                        rate_per_second=args.rate, rate_burst=max(1, int(args.rate * 3)),
                        create_per_minute=args.create_rate, create_burst=args.create_burst,
                        max_tables=args.max_tables, close_seconds=args.close_after,
                        finished_keep_seconds=args.finished_keep,
                        workers=args.job_workers, job_seconds=args.job_timeout,
                        hint_seconds=args.hint_timeout, push_contact=args.push_contact,
                        warm_workers=True, freeze_at_start=True,
                        allowed_hosts=hosts, max_connections_per_client=args.max_connections,
                        max_requests_per_client=args.max_requests,
                        request_queue=args.request_queue,
                        write_timeout=args.write_timeout,
                        forwarded_allow_ips=_forwarded(args.forwarded_allow_ips),
                        header_timeout=args.header_timeout, ws_ping_interval=args.ping,
                        ws_ping_timeout=args.ping,
                        bot_workers=args.bot_workers,
                        bot_move_seconds=args.bot_move_timeout,
                        bot_queue=args.bot_queue, secure_cookies=args.secure_cookies,
                        bus_url=bus, lease_seconds=args.lease_seconds,
                        process_name=args.name, bus_secret=secret,
                        seek_countdown=args.seek_countdown, seek_bot_waits=bot_waits,
                        seek_per_address=args.seek_per_address,
                        seek_per_network=args.seek_per_network)


def _forwarded(value: str | None) -> tuple[str, ...]:
    """The trusted proxies of ``--forwarded-allow-ips`` (else ``$FORWARDED_ALLOW_IPS``;
    else none)."""
    import os

    text = value if value is not None else os.environ.get("FORWARDED_ALLOW_IPS", "")
    return tuple(x.strip() for x in text.split(",") if x.strip())


def _bus(args: argparse.Namespace) -> str:
    """The bus URL for ``--bus`` and ``--workers``: with several web processes and
    ``memory://``, a PostgreSQL database's own LISTEN/NOTIFY.

    Raises:
        CliError: not a bus URL, or several processes with nothing to join them.
    """
    from ..server.cluster.bus import BusError, backend_url

    try:
        backend_url(args.bus)
    except BusError as exc:
        raise CliError(f"--bus: {exc}") from None
    if not args.bus.startswith("memory:") or args.workers == 1:
        return str(args.bus)
    url = args.database_url or ""
    if url.startswith(("postgresql", "postgres:")):
        return str(url)
    raise CliError(f"--workers {args.workers}: several web processes need a bus to reach "
                   "each other; memory:// joins nothing. Give --bus redis://HOST or a "
                   "PostgreSQL --database-url (its LISTEN/NOTIFY is the bus)")


SECRET_ENV = "POLIGNAC_BUS_SECRET"


def _secret(args: argparse.Namespace, bus: str) -> str | None:
    """The bus secret: ``--bus-secret-file``, else ``$POLIGNAC_BUS_SECRET``, else (for
    ``--workers N`` on one machine) a new one; None for ``memory://``.

    Raises:
        CliError: the file cannot be read, the secret is too short, or a bus that
            leaves the process has none.
    """
    import os
    import secrets

    from ..server.cluster.bus import MIN_SECRET

    if bus.startswith("memory:"):
        return None
    if args.bus_secret_file is not None:
        try:
            secret = Path(args.bus_secret_file).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise CliError(f"--bus-secret-file {args.bus_secret_file}: {exc}") from None
        where = f"--bus-secret-file {args.bus_secret_file}"
    elif os.environ.get(SECRET_ENV):
        secret, where = os.environ[SECRET_ENV].strip(), f"${SECRET_ENV}"
    elif args.workers > 1:  # this machine's processes only: another machine's
        return secrets.token_urlsafe(32)  # messages are refused (give them one secret)
    else:
        raise CliError(f"--bus {_shown(bus)}: the web processes need a shared secret to "
                       f"sign the bus's messages: --bus-secret-file FILE or ${SECRET_ENV} "
                       f"(at least {MIN_SECRET} characters, the same on every machine)")
    if len(secret) < MIN_SECRET:
        raise CliError(f"{where}: the bus secret has {len(secret)} characters; give at "
                       f"least {MIN_SECRET}")
    return secret


def shown_url(host: str, port: int) -> str:
    """The URL to open: ``localhost`` for a loopback address (passkeys need a site's
    name: a browser refuses them on an IP address), else the address itself."""
    if host in ("127.0.0.1", "::1") or host.startswith("127."):
        return f"http://localhost:{port}/"
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def run_serve(args: argparse.Namespace) -> int:
    """Print the URL and serve until interrupted.

    Raises:
        CliError: as :func:`build_config`.
    """
    config = build_config(args)
    if args.schedule is not None:
        _schedule(config, args.schedule)
    import uvicorn

    from ..server.cluster.multiproc import log_to_stderr

    log_to_stderr()
    from ..server import create_app
    from ..server.tables.connections import uvicorn_options

    print(f"polignac: serving on {shown_url(args.host, args.port)}", flush=True)
    if args.host in ("0.0.0.0", "::") and not args.allowed_host:
        print("polignac: listening on every address, but only loopback host names are "
              "served: name yours with --allowed-host", flush=True)
    if args.workers == 1 and not config.clustered:  # type: ignore[attr-defined]
        uvicorn.run(create_app(config), host=args.host, port=args.port,  # type: ignore[arg-type]
                    log_level="info", **uvicorn_options(config))  # type: ignore[arg-type]
        return 0
    if args.workers == 1:  # one process of a cluster: connections handed to owners
        from ..server.cluster.multiproc import serve_one

        serve_one(config, create_app(config), args.host, args.port)  # type: ignore[arg-type]
        return 0
    from ..server.store.db import make_engine, migrate

    engine = make_engine(config.url())  # type: ignore[attr-defined]
    migrate(engine)  # once, before the processes start
    engine.dispose()
    print(f"polignac: {args.workers} web processes, bus {_shown(config.bus_url)}",  # type: ignore[attr-defined]
          flush=True)
    from ..server.cluster.multiproc import run_workers

    run_workers(config, args.host, args.port, args.workers)  # type: ignore[arg-type]
    return 0


def _schedule(config: object, path: Path) -> None:
    """Store the schedule file's entries before the server starts (once, whatever the
    number of processes).

    Raises:
        CliError: as ``schedules.read_file``, or the database cannot be opened.
    """
    from sqlalchemy.exc import SQLAlchemyError

    from ..server.store.db import make_engine, migrate
    from .schedules import sync_file

    url = config.url()  # type: ignore[attr-defined]
    try:
        if url.startswith("sqlite:///"):
            Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        engine = make_engine(url)
        try:
            migrate(engine)
            sync_file(engine, path, sys.stdout)
        finally:
            engine.dispose()
    except (SQLAlchemyError, OSError) as exc:
        raise CliError(f"--schedule {path}: the database: "
                       f"{str(exc).splitlines()[0][:200]}") from None


def _shown(url: str) -> str:
    """``url`` without its password."""
    import re

    return re.sub(r"//([^:/@]*):[^@/]*@", r"//\1:***@", url)
