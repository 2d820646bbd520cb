"""Server settings, with the defaults of ``polignac serve``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from .clock import SYSTEM, Clock

MAX_FRAME: int = 64 * 1024
"""Largest WebSocket frame accepted, in bytes."""


@dataclass(frozen=True)
class ServerConfig:
    """Everything the app needs to know about where it runs.

    ``database_url`` wins over ``data_dir`` (SQLite at ``data_dir/polignac.db``).
    ``allowed_origins`` are accepted besides the page's own origin; a
    WebSocket or POST with any other ``Origin`` header is refused.
    """

    data_dir: Path = Path("polignac-data")
    database_url: str | None = None
    allowed_origins: tuple[str, ...] = ()
    bot_delay: float = 0.7
    """Seconds a bot waits before acting, so that humans can follow."""
    trick_pause: float = 1.5
    """Seconds added to a bot's wait after a trick is complete, so that people see the
    trick before a bot leads the next one; the table page holds a finished trick as long."""
    deal_delay: float = 2.5
    """Seconds between the end of a deal and the next deal."""
    cut_window: float = 2.0
    """Seconds the first deal waits for the seated people's cuts (it deals as soon as
    all have cut); later deals take cuts during ``deal_delay``."""
    secure_cookies: bool = False
    """Set the Secure flag on seat cookies (behind HTTPS)."""
    rate_per_second: float = 10.0
    rate_burst: int = 30
    max_frame: int = MAX_FRAME
    max_missed_events: int = 200
    """A client further behind than this gets a full state instead of the events."""
    bot_levels: tuple[str, ...] = field(default=("random", "easy", "medium", "hard", "expert"))
    """Levels a table's bots may have (what the API accepts)."""
    grace_seconds: float = 30.0
    """Seconds a human seat may stay without a connection before a bot plays for it."""
    standin_level: str = "medium"
    """Level of the bot that plays for an absent human after the grace period."""
    fill_level: str = "easy"
    """Level of the bots that take the open seats when the creator presses Start now."""
    # --- seats and tables (docs/server.md, "Seats" and "Tables that nobody plays")
    create_per_minute: float = 6.0
    """Tables each address, and each browser, may create a minute (after the burst)."""
    create_burst: int = 12
    """Tables each address, and each browser, may create at once."""
    max_tables: int = 1000
    """Tables in memory at most (server-wide); creating one more answers 429."""
    max_take_requests: int = 3
    """Requests to take a bot's seat waiting for the creator's answer, per table."""
    take_per_address: int = 2
    """Requests to take a bot's seat waiting at one table from one client address."""
    take_cooldown_seconds: float = 120.0
    """Seconds a refused browser waits before asking for a seat at that table again."""
    take_per_minute: float = 6.0
    """Requests for a seat each address, and each browser, may send a minute (server-wide,
    after the burst)."""
    take_burst: int = 6
    """Requests for a seat each address, and each browser, may send at once."""
    close_seconds: float = 3600.0
    """Seconds a paused table (nobody at it) stays in memory before it is closed."""
    finished_keep_seconds: float = 600.0
    """Seconds a finished table stays in memory (its record stays in the database)."""
    waiting_keep_seconds: float = 60.0
    """Seconds a correspondence table waiting for a person's move, with nobody at it,
    stays in memory; then it is kept in the database only (docs/server.md, "Games
    across days")."""
    sweep_seconds: float = 300.0
    """How often the hub looks in the database for stored tables whose clock runs out
    within ``load_ahead_seconds`` (and loads them, so that the clock is kept)."""
    load_ahead_seconds: float = 4 * 3600.0
    """A stored table whose running clock ends later than this from now is not loaded
    at start (only correspondence clocks run that long): the sweep loads it in time."""
    # --- heavy work off the event loop (docs/server.md, "Heavy requests")
    workers: int = 2
    """Worker processes for replays and score pads (started on the first such request)."""
    job_seconds: float = 10.0
    """Seconds one job may run in a worker before it is killed (answer 503 job-timeout)."""
    hint_seconds: float = 30.0
    """Seconds one hint's job may run in a worker before it is killed (``POST
    /tables/{id}/hint`` answers 503 job-timeout)."""
    worker_memory_mb: int = 1024
    """Address space of each worker process, in MiB (0: no cap)."""
    warm_workers: bool = False
    """Start the worker processes with the server (``polignac serve`` does), not on the
    first heavy request."""
    lag_warn_ms: float = 100.0
    """Event loop lag logged as a warning above this many milliseconds (``/health``)."""
    freeze_at_start: bool = False
    """Move the objects the process holds when the app starts (its modules, classes and
    functions, the app) out of the garbage collector's scans (``gc.freeze``;
    ``polignac serve`` does). A full collection stops the event loop for as long as
    it scans: at 500 tables and 2,000 sockets, 370 ms before, about 210 ms after
    (benchmarks/README.md). Off by default: a process that makes many apps (the
    tests) would keep each one's objects for good."""
    # --- Web Push (docs/server.md, "Notifications": players/push.py)
    push_contact: str = "mailto:polignac@localhost"
    """The VAPID ``sub`` claim: how a push service reaches the site's operator
    (``mailto:`` or ``https:``; ``polignac serve --push-contact``)."""
    push_local_endpoints: bool = False
    """Accept push endpoints on loopback addresses over plain HTTP (a local receiver,
    for tests and benchmarks); otherwise an endpoint is HTTPS to a public address."""
    push_queue: int = 1000
    """Notifications waiting to be sent at most; more are dropped (and counted)."""
    # --- connections (docs/server.md, "Security choices": connections.py)
    allowed_hosts: tuple[str, ...] = ("localhost", "127.0.0.1", "[::1]")
    """``Host`` header values served: ``name:port``, ``name`` (any port), ``*.domain``
    or ``*``; others get 400 ``bad-host`` (``polignac serve`` sets the bound host and
    the loopback names with its port)."""
    max_connections_per_client: int = 16
    """Open WebSockets per client address; one more is refused (HTTP 429 at the
    handshake)."""
    max_queued_frames: int = 400
    """Frames waiting for a WebSocket client that does not read; one more closes it."""
    max_queued_bytes: int = 2 * 1024 * 1024
    """Bytes of frames waiting for such a client; one more closes it."""
    hello_timeout: float = 15.0
    """Seconds a new WebSocket has to send its ``hello`` before it is closed (4408)."""
    header_timeout: float = 10.0
    """Seconds a request's line and headers have to arrive (uvicorn, connections.py)."""
    max_header_bytes: int = 64 * 1024
    """Bytes of a request's line and headers at most (431 beyond)."""
    keep_alive_timeout: int = 5
    """Seconds an idle kept-alive HTTP connection stays open (uvicorn)."""
    ws_ping_interval: float = 20.0
    """Seconds between WebSocket pings (uvicorn; the browser answers by itself)."""
    ws_ping_timeout: float = 20.0
    """Seconds to wait for the pong before the connection is closed."""
    close_linger: float = 5.0
    """Seconds a closed WebSocket may take to deliver what it still had to send
    before it is cut."""
    max_requests_per_client: int = 16
    """HTTP requests of one client address in the app at once; more wait for a place
    (``request_queue``), and one more than that is answered 429
    ``too-many-requests`` (httplimits.py)."""
    request_queue: int = 64
    """HTTP requests of one client address that may wait for a place when it has
    ``max_requests_per_client`` in the app (a page's burst of scripts, several
    browsers behind one address); 0: refuse at once."""
    request_wait: float = 10.0
    """Seconds a request may wait for a place before it is answered 429."""
    write_timeout: float = 10.0
    """Seconds an HTTP answer may wait for a client that does not read (the send
    buffers full) before the connection is cut (httplimits.py; 0: never)."""
    forwarded_allow_ips: tuple[str, ...] = ()
    """Proxies (addresses, networks, ``*``) whose ``X-Forwarded-For`` gives the
    client's address; none by default (each client is the socket's peer)."""
    # --- bot moves in worker processes (docs/server.md, "Bot moves")
    shown_levels: tuple[str, ...] = field(default=("easy", "medium", "hard"))
    """Levels the lobby and Play now offer (``GET /api/presets``); ``random`` and
    ``expert`` stay in ``bot_levels`` for tests and research (``expert`` is not shown
    until it is measured stronger than ``hard``: docs/bots.md, "expert against hard")."""
    play_now_level: str = "medium"
    """Level of Play now's bots when the request names none."""
    bot_workers: int | None = None
    """Worker processes for bot moves (None: one per CPU), a pool of their own."""
    bot_move_seconds: float = 5.0
    """Seconds one bot move may run before the next cheaper level plays instead."""
    bot_queue: str | None = None
    """``redis://...``: bot moves go to ``polignac bot-worker`` processes through this
    Redis (``polignac serve --bot-queue``; docs/deploy.md); None: the local pool."""

    # --- Arenas (docs/events.md: events/runner.py)
    arena_tick: float = 2.0
    """Seconds (the server's clock) between two rounds of the arena runner: pairing the
    waiting players, recording the matches that ended."""
    schedule_tick: float = 60.0
    """Seconds (the server's clock) between two looks at the clubs' schedules, which
    create each occurrence as a tournament a day ahead (events/planner.py)."""

    # --- Find players (docs/server.md, "Find players": seeks.py)
    seek_tick: float = 1.0
    """Seconds between two rounds of each process's matchmaker."""
    seek_countdown: float = 5.0
    """Seconds between a group's forming and its table (a member may still leave;
    ``polignac serve --seek-countdown``)."""
    seek_bot_waits: tuple[int, ...] = (30, 60, 120)
    """The waits (seconds, ascending) a request may choose before bots fill its empty
    seats, besides never (``polignac serve --seek-bot-waits``)."""
    seek_stale: float = 20.0
    """Seconds a request lives without its page asking how it goes (every 2 s)."""
    seek_lifetime: float = 600.0
    """Seconds a request lives at most."""
    online_window: float = 15.0
    """Seconds a browser counts as online after its last lobby poll or table connection."""
    max_seeks: int = 1000
    """Live requests at most (server-wide: those whose page asked within
    ``seek_stale``); one more first pushes out the oldest live request whose page never
    asked, else answers 429 ``too-many-seeks``."""
    seek_per_address: int = 5
    """Live requests at most from one client address (429 ``too-many-seeks``)."""
    seek_per_network: int = 20
    """Live requests at most from one network: a /24 of IPv4, a /64 of IPv6
    (``httplimits.py:client_network``; 429 ``too-many-seeks``)."""

    # --- several processes (docs/server.md, "Several processes": cluster.py)
    bus_url: str = "memory://"
    """The bus between server processes: ``memory://`` (one process: no leases, no
    forwarding), ``redis://...`` or ``postgresql://...`` (LISTEN/NOTIFY)."""
    lease_seconds: float = 5.0
    """Seconds a table's lease lasts unless renewed (renewed every third of it): a
    dead process's tables are taken over within about this long."""
    process_name: str | None = None
    """This process's name in the logs and leases (default: the host name)."""
    clock: Clock = field(default=SYSTEM, compare=False, repr=False)
    """The one clock every timer of the server reads and waits on (``base/clock.py``):
    the system's, or a test's ``ManualClock``. Not part of :meth:`to_json`."""
    bus_secret: str | None = None
    """The secret every process of the site shares: each bus message is signed with
    it, and one that is not is refused (bus.py).  Needed when ``bus_url`` leaves the
    process; ``polignac serve --workers N`` makes one when none is given."""

    @property
    def clustered(self) -> bool:
        """True when the bus reaches other processes (leases and forwarding on)."""
        return not self.bus_url.startswith("memory:")

    def to_json(self) -> str:
        """This configuration as JSON (:meth:`from_json` reads it back)."""
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "clock"}
        data["data_dir"] = str(self.data_dir)
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str) -> ServerConfig:
        """The configuration :meth:`to_json` wrote.

        Raises:
            ValueError, TypeError: not such a JSON text.
        """
        data: dict[str, Any] = json.loads(text)
        data["data_dir"] = Path(data["data_dir"])
        values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v
                                  for k, v in data.items()}
        return cls(**values)

    def url(self) -> str:
        """The SQLAlchemy URL of the database."""
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'polignac.db').resolve()}"
