"""Shared test configuration: Hypothesis profiles.

``ci`` (the default) is derandomized, so a run is reproducible and a failure
shows the same example again; ``dev`` explores new examples on each run:
``pytest --hypothesis-profile=dev``.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

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
