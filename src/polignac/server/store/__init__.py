"""The database: the whole schema (``schema``), the engine, the migrations and the
queries of tables, seats and events (``db``), group commit (``writer``), the
commitment log (``commitments``), the ids (``ids``).

Imports only ``base`` of the server.
"""
