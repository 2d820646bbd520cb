"""``polignac serve --workers N``: N web processes sharing the listening socket.

uvicorn's own multi-process mode (its ``Multiprocess`` supervisor: it binds the
socket once, starts the processes, restarts one that dies) with the app built in
each process by :func:`polignac.server.app.app_from_env` from the configuration
in ``$POLIGNAC_SERVE_CONFIG``.  The processes find each other on the bus
(``cluster.py``).
"""

from __future__ import annotations

import logging
import os
from typing import Any

import uvicorn
from uvicorn.supervisors import Multiprocess

from .config import ServerConfig
from .connections import uvicorn_options

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
        options = uvicorn_options(ServerConfig.from_json(os.environ[ENV]))
        self.http_protocol_class = options["http"]
        if not isinstance(options["ws"], str):
            self.ws_protocol_class = options["ws"]


def run_workers(config: ServerConfig, host: str, port: int, workers: int,
                log_level: str = "info") -> None:
    """Serve ``config`` on ``host:port`` with ``workers`` processes until interrupted."""
    os.environ[ENV] = config.to_json()
    options: dict[str, Any] = {k: v for k, v in uvicorn_options(config).items()
                               if k not in ("http", "ws")}
    uv = WorkerConfig("polignac.server.app:app_from_env", factory=True, workers=workers,
                      host=host, port=port, log_level=log_level, **options)
    sock = uv.bind_socket()
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
