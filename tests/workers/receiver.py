"""A webhook receiver on the loopback for the tests: a real HTTP server that
keeps every request and answers as the test tells it (a status, a pause)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Received:
    headers: dict[str, str]
    body: bytes
    at: float

    @property
    def id(self) -> str:
        return self.headers["webhook-id"]

    def json(self) -> Any:
        return json.loads(self.body)


def verified(secret: str, request: Received) -> bool:
    """The Standard Webhooks check, written from the specification: the
    base64 HMAC-SHA256, under the secret's base64 bytes after ``whsec_``, of
    ``id.timestamp.body``, among the signature header's ``v1,`` entries."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = (
        f"{request.headers['webhook-id']}.{request.headers['webhook-timestamp']}.".encode() + request.body
    )
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    given = [part.split(",", 1) for part in request.headers["webhook-signature"].split(" ")]
    return any(version == "v1" and hmac.compare_digest(sig, expected) for version, sig in given)


class Receiver:
    """``answers``: statuses to give, in turn, before answering 204 for good;
    ``pause``: seconds to wait before answering (a receiver that times out)."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.answers: list[int] = []
        self.pause = 0.0
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the http.server name
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                with receiver.lock:
                    receiver.received.append(
                        Received({k.lower(): v for k, v in self.headers.items()}, body, time.monotonic())
                    )
                    status = receiver.answers.pop(0) if receiver.answers else 204
                    pause = receiver.pause
                if pause:
                    time.sleep(pause)
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("location", receiver.url + "elsewhere")
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def requests(self) -> list[Received]:
        with self.lock:
            return list(self.received)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
