"""``polignac serve --workers N``: N web processes sharing the listening socket.

uvicorn's own multi-process mode (its ``Multiprocess`` supervisor: it binds the
socket once, starts the processes, restarts one that dies) with the app built in
each process by :func:`polignac.server.web.app.app_from_env` from the configuration
in ``$POLIGNAC_SERVE_CONFIG``.  The processes find each other on the bus
(``cluster.py``), and a connection for a table another process owns is handed to
it as it arrives (``handoff.py``): each process serves its own tables' sockets.
One ``polignac serve`` of a cluster (``--bus``) runs the same server
(:func:`serve_one`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from typing import Any

import uvicorn
from uvicorn.supervisors import Multiprocess, multiprocess

from ..base.config import ServerConfig
from ..tables.connections import uvicorn_options
from . import handoff

ENV = "POLIGNAC_SERVE_CONFIG"


class WorkerConfig(uvicorn.Config):
    """uvicorn's config, which gets the server's own HTTP and WebSocket protocols
    (connections.py) in each process: those classes are made at run time and cannot
    travel to a new process, so each process makes its own."""

    def load(self) -> None:
        """uvicorn's load, then this server's protocols.

        Raises:
            KeyError: ``$POLIGNAC_SERVE_CONFIG`` is not set.
        """
        super().load()
        config = ServerConfig.from_json(os.environ[ENV])
        options = uvicorn_options(config)
        http = options["http"]
        self.http_protocol_class = handoff.routed(http) if config.clustered else http
        if not isinstance(options["ws"], str):
            self.ws_protocol_class = options["ws"]


class RoutedServer(uvicorn.Server):
    """uvicorn's server, which also serves the connections other processes of this
    machine hand over (``handoff.py``) once it listens, and stops taking them first
    when it stops."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's start, then take handed-over connections.

        Raises:
            SystemExit: the app's start failed (uvicorn's own).
        """
        await super().startup(sockets)
        here = handoff.current()
        if here is None or self.should_exit:
            return
        config, state = self.config, self.server_state

        def factory() -> asyncio.Protocol:
            protocol: asyncio.Protocol = config.http_protocol_class(  # type: ignore[call-arg]
                config=config, server_state=state, app_state=self.lifespan.state)
            return protocol

        try:
            here.listen(factory)
        except OSError:
            logging.getLogger("polignac.server").exception(
                "process %s: cannot take handed-over connections", here.process)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Take no more handed-over connections, then uvicorn's shutdown."""
        here = handoff.current()
        if here is not None:
            here.close()
        await super().shutdown(sockets)


class RoutedProcess(multiprocess.Process):
    """uvicorn's worker process, running a :class:`RoutedServer`."""

    @property
    def server(self) -> uvicorn.Server:
        """This process's server (made on first use)."""
        if self._server is None:
            self._server = RoutedServer(config=self.config)
        return self._server


def serve_one(config: ServerConfig, app: Any, host: str, port: int,
              log_level: str = "info") -> None:
    """Serve ``app`` (built from ``config``) on ``host:port`` in this process, with the
    hand-over of connections when ``config`` is a cluster's, until interrupted."""
    os.environ[ENV] = config.to_json()
    options: dict[str, Any] = {k: v for k, v in uvicorn_options(config).items()
                               if k not in ("http", "ws")}
    RoutedServer(WorkerConfig(app, host=host, port=port, log_level=log_level,
                              **options)).run()


def run_workers(config: ServerConfig, host: str, port: int, workers: int,
                log_level: str = "info") -> None:
    """Serve ``config`` on ``host:port`` with ``workers`` processes until interrupted."""
    os.environ[ENV] = config.to_json()
    options: dict[str, Any] = {k: v for k, v in uvicorn_options(config).items()
                               if k not in ("http", "ws")}
    # each process imports the app before it answers the supervisor's pings: on a busy
    # machine that takes more than uvicorn's 5 s, after which it would kill them
    uv = WorkerConfig("polignac.server.web.app:app_from_env", factory=True, workers=workers,
                      host=host, port=port, log_level=log_level,
                      timeout_worker_healthcheck=60, **options)
    sock = uv.bind_socket()
    multiprocess.Process = RoutedProcess  # type: ignore[misc]  # uvicorn makes its own
    try:
        Multiprocess(uv, sockets=[sock]).run()
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()


def log_to_stderr() -> None:
    """Show the server's own log lines (``polignac.*``, INFO and up: which process owns
    which table, tables leaving memory) on stderr, as uvicorn shows its own."""
    logger = logging.getLogger("polignac")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:     %(asctime)s %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
