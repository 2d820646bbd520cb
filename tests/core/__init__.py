"""Tests of the rules core (a package, so that test module names stay unique)."""
