"""Shared test configuration: Hypothesis profiles, and a check that ``tests`` is this
folder.

``ci`` (the default) is derandomized, so a run is reproducible and a failure
shows the same example again; ``dev`` explores new examples on each run:
``pytest --hypothesis-profile=dev``.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from hypothesis import HealthCheck, settings

_FOUND = importlib.util.find_spec("tests")
_WHERE = [] if _FOUND is None else list(_FOUND.submodule_search_locations or [])
if Path(__file__).parent.resolve() not in {Path(p).resolve() for p in _WHERE}:
    raise ImportError(  # else every `from tests.x import y` fails, far from the cause
        f"`import tests` finds {_WHERE}, not this folder: an installed package ships a "
        "top-level `tests` package (`pip show -f` names it); uninstall it or use another")

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci")
