"""``python -m polignac``: the command line."""

from .cli.main import main

raise SystemExit(main())
