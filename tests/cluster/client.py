"""A plain HTTP client for the cluster's API hosts (no pooling: every request
its own connection, as a client that fails over between hosts would use)."""

from __future__ import annotations

import http.client
import json
import time
from typing import Any


class Unreachable(Exception):
    """The host did not answer (refused, reset, timed out)."""


def call(
    host: str,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    timeout: float = 10.0,
    **headers: str,
) -> tuple[int, dict[str, str], Any]:
    connection = http.client.HTTPConnection(host, 8000, timeout=timeout)
    sent = {"Content-Type": "application/json", **{k.replace("_", "-"): v for k, v in headers.items()}}
    if token:
        sent["Authorization"] = f"Bearer {token}"
    try:
        connection.request(method, path, body=None if body is None else json.dumps(body), headers=sent)
        response = connection.getresponse()
        raw = response.read()
        return response.status, dict(response.getheaders()), (json.loads(raw) if raw else None)
    except (OSError, http.client.HTTPException) as failed:
        raise Unreachable(str(failed)) from failed
    finally:
        connection.close()


def ok(host: str, method: str, path: str, body: Any = None, token: str | None = None, **headers: str) -> Any:
    status, _, answer = call(host, method, path, body, token, **headers)
    assert status in (200, 201), (status, answer)
    return answer


def until_answered(
    hosts: list[str], method: str, path: str, body: Any, token: str, key: str, give_up: float = 60.0
) -> tuple[int, Any, float]:
    """Send under ``key`` to the first host, and on no answer (or a 5xx) to the
    next, round and round, until a host answers: (status, body, seconds from
    the first failure to the answer, 0 if none failed)."""
    started, failed_at, i, in_use = time.monotonic(), None, 0, False
    while time.monotonic() - started < give_up:
        host = hosts[i % len(hosts)]
        try:
            status, _, answer = call(host, method, path, body, token, timeout=5, Idempotency_Key=key)
            # A claim left by a request that died with its host is in use until it
            # is taken over: the service says to retry (409 idempotency-key-in-use).
            in_use = status == 409 and (answer or {}).get("code") == "idempotency-key-in-use"
            if status < 500 and not in_use:
                return status, answer, (time.monotonic() - failed_at) if failed_at else 0.0
        except Unreachable:
            pass
        failed_at = failed_at or time.monotonic()
        i += 1
        time.sleep(0.5 if in_use else 0.05)
    raise AssertionError(f"no host answered {method} {path} within {give_up} s")
