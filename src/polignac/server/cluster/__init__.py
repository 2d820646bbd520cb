"""Several processes: the bus (``bus``), the other processes (``peers``), table
leases (``leases``), a connection handed to its owner (``handoff``), requests
forwarded over the bus (``relay``), this process's part (``cluster``) and
``--workers N`` (``multiproc``).

Imports only ``base``, ``store``, ``jobs``, ``players`` and ``tables`` of the server.
"""
