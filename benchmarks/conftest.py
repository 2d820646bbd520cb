"""Benchmarks are not tests: keep pytest out of this folder even when it is named.

pytest's ``testpaths`` is ``tests/``; this also covers ``pytest .`` and
``pytest benchmarks`` (with ``--doctest-modules`` and ``--doctest-glob='*.md'``).
"""

collect_ignore_glob = ["*"]
