"""The API's HTTP server: waitress, with a bound on the time a request takes
to arrive.

waitress closes a connection that stays silent for its channel timeout, but a
client that sends a header line every few seconds is never silent: it holds
its connection as long as it likes, and a few hundred such clients fill every
connection slot, so that nobody else is served. Here each connection also
notes when its request began to arrive (when the connection opened, for its
first request), and a request that has not arrived whole within the arrival
limit gets a 408 and its connection is closed. A request that has arrived is
not affected, however long it takes to run or to send its answer.

Run as ``python -m service.http_server --listen=HOST:PORT ...`` (``make run``
and the tests start it through ``service.run.api_command``).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import time

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

#: Seconds a request may take to arrive whole (headers and body), however
#: steadily it trickles in.
ARRIVAL_LIMIT = float(os.environ.get("REQUEST_ARRIVAL_LIMIT", "20"))
#: Seconds between the server's checks of its connections' timeouts.
CHECK_EVERY = 1


def _request_timeout(limit: float) -> bytes:
    body = json.dumps(
        {
            "type": "https://tablerecord.example/problems/request-timeout",
            "title": "Request timeout",
            "status": 408,
            "detail": f"The request did not arrive whole within {limit:g} seconds.",
        }
    ).encode()
    head = (
        "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
        f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    return head + body


class ArrivalBoundChannel(HTTPChannel):
    """A connection that knows since when its current request is arriving."""

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map=map)
        #: When the request now arriving began to (its first request: when the
        #: connection opened); None while no request is arriving.
        self.arriving_since: float | None = time.monotonic()
        self.timed_out = False
        self.parsers: list[HTTPRequestParser] = []

    def parser_class(self, adj: Adjustments) -> HTTPRequestParser:
        # waitress makes each request's parser with ``self.parser_class(adj)``.
        parser = HTTPRequestParser(adj)
        self.parsers.append(parser)
        return parser

    def received(self, data: bytes) -> bool:
        self.parsers = [] if self.request is None else [self.request]
        accepted = super().received(data)
        if any(parser.completed and not parser.empty for parser in self.parsers):  # a request arrived whole
            self.arriving_since = None if self.request is None else time.monotonic()
        elif self.arriving_since is None:  # the next one is arriving (blank lines count)
            self.arriving_since = time.monotonic()
        return accepted

    def expire(self, now: float, limit: float) -> None:
        """Answer 408 and close, if the request arriving is past the limit."""
        if self.requests or self.arriving_since is None or now - self.arriving_since <= limit:
            return
        if self.timed_out:  # the 408 could not be sent since: close regardless
            self.will_close = True
            return
        self.timed_out = True
        answer = _request_timeout(limit)
        with self.outbuf_lock:
            self.outbufs[-1].append(answer)
            self.current_outbuf_count += len(answer)
            self.total_outbufs_len += len(answer)
        self.close_when_flushed = True


class ArrivalBoundServer(TcpWSGIServer):
    channel_class = ArrivalBoundChannel

    def __init__(self, application, *, arrival_limit: float, **kw):
        self.arrival_limit = arrival_limit
        super().__init__(application, **kw)

    def maintenance(self, now: float) -> None:
        super().maintenance(now)
        monotonic = time.monotonic()
        for channel in list(self.active_channels.values()):
            if isinstance(channel, ArrivalBoundChannel):
                channel.expire(monotonic, self.arrival_limit)


def create(application, *, arrival_limit: float = ARRIVAL_LIMIT, **adjustments) -> ArrivalBoundServer:
    """A server for one ``listen`` address, with waitress's adjustments."""
    # A lookahead of one request keeps each connection read while its request
    # runs, so that a client hanging up is noticed at once: long work (an
    # import, a restore) asks ``waitress.client_disconnected`` and stops.
    adj = Adjustments(cleanup_interval=CHECK_EVERY, channel_request_lookahead=1, **adjustments)
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    return ArrivalBoundServer(
        application, map={}, dispatcher=dispatcher, adj=adj, arrival_limit=arrival_limit
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--listen", required=True, help="HOST:PORT")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--channel-timeout", type=int, default=30)
    parser.add_argument("--connection-limit", type=int, default=100)
    parser.add_argument("--ident", default="tablerecord")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO)

    from service.wsgi import app

    server = create(
        app,
        listen=args.listen,
        threads=args.threads,
        channel_timeout=args.channel_timeout,
        connection_limit=args.connection_limit,
        ident=args.ident,
    )
    server.print_listen("Serving on http://{}:{}")
    server.run()


if __name__ == "__main__":
    main()
