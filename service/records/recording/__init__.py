"""Recording a game: creating it (``creation``), acting on it (``acting``: shape,
then rules, then one append through the ``unit_of_work``), the recorder's
corrections (``recorder``, ``late_entries``), a play logged by its result
alone (``results``), and the game row and state they act on (``games``,
``states``), with the shape checks (``commands``), idempotency keys, copies of a
card and the catalog's words. It may import the log, the club and the shared
modules, nothing above.
"""
