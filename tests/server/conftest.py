"""Fixtures: an app on a fresh SQLite database, bots without delay, and a real
PostgreSQL server for the tests marked ``postgres``.

The PostgreSQL cluster is a throwaway one: ``initdb`` into a temporary folder
and ``pg_ctl start`` on a free port of 127.0.0.1, once per session, stopped at
the end.  Root may not run PostgreSQL, so as root it runs as the ``postgres``
user through ``runuser``.  Without the binaries the postgres tests fail under
CI (``CI=true``) and are skipped elsewhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

from starlette.testclient import TestClient  # noqa: E402

from polignac.server import ServerConfig, create_app  # noqa: E402
from polignac.server.jobs.botmoves import PoolBackend  # noqa: E402

from .waiting import wait_until  # noqa: E402

FAST = {"bot_delay": 0.0, "deal_delay": 0.0, "cut_window": 0.0, "rate_per_second": 10000,
        "rate_burst": 10000, "create_burst": 10000, "trick_pause": 0.0,
        "allowed_hosts": ("testserver",)}  # the Host of Starlette's TestClient


@pytest.fixture
def config(tmp_path: Path) -> ServerConfig:
    """A config on a fresh data folder, with bots and dealer acting at once."""
    return ServerConfig(data_dir=tmp_path / "data", **FAST)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def bot_backend() -> Iterator[PoolBackend]:
    """One pool of bot workers for the session's apps (starting one takes seconds)."""
    backend = PoolBackend.local(2, move_seconds=60.0)
    yield backend
    asyncio.run(backend.stop())


@pytest.fixture
def client(config: ServerConfig, bot_backend: PoolBackend) -> Iterator[TestClient]:
    """A test client with the app started (lifespan run), its bots in the shared pool."""
    with TestClient(create_app(config, bot_backend), base_url="http://testserver") as c:
        yield c


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _pg_bin() -> Path | None:
    """The folder of PostgreSQL's server programs (newest version), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    which = shutil.which("pg_ctl")
    return Path(which).parent if which and shutil.which("initdb") else None


class PgServer:
    """A throwaway PostgreSQL cluster on 127.0.0.1 (superuser ``polignac``, trust auth)."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="polignac-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            if not shutil.which("runuser"):
                raise RuntimeError("running as root without runuser: cannot start PostgreSQL")
            shutil.chown(self.root, "postgres")
            self.prefix = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str, timeout: float = 60) -> None:
        subprocess.run([*self.prefix, *args], check=True, timeout=timeout,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def start(self) -> None:
        """initdb + pg_ctl start.

        Raises:
            subprocess.CalledProcessError, subprocess.TimeoutExpired: it did not start.
        """
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "polignac",
                  "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C")
        options = (f"-h 127.0.0.1 -p {self.port} -k {self.root} -c fsync=off "
                   "-c full_page_writes=off -c max_connections=200")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-w",
                  "-t", "30", "-l", str(self.root / "log"), "start")

    def stop(self) -> None:
        """pg_ctl stop (immediate) and remove the cluster's folder."""
        with contextlib.suppress(subprocess.CalledProcessError, subprocess.TimeoutExpired):
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                      "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of ``database``."""
        return f"postgresql+psycopg://polignac@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """Create an empty database; return its URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=polignac dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A PostgreSQL server for the session.

    Fails (under CI=true) or skips when PostgreSQL is not installed.
    """
    bin_dir = _pg_bin()
    if bin_dir is None:
        message = ("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/pg_ctl): "
                   "run `python3 dev.py test` as root, or apt-get install postgresql")
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    server = PgServer(bin_dir)
    try:
        server.start()
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, RuntimeError,
            OSError) as exc:
        server.stop()
        output = getattr(exc, "output", b"") or b""
        pytest.fail(f"could not start PostgreSQL: {exc}\n{output.decode(errors='replace')}")
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh empty database on each backend: SQLite, then a real PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'data' / 'polignac.db'}"
    server: PgServer = request.getfixturevalue("pg_server")
    return server.new_database()


@pytest.fixture
def backend_config(database_url: str, tmp_path: Path) -> ServerConfig:
    """As ``config``, on each backend in turn."""
    return ServerConfig(data_dir=tmp_path / "data", database_url=database_url,
                        **FAST)  # type: ignore[arg-type]


class RedisServer:
    """A throwaway ``redis-server`` on 127.0.0.1 (no persistence, its own folder)."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.root = Path(tempfile.mkdtemp(prefix="polignac-redis-"))
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it and wait until it answers PING.

        Raises:
            RuntimeError: it exited or did not answer within 20 seconds.
        """
        self.process = subprocess.Popen(
            [self.binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", str(self.root), "--protected-mode", "yes"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        process = self.process

        def pong() -> bool:
            if process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {process.returncode}")
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")

        try:
            wait_until(pong, 20, what="redis-server to answer PING", interval=0.05,
                       ignoring=(OSError,))
        except AssertionError as exc:
            raise RuntimeError(str(exc)) from None

    def stop(self) -> None:
        """Kill it and remove its folder."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, db: int = 0) -> str:
        """The ``redis://`` URL of database ``db`` (0-15)."""
        return f"redis://127.0.0.1:{self.port}/{db}"


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A Redis server for the session (tests marked ``redis``).

    Fails (under CI=true) or skips when ``redis-server`` is not installed.
    """
    binary = shutil.which("redis-server")
    if binary is None:
        message = ("redis-server is not installed: run `python3 dev.py test` as root, or "
                   "apt-get install redis-server")
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    server = RedisServer(binary)
    try:
        server.start()
    except (RuntimeError, OSError) as exc:
        server.stop()
        pytest.fail(f"could not start redis-server: {exc}")
    yield server
    server.stop()
