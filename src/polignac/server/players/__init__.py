"""People: accounts and sessions (``accounts``), passkeys and their challenges
(``passkeys``), finished matches' places and statistics (``results``), ratings
(``ratings``), what a profile, a leaderboard and an export read (``profiles``), rate
limits shared by every process (``ratelimits``).

Imports only ``base``, ``store`` and ``jobs`` of the server.
"""
