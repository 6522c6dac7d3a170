"""The event streams with many readers on the loopback: the delay from an
append's 201 to its event at every reader, appends per second with the
readers connected beside the same load without them (same run, taking
turns), and the stream process's memory per idle reader.

The readers (``BENCH_STREAM_READERS``, 1,000) run in a process of their own
on one event loop (uvloop; each read takes all that came): half follow the club's stream (every append reaches
them), half one game's stream, as its recorder or one of its two seats.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import uvloop

from bench.bench_appends import load, service_appends
from bench.support import ROOT, bench_database, call, free_port, percentile, tree_cpu_seconds, wait_for

READERS = int(os.environ.get("BENCH_STREAM_READERS", "1000"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "8"))
#: Appends whose delay is measured, one every PACE seconds.
PROBES, PACE = 40, 0.1
ROUNDS = 3


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


@contextmanager
def stream_process(url: str):
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url}
    proc = subprocess.Popen(
        [sys.executable, "-m", "service.streams", f"--listen=127.0.0.1:{port}"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(port, "/streams/health")
        yield port, proc.pid
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)


@contextmanager
def readers(port: int, paths: list[tuple[str, str]]):
    """The readers' process: connected to every (path, token) of ``paths``;
    yields a function that ends it and answers what each reader received
    (``received``: a list of [id, monotonic time] per reader) and the CPU
    seconds (``cpu``) the readers' process used in ``wall`` seconds."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bench.bench_streams", "--read", str(port)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
        text=True,
    )
    proc.stdin.write(json.dumps(paths) + "\n")
    proc.stdin.flush()
    assert proc.stdout.readline().strip() == "ready", "the readers did not connect"

    def finish() -> dict:
        proc.stdin.write("done\n")
        proc.stdin.flush()
        got = json.loads(proc.stdout.readline())
        proc.wait(20)
        return got

    try:
        yield finish
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


async def read_all(port: int, paths: list[tuple[str, str]]) -> None:
    """In the readers' process: connect every reader, say "ready", note each
    event's id and arrival until told "done", then print them as JSON with
    the CPU seconds this process used meanwhile (were it near one CPU second
    a second, the readers themselves would hold the delays up)."""
    received: list[list[list[float]]] = [[] for _ in paths]

    async def reader(i: int, path: str, token: str, connected: asyncio.Event) -> None:
        stream, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n"
            f"Authorization: Bearer {token}\r\n\r\n".encode()
        )
        await writer.drain()
        while await stream.readline() not in (b"\r\n", b""):
            pass  # the answer's head
        connected.set()
        rest, got = b"", received[i]
        while data := await stream.read(1 << 16):  # all that came, one call (not a line at a time)
            arrived = time.monotonic()
            *lines, rest = (rest + data).split(b"\n")
            got.extend([int(line[4:]), arrived] for line in lines if line.startswith(b"id: "))

    events = [asyncio.Event() for _ in paths]
    tasks = [asyncio.create_task(reader(i, p, t, events[i])) for i, (p, t) in enumerate(paths)]
    for event in events:
        await event.wait()
    print("ready", flush=True)
    cpu, wall = time.process_time(), time.monotonic()
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    for task in tasks:
        task.cancel()
    print(json.dumps({"received": received, "cpu": cpu, "wall": wall}), flush=True)


def main() -> None:
    with bench_database() as url, service_appends(url, 8) as post, stream_process(url) as (port, pid):
        setup = http.client.HTTPConnection("127.0.0.1", post.port)
        token, club, games = post.token, post.club, post.games
        _, created = call(setup, "POST", f"/games/{games[0]}/seat-tokens", None, token)
        seats = [s["token"] for s in created["seat_tokens"]]
        paths = [
            (f"/streams/clubs/{club}", token)
            if i % 2 == 0
            else (f"/streams/games/{games[0]}", [token, *seats][i % 3])
            for i in range(READERS)
        ]
        idle = rss_kib(pid)
        load_before = os.getloadavg()
        with readers(port, paths) as finish:
            time.sleep(1)
            per_reader = (rss_kib(pid) - idle) / READERS
            streams_cpu = tree_cpu_seconds(pid)
            probes = []  # (the append's last version and position, the time its 201 came)
            setup = http.client.HTTPConnection("127.0.0.1", post.port)  # the first one has idled out
            for _ in range(PROBES):
                assert post(0, setup) is not None
                answered, body = time.monotonic(), post.answers[0]
                probes.append((body["events"][-1]["version"], body["events"][-1]["position"], answered))
                time.sleep(PACE)
            time.sleep(3)
            read = finish()
            streams_cpu = tree_cpu_seconds(pid) - streams_cpu
        delays: dict[str, list[float]] = {"club": [], "game": []}
        missing = 0
        for (path, _), got in zip(paths, read["received"], strict=True):
            arrived = dict(map(tuple, got))
            kind = "club" if path.startswith("/streams/clubs/") else "game"
            for version, position, answered in probes:
                key = position if kind == "club" else version
                if key in arrived:
                    delays[kind].append(arrived[key] - answered)
                else:
                    missing += 1
        every = delays["club"] + delays["game"]

        rates: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(ROUNDS):
            for connected in (False, True):
                if connected:
                    with readers(port, paths) as finish:
                        rates[True].append(load(8, SECONDS, post)[0])
                        finish()
                else:
                    rates[False].append(load(8, SECONDS, post)[0])

    without, with_readers = (
        sorted(rates[False])[len(rates[False]) // 2],
        sorted(rates[True])[len(rates[True]) // 2],
    )
    print(f"stream readers on the loopback: {READERS} (half the club's stream, half one game's)")
    print(
        f"  delay from an append's 201 to its event at every reader ({len(probes)} appends, "
        f"{len(every)} deliveries, {missing} missing): p50 {percentile(every, 50) * 1000:.1f} ms, "
        f"p95 {percentile(every, 95) * 1000:.1f} ms, max {max(every) * 1000:.1f} ms   (aim: p95 < 250 ms)"
    )
    print(
        "  p95 by stream: "
        + ", ".join(f"{kind} {percentile(d, 95) * 1000:.1f} ms" for kind, d in delays.items() if d)
        + f"; CPU meanwhile: stream process {streams_cpu:.1f} s, readers' process {read['cpu']:.1f} s"
        f" in {read['wall']:.1f} s; load average {load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after"
    )
    print(
        f"  appends/s, 8 clients: without readers {without:.0f}, with {READERS} readers {with_readers:.0f}"
        f"   = {with_readers / without:.0%}   (aim >= 90%; rounds: {rates})"
    )
    print(f"  the stream process's memory per idle reader: {per_reader:.1f} KiB (RSS {idle} KiB before them)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--read"]:
        uvloop.run(read_all(int(sys.argv[2]), json.loads(sys.stdin.readline())))
    else:
        main()
