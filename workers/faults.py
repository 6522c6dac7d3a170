"""Fault injection for the crash tests: kill the worker at a named point.

``TABLERECORD_FAULT=<projection>:<point>:<how>`` with point ``before-commit``
or ``after-commit`` (of a projection batch) and how ``group`` (SIGKILL the
whole worker: main process, pool and beat) or ``child`` (SIGKILL only the
pool process running the task). With ``TABLERECORD_FAULT_ONCE=<path>`` the
fault fires once (the file marks that it did). Unset in production: a no-op.
"""

from __future__ import annotations

import os
import signal


def point(projection: str, where: str) -> None:
    spec = os.environ.get("TABLERECORD_FAULT")
    if not spec:
        return
    name, at, how = (spec.split(":") + ["", "", ""])[:3]
    if name != projection or at != where:
        return
    marker = os.environ.get("TABLERECORD_FAULT_ONCE")
    if marker:
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return
    if how == "group":
        os.killpg(os.getpgrp(), signal.SIGKILL)
    os.kill(os.getpid(), signal.SIGKILL)
