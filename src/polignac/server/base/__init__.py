"""What every room of the server uses: settings, the clock, errors, input bounds. Imports nothing else of the server."""  # noqa: E501
