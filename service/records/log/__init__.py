"""The log: the append-only event store in PostgreSQL and what keeps it.

Owns the events and snapshots tables' reads and appends (``store``), a game's
state as the fold of its live events (``fold``), the connection pool and its
transactions (``db``), the schema's migrations (``migrate``, ``migrations/``),
the after-commit listeners (``notify``, ``context``), the database's notices of
each append to the stream processes (``notices``) and the count of the
workers' deliveries (``deliveries``). It imports no other room: of the domain,
only ``service.records.errors``; everything above may import it.
"""
