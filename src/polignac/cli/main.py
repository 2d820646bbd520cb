"""Entry point of the ``polignac`` command."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = argparse.ArgumentParser(prog="polignac")
    parser.parse_args(argv)
    parser.print_help(sys.stdout)
    return 0
