"""The web app: lobby, tables played over WebSockets, storage of every event.

``create_app(ServerConfig(...))`` returns a Starlette application; run it with
``polignac serve`` (see ``docs/server.md``).  The server only consumes the
rules core and the bots; nothing below it imports from here.  The modules live in
rooms by job (docs/architecture.md#the-servers-rooms); these two names are loaded
on first use, so that importing one room does not load the whole app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .base.config import ServerConfig
    from .web.app import create_app

__all__ = ["ServerConfig", "create_app"]


def __getattr__(name: str) -> Any:
    """``ServerConfig`` and ``create_app``, imported when first asked for.

    Raises:
        AttributeError: any other name.
    """
    if name == "ServerConfig":
        from .base.config import ServerConfig
        return ServerConfig
    if name == "create_app":
        from .web.app import create_app
        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
