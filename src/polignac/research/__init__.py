"""Research interfaces: OpenSpiel games, PettingZoo environments, outside bots.

Needs the ``research`` extra (``pip install polignac[research]``).  The core
never imports this package.

- :mod:`polignac.research.openspiel_game`: every preset as the OpenSpiel game
  ``python_polignac`` (importing it registers the game);
- :mod:`polignac.research.pettingzoo_env`: a native PettingZoo AEC environment;
- :mod:`polignac.research.ismcts`: OpenSpiel's ISMCTS as a polignac bot;
- :mod:`polignac.research.encoding`: the tensor layouts and returns they share.
"""
