"""The event streams: a small async process beside the API that holds every
open stream (server-sent events of a game or a club) on one event loop, so
that idle readers hold sockets, not the API's request threads.

``feeds`` fans each commit out to the readers of this process (woken by
PostgreSQL's notices, reading the log itself); ``app`` is the HTTP side.
It asks the domain (``service.records.reading.streams``) what each reader may
see, as every other entry point does. Run: ``python -m service.streams``.
"""
