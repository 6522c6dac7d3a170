"""How many history imports and restores run at once: one per client address
and a few in all (in each API process).

An import or a restore reads, replays and judges a whole file: seconds of a
thread and of a database connection. A request past either bound is refused
at once, never queued (a queued request would hold a thread as well):
``429 imports-running`` to an address that has one running, ``503
imports-busy`` when the process runs as many as it takes. Both say when to
retry. A streamed answer keeps its place until the answer is closed, when
its work has stopped (``service.api.history``).
"""

from __future__ import annotations

import functools
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

from flask import Response

from service.api.problems import TITLES, problem_response
from service.auth import client_address

#: Seconds a refused import is told to wait before it tries again.
RETRY_AFTER = 10


class Admission:
    def __init__(self, at_once: int, per_address: int):
        self.at_once, self.per_address = at_once, per_address
        self._lock = threading.Lock()
        self._running: Counter[str] = Counter()

    def _enter(self, address: str) -> Response | None:
        """None when admitted; else the refusal."""
        with self._lock:
            if self._running[address] >= self.per_address:
                return _refusal(
                    429,
                    "imports-running",
                    "An import or restore sent from this address is still running: wait for its answer.",
                )
            if self._running.total() >= self.at_once:
                return _refusal(
                    503, "imports-busy", "The service is running as many imports and restores as it takes."
                )
            self._running[address] += 1
        return None

    def _leave(self, address: str) -> None:
        with self._lock:
            self._running[address] -= 1
            if not self._running[address]:
                del self._running[address]

    def guard(self, view: Callable[..., Any]) -> Callable[..., Any]:
        """``view``, run only when admitted; a streamed answer keeps its place until it is closed."""

        @functools.wraps(view)
        def admitted(*args: Any, **kwargs: Any) -> Any:
            address = client_address()
            refused = self._enter(address)
            if refused is not None:
                return refused
            try:
                response = view(*args, **kwargs)
            except BaseException:
                self._leave(address)
                raise
            if isinstance(response, Response) and response.is_streamed:
                response.call_on_close(lambda: self._leave(address))
            else:
                self._leave(address)
            return response

        return admitted


def _refusal(status: int, code: str, detail: str) -> Response:
    return problem_response(status, code, TITLES[status], detail, {"Retry-After": str(RETRY_AFTER)})
