"""Listeners told after events commit (for example: wake the projection runners).

A listener must be quick and must never fail the request: delivery to the
workers does not depend on it, since the runners also wake on a timer and
read the log from their checkpoint.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import current_app

Listener = Callable[[int], None]  # receives the highest position committed


def add_listener(app, listener: Listener) -> None:
    app.extensions.setdefault("tablerecord.listeners", []).append(listener)


def events_committed(position: int) -> None:
    for listener in current_app.extensions.get("tablerecord.listeners", []):
        try:
            listener(position)
        except Exception:  # noqa: BLE001 - a listener never fails a committed write
            current_app.logger.warning("commit listener failed", exc_info=True)
