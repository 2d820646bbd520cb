"""The web app: lobby, tables played over WebSockets, storage of every event.

``create_app(ServerConfig(...))`` returns a Starlette application; run it with
``polignac serve`` (see ``docs/server.md``).  The server only consumes the
rules core and the bots; nothing below it imports from here.
"""

from .base.config import ServerConfig
from .web.app import create_app

__all__ = ["ServerConfig", "create_app"]
