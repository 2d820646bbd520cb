"""The ids the server hands out and reads back: what a table id looks like."""

from __future__ import annotations

import re

TABLE_ID = re.compile(r"[A-Za-z0-9_\-]{1,32}")
"""What a table id looks like (anything else is no table, without asking the database)."""
