"""Golden specs (hand-checked; see build.py)."""

from __future__ import annotations

from typing import Any

SPECS: dict[str, dict[str, Any]] = {}
