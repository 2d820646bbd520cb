"""Bots and search: they see only a :class:`~polignac.bots.base.SeatView`."""

from .base import Bot, SeatView

__all__ = ["Bot", "SeatView"]
