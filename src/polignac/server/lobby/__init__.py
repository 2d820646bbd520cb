"""Bringing people together: Find players' requests (``seeks``) and the
matchmaker that seats them (``matchmaker``).

Imports any room below it: ``base``, ``store``, ``jobs``, ``players``, ``tables``,
``cluster``.
"""
