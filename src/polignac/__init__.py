"""polignac: Polignac and its family of trick-avoidance card games.

Layers, each importing only those below it:

- ``polignac.core``: cards, rules and presets, deals, matches, records (pure, no I/O);
- ``polignac.bots``: bots and search;
- ``polignac.cli``, ``polignac.server``, ``polignac.research``: the interfaces.

``from polignac import *`` gives the core's public API.
"""

from .core import *  # noqa: F403
from .core import __all__ as _core_all

__version__ = "0.1.0"
__all__ = [*_core_all, "__version__"]
