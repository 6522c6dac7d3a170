"""``python -m service.streams --listen=HOST:PORT [--upstream=URL]``: the
event streams on uvicorn (``make run`` starts it in front of the API, with
``--upstream`` the API's address)."""

from __future__ import annotations

import argparse
import os

import uvicorn


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m service.streams")
    parser.add_argument("--listen", default="127.0.0.1:8001", help="HOST:PORT")
    parser.add_argument("--upstream", help="the API's URL: every request but a stream's is passed there")
    args = parser.parse_args()
    host, _, port = args.listen.rpartition(":")
    if args.upstream:
        os.environ["STREAMS_UPSTREAM"] = args.upstream
    uvicorn.run(
        "service.streams.app:from_env",
        factory=True,
        host=host,
        port=int(port),
        access_log=False,
        # libuv's event loop and a C parser: each write to a reader costs a fraction of asyncio's and h11's.
        loop="uvloop",
        http="httptools",
        # Streams are ended at once on a stop: their readers reconnect with Last-Event-ID.
        timeout_graceful_shutdown=2,
        backlog=4096,
    )


if __name__ == "__main__":
    main()
