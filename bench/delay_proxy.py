"""A TCP proxy that delays every chunk by a fixed time each way, as a
database on another host would: ``python -m bench.delay_proxy LISTEN_PORT
TARGET DELAY_MS``, TARGET being ``host:port`` or a unix socket's path.

Each direction keeps its order: a chunk read at time t is written at
t + delay, without holding back the chunks read after it (so the delay adds
latency, not a bandwidth cap).
"""

from __future__ import annotations

import asyncio
import sys
import time


async def pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float) -> None:
    queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def deliver() -> None:
        while True:
            due, chunk = await queue.get()
            if not chunk:
                break
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            writer.write(chunk)
            await writer.drain()
        writer.close()

    sender = asyncio.create_task(deliver())
    try:
        while chunk := await reader.read(65536):
            queue.put_nowait((time.monotonic() + delay, chunk))
    except ConnectionError:
        pass
    finally:
        queue.put_nowait((0.0, b""))
        await sender


async def serve(listen_port: int, target: str, delay: float) -> None:
    async def handle(client_reader, client_writer) -> None:
        try:
            if target.startswith("/"):
                server_reader, server_writer = await asyncio.open_unix_connection(target)
            else:
                host, port = target.rsplit(":", 1)
                server_reader, server_writer = await asyncio.open_connection(host, int(port))
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(
            pump(client_reader, server_writer, delay),
            pump(server_reader, client_writer, delay),
            return_exceptions=True,
        )

    server = await asyncio.start_server(handle, "127.0.0.1", listen_port)
    async with server:
        print("ready", flush=True)
        await server.serve_forever()


def main() -> None:
    listen_port, target, delay_ms = sys.argv[1:4]
    asyncio.run(serve(int(listen_port), target, float(delay_ms) / 1000))


if __name__ == "__main__":
    main()
