"""Clients that send their requests slowly (or never finish them) do not
stall the API: the server `make run` starts holds their sockets, not its
threads, and /health keeps answering at once."""

from __future__ import annotations

import select
import socket
import threading
import time

import pytest

from tests.servers import ApiServer

SLOW_CLIENTS = 8


@pytest.fixture
def server(database_url, tmp_path):
    api = ApiServer(database_url, tmp_path / "api.log", threads=2)
    yield api
    api.stop()


@pytest.mark.slow
def test_health_answers_within_a_second_while_slow_clients_hold_connections(server):
    slow = []
    try:
        for _ in range(SLOW_CLIENTS):
            s = socket.create_connection(("127.0.0.1", server.port))
            s.sendall(
                b"POST /clubs HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n" + b'{"na'
            )
            slow.append(s)
        time.sleep(1)  # they now hold their connections, each body 96 bytes short
        for _ in range(5):
            status, _, body, seconds = server.request("GET", "/health")
            assert status == 200 and seconds < 1.0, f"/health took {seconds:.2f}s"
            time.sleep(0.5)
        status, _, club, _ = server.request("POST", "/clubs", {"name": "Quick"})
        assert status == 201 and club["admin_token"]
    finally:
        for s in slow:
            s.close()


TRICKLING_CLIENTS = 220  # more than the server's connection slots (CONNECTION_LIMIT = 200)
ARRIVAL_LIMIT = 3  # seconds; REQUEST_ARRIVAL_LIMIT is 20 by default


@pytest.fixture
def bounded_server(database_url, tmp_path):
    api = ApiServer(database_url, tmp_path / "api.log", threads=2, REQUEST_ARRIVAL_LIMIT=str(ARRIVAL_LIMIT))
    yield api
    api.stop()


def _trickle(
    sockets: list[socket.socket], closed_after: dict[int, float], started: float, stop: threading.Event
):
    """Each client sends one more header line every second, never the blank
    line that ends its headers, and notes when the server answers or closes."""
    while not stop.wait(1.0):
        for i, s in enumerate(sockets):
            if i in closed_after:
                continue
            try:
                s.sendall(b"X-Trickle: 1\r\n")
            except OSError:
                closed_after[i] = time.monotonic() - started
                continue
            readable, _, _ = select.select([s], [], [], 0)
            if readable:
                closed_after[i] = time.monotonic() - started


@pytest.mark.slow
def test_requests_trickling_in_past_the_arrival_limit_are_closed_and_others_are_served(bounded_server):
    started = time.monotonic()
    sockets, closed_after, stop = [], {}, threading.Event()
    trickler = threading.Thread(target=_trickle, args=(sockets, closed_after, started, stop), daemon=True)
    try:
        for _ in range(TRICKLING_CLIENTS):
            s = socket.create_connection(("127.0.0.1", bounded_server.port))
            s.sendall(b"GET /health HTTP/1.1\r\nHost: localhost\r\n")
            sockets.append(s)
        trickler.start()
        time.sleep(1.5)  # every slot is now held by a client whose headers never end

        status, _, body, seconds = bounded_server.request("GET", "/health", timeout=ARRIVAL_LIMIT + 6)
        assert status == 200 and body["status"] == "ok"
        assert seconds < ARRIVAL_LIMIT + 4, f"/health took {seconds:.1f}s"

        deadline = time.monotonic() + 2 * ARRIVAL_LIMIT + 6
        while len(closed_after) < TRICKLING_CLIENTS and time.monotonic() < deadline:
            time.sleep(0.5)
        assert len(closed_after) == TRICKLING_CLIENTS, f"{TRICKLING_CLIENTS - len(closed_after)} still open"
        answer = sockets[0].recv(4096)
        assert answer.startswith(b"HTTP/1.1 408 ") and b"request-timeout" in answer
    finally:
        stop.set()
        if trickler.is_alive():
            trickler.join(5)
        for s in sockets:
            s.close()
