"""The HTTP API: the routes (``routes/``, one blueprint per resource) and what
every route shares: its Flask (``framework``), its blueprint and request helpers
(``common``), body limits (``bodies``), conditional requests (``conditional``:
ETags, If-Match, Log-Position), one problem+json handler per domain error
(``problems``) and the wake-up sender to the workers (``wake``)."""
