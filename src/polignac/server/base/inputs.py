"""Numbers a client sends as text: ASCII digits only, within bounds.

``str.isdigit()`` accepts ``"²"`` and other Unicode digits that ``int()`` then
refuses (or reads as another number), so every route parses numbers here.
"""

from __future__ import annotations

MAX_DIGITS = 18


def ascii_int(text: str | None, lo: int = 0, hi: int | None = None) -> int | None:
    """The number written in ``text`` with ASCII digits ``0-9`` only, if it lies in
    ``lo..hi`` (inclusive; no upper bound when ``hi`` is None); otherwise None.

    Never raises: a sign, a space, a Unicode digit, an empty or overlong text all
    give None.

    >>> ascii_int("12"), ascii_int("²"), ascii_int("-1"), ascii_int("7", hi=5)
    (12, None, None, None)
    """
    if not text or len(text) > MAX_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    value = int(text)
    if value < lo or (hi is not None and value > hi):
        return None
    return value
