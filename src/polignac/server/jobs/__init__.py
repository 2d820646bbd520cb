"""Work that must not run on the event loop: worker processes (``workers``), every
job they run (``jobs``), bot moves on a local pool (``botmoves``) or on Redis
workers anywhere (``botqueue``).

Imports only ``base`` and ``store`` of the server.
"""
