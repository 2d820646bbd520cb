"""The command line interface (an interface layer: uses the core and the bots)."""
