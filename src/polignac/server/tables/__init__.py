"""The tables of this process: ``GameTable`` and its collaborators (the driver of
bots and deals, the cut window, presence and grace, idleness, quick messages, seat
requests), what a table sends (``frames``), connections and their outboxes
(``connections``), a socket's session (``session``), the guided first deal
(``guide``), the hub that holds every table (``hub``) and who owns them (``solo``:
the hub is handed the cluster's ownership from above).

Imports only ``base``, ``store``, ``jobs`` and ``players`` of the server.
"""
