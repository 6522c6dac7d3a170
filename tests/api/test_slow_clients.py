"""Clients that send their requests slowly (or never finish them) do not
stall the API: the server `make run` starts holds their sockets, not its
threads, and /health keeps answering at once."""

from __future__ import annotations

import socket
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
