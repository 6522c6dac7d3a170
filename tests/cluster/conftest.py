"""The cluster: a PostgreSQL primary and its streaming replica, Redis, two API
hosts and two worker hosts, each in its own network namespace on a bridge the
run makes; removed, processes and all, when the run ends."""

from __future__ import annotations

import os
import secrets
import shutil
from dataclasses import dataclass

import psycopg
import pytest

from service.records.log.migrate import migrate
from tests.cluster.hosts import Network
from tests.cluster.servers import Postgres, Redis, Service
from tests.conftest import OPERATOR_TOKEN, ROOT

#: Whether the replica confirms each commit before the primary answers (CLUSTER_SYNCHRONOUS=0: no).
SYNCHRONOUS = os.environ.get("CLUSTER_SYNCHRONOUS", "1") != "0"
#: The replica's lag bound in the cluster: less than one WAL segment, so a switch of segment exceeds it.
REPLICA_MAX_LAG_BYTES = 4 * 1024 * 1024


def service_env(primary: Postgres, replica: Postgres | None, redis: Redis, secret: str) -> dict[str, str]:
    env = {
        "DATABASE_URL": primary.url,
        "CELERY_BROKER_URL": redis.url,
        "RATE_LIMIT_STORAGE_URI": redis.url,
        "RATE_LIMIT": "100000 per minute",
        "CLUB_CREATION_LIMIT": "1000 per hour",
        "SECRET_KEY": secret,
        "OPERATOR_TOKEN": OPERATOR_TOKEN,
    }
    if replica is not None:
        env["DATABASE_REPLICA_URL"] = replica.url
        env["REPLICA_MAX_LAG_BYTES"] = str(REPLICA_MAX_LAG_BYTES)
    return env


@dataclass
class Cluster:
    network: Network
    primary: Postgres
    replica: Postgres
    redis: Redis
    apis: list[Service]
    workers: list[Service]

    @property
    def api_hosts(self) -> list[str]:
        return [api.host.address for api in self.apis]


@pytest.fixture(scope="session")
def network():
    why = Network.available()
    if why:
        pytest.skip(f"the cluster needs network namespaces, and {why}")
    network = Network()
    root = ROOT / "var" / f"cluster-{network.tag}"
    root.mkdir(parents=True)
    network.root = root
    try:
        yield network
    finally:
        network.remove()
        if os.environ.get("CLUSTER_KEEP") != "1":  # CLUSTER_KEEP=1 keeps the servers' data and logs
            shutil.rmtree(root, ignore_errors=True)


def build(network: Network, synchronous: bool, name: str) -> Cluster:
    root = network.root
    primary = Postgres.primary(network.host(f"{name}pg1"), root)
    with psycopg.connect(primary.url, autocommit=True) as conn:
        migrate(conn)
    replica = Postgres.replica_of(primary, network.host(f"{name}pg2"), root)
    primary.synchronous(synchronous)
    redis = Redis(network.host(f"{name}rd"), root)
    env = service_env(primary, replica, redis, secrets.token_hex(16))
    apis = [Service(network.host(f"{name}api{i}"), "api", env, root) for i in (1, 2)]
    workers = [Service(network.host(f"{name}wk{i}"), "worker", env, root) for i in (1, 2)]
    return Cluster(network, primary, replica, redis, apis, workers)


@pytest.fixture(scope="session")
def cluster(network) -> Cluster:
    return build(network, SYNCHRONOUS, "a")
