"""Tests of the web app (polignac.server)."""
