"""Who is told after events commit (for example: wake the projection runners).

An entry point registers its listeners on the ``Records`` it builds; the unit
of work calls them once its transaction has committed. A listener must be
quick and must never fail the write: delivery to the workers does not depend
on it, since the runners also wake on a timer and read the log from their
checkpoint.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

Listener = Callable[[int], None]  # receives the highest position committed

#: The message that wakes the projection runners, and the queue it goes to.
WAKE_TASK = "tablerecord.wake"
QUEUE = "tablerecord"


def publish(listeners: list[Listener], position: int) -> None:
    for listener in listeners:
        try:
            listener(position)
        except Exception:  # noqa: BLE001 - a listener never fails a committed write
            log.warning("commit listener failed", exc_info=True)
