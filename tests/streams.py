"""The event streams' process for tests: the ASGI app on uvicorn in a thread,
on a free loopback port and the test's database, and a reader of its
server-sent events."""

from __future__ import annotations

import http.client
import json
import threading
import time
from dataclasses import dataclass
from typing import Any

import uvicorn

from service.records.log.context import Records, Replica
from service.streams.app import create_app
from tests.servers import free_port


class StreamServer:
    """``create_app`` served by uvicorn in a thread (``upstream``: also the API's address)."""

    def __init__(
        self,
        pool,
        database_url: str,
        upstream: str | None = None,
        port: int | None = None,
        replica: Replica | None = None,
    ):
        self.port = port or free_port()
        self.app = create_app(Records(pool, replica=replica), database_url, upstream)
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_level="warning", timeout_graceful_shutdown=1
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the stream server did not start"
            time.sleep(0.02)

    def listener(self, other_than: int | None = None) -> int:
        """The database session listening for notices (once it listens, and is not ``other_than``)."""
        deadline = time.monotonic() + 20
        while (pid := self.app.state.feeds.listener) in (None, other_than):
            assert time.monotonic() < deadline, "the stream server does not listen"
            time.sleep(0.02)
        return pid

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def open(self, path: str, token: str | None = None, **headers: str) -> Reader:
        return Reader(self.port, path, token, headers)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@dataclass
class Message:
    event: str
    id: int
    data: Any


class Reader:
    """One open stream: its status, headers and events as they come."""

    def __init__(
        self, port: int, path: str, token: str | None, headers: dict[str, str], host: str = "127.0.0.1"
    ):
        self.connection = http.client.HTTPConnection(host, port, timeout=10)
        sent = {"Accept": "text/event-stream", **headers}
        if token:
            sent["Authorization"] = f"Bearer {token}"
        self.connection.request("GET", path, headers=sent)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.raw: list[bytes] = []

    def body(self) -> Any:
        return json.loads(self.response.read())

    def next(self) -> Message:
        """The next event (pings and the retry hint skipped); raises on the socket's timeout."""
        fields: dict[str, str] = {}
        while True:
            line = self.response.readline()
            if not line:
                raise EOFError("the stream ended")
            self.raw.append(line)
            line = line.decode().rstrip("\r\n")
            if line == "":
                if "data" in fields:
                    return Message(
                        fields.get("event", "message"), int(fields["id"]), json.loads(fields["data"])
                    )
                fields = {}
                continue
            if line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            fields[name] = value[1:] if value.startswith(" ") else value

    def take(self, count: int) -> list[Message]:
        return [self.next() for _ in range(count)]

    def quiet(self, seconds: float) -> bool:
        """True when no event comes within ``seconds``."""
        self.connection.sock.settimeout(seconds)
        try:
            self.next()
        except TimeoutError:
            return True
        finally:
            self.connection.sock.settimeout(10)
        return False

    def close(self) -> None:
        self.connection.close()
