"""The API as `make run` serves it (``service.run.api_command``), in a
subprocess on a free loopback port, for tests that need a real server."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

from service.run import api_command
from tests.conftest import ROOT


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ApiServer:
    def __init__(self, database_url: str, log: Path, threads: int = 4, **env: str):
        self.port = free_port()
        self.log = log
        environment = {**os.environ, "DATABASE_URL": database_url, "RATE_LIMIT_ENABLED": "0", **env}
        environment.pop("CELERY_BROKER_URL", None)
        with open(log, "wb") as out:
            self.proc = subprocess.Popen(
                api_command("127.0.0.1", self.port, threads=threads),
                env=environment,
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError):
                if self.request("GET", "/health", timeout=2)[0] == 200:
                    return
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise AssertionError(f"the API did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)

    def request(
        self, method: str, path: str, body: Any = None, token: str | None = None, timeout: float = 10.0
    ) -> tuple[int, dict[str, str], Any, float]:
        """(status, headers, parsed body, seconds taken)."""
        started = time.monotonic()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
            response = connection.getresponse()
            raw = response.read()
            parsed = json.loads(raw) if raw else None
            return response.status, dict(response.getheaders()), parsed, time.monotonic() - started
        finally:
            connection.close()

    def upload(
        self, path: str, content: bytes, token: str | None = None, timeout: float = 60.0, **fields: str
    ) -> tuple[int, dict[str, str], Any, float]:
        """A multipart POST of ``content`` as its ``file`` (and ``fields``): (status, headers, parsed body, seconds)."""
        started = time.monotonic()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        body, content_type = multipart(content, **fields)
        headers = {"Content-Type": content_type}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            raw = response.read()
            parsed = (
                json.loads(raw) if raw and response.getheader("Content-Type", "").endswith("json") else raw
            )
            return response.status, dict(response.getheaders()), parsed, time.monotonic() - started
        finally:
            connection.close()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


def multipart(content: bytes, filename: str = "file", **fields: str) -> tuple[bytes, str]:
    """A multipart/form-data body with ``content`` as its ``file`` part, and its content type."""
    boundary = "tablerecord-test-boundary"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n".encode()
        + content
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"
