"""Domain errors: what went wrong, with a stable ``code``, never an HTTP status.

Each entry point maps the classes to its own answers (``service/api/problems.py``
turns them into problem+json). An engine's ``RuleViolation`` passes through
the domain unchanged.
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """A refusal: stable ``code``, a sentence for people, and any extra fields."""

    def __init__(self, code: str, detail: str, **extra: Any):
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra


class NotFound(DomainError):
    """No such thing, or not visible to the caller (nothing is learnt)."""

    def __init__(self, what: str, detail: str | None = None):
        super().__init__("not-found", detail or f"No such {what}.")


class Unauthenticated(DomainError):
    """No credentials where some are needed, or credentials that are not valid."""


class Forbidden(DomainError):
    """The caller is known but may not do this."""


class Conflict(DomainError):
    """The request clashes with the record's current state."""


class Invalid(DomainError):
    """The request is well formed for the transport but not for the record."""


class Busy(DomainError):
    """A lock was not granted in time; nothing was stored, a retry may work."""


class TooMany(DomainError):
    """This client already has as much under way as it may (an import or a
    restore of its address still running): nothing was stored; retry later."""


class GameMoved(Exception):
    """A write decided on a state the game had already moved past: nothing
    was stored. Never answered to a client: the writer redoes it under the
    game's lock (``acting.act``)."""


class Unavailable(DomainError):
    """The database is down, restarting or out of connections. A write that
    met this was rolled back, unless the connection broke during its COMMIT:
    a retry with the same Idempotency-Key is safe either way."""


class ProjectionBehind(DomainError):
    """A projection has not yet applied the position a reader waits for."""

    def __init__(self, projection: str, position: int, wanted: int, shown: bool = True):
        super().__init__(
            "projection-behind",
            f"The {projection} projection has applied the log up to position {position}, "
            f"not yet {wanted}; retry shortly."
            if shown
            else f"The {projection} projection has not yet caught up with this game; retry shortly.",
        )
        #: ``shown``: the caller may see log positions (``access.may_see_positions``).
        self.projection, self.position, self.wanted, self.shown = projection, position, wanted, shown
