"""Events that gather players: arena tournaments for tables of N (issue 34).

The pure heart: who sits with whom (``pairing``), the points of a finished match and
the standings (``scoring``), a tournament's settings and states (``tournament``); and
their storage (``store``). docs/events.md says the rules for players.

Imports any room below it: ``base``, ``store``, ``jobs``, ``players``, ``tables``,
``cluster``, ``lobby``.
"""
