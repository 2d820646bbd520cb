"""What every room of the server uses: settings, the clock, errors, input bounds.

Settings (``config``), the one error style (``errors``), reading bodies and numbers
(``requests``, ``inputs``), tokens, cookies and Origin checks (``security``, ``seating``),
HTTP limits (``httplimits``), the loop's health (``health``), pages built from
``static/`` (``pages``), a session's browser in words (``agents``), Unicode skeletons
of names (``skeletons``).
Imports nothing else of the server: only the core, the bots, i18n and libraries.
"""
