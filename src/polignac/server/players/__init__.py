"""People: accounts and sessions (``accounts``), passkeys and their challenges
(``passkeys``), finished matches' places and statistics (``results``), ratings
(``ratings``), what a profile, a leaderboard and an export read (``profiles``), rate
limits shared by every process (``ratelimits``), the Argon2 line shared fairly by
client networks (``hashing``), names that pass for an account's (``names``).

Imports only ``base``, ``store`` and ``jobs`` of the server.
"""
