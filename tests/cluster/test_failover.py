"""The primary killed under load and its replica promoted, the API host
pointed at it: with synchronous replication no acknowledged action is lost;
without it, the loss is measured (the window is in docs/deploy.md)."""

from __future__ import annotations

import secrets
import time

import psycopg
import pytest

from service.records.log.migrate import migrate
from tests.cluster.checks import figure, lost_and_duplicated
from tests.cluster.conftest import service_env
from tests.cluster.load import Load
from tests.cluster.servers import Postgres, Service
from tests.cluster.test_faults import new_club

pytestmark = pytest.mark.cluster


@pytest.mark.parametrize("synchronous", [True, False], ids=["synchronous", "asynchronous"])
def test_the_replica_promoted_after_the_primary_is_killed_holds_every_acknowledged_action(
    synchronous, network, cluster
):
    name = "s" if synchronous else "n"
    primary = Postgres.primary(network.host(f"{name}pg1"), network.root)
    with psycopg.connect(primary.url, autocommit=True) as conn:
        migrate(conn)
    replica = Postgres.replica_of(primary, network.host(f"{name}pg2"), network.root)
    primary.synchronous(synchronous)
    secret = secrets.token_hex(16)
    api_host = network.host(f"{name}api")
    api = Service(api_host, "api", service_env(primary, None, cluster.redis, secret), network.root)
    club, members, _ = new_club(api_host.address, 12)
    load = Load([api_host.address], club, members, tables=6, give_up=120).start()
    time.sleep(5)
    killed_at = time.monotonic()
    primary.kill()
    replica.promote()
    api.kill()
    api = Service(api_host, "api", service_env(replica, None, cluster.redis, secret), network.root)
    back_at = time.monotonic()
    time.sleep(3)
    load.stop()
    api.kill()
    assert not load.errors, load.errors
    lost, duplicated = lost_and_duplicated(replica.url, load.acknowledged)
    mode = "synchronous" if synchronous else "asynchronous"
    figure(f"{mode}: acknowledged actions", f"{len(load.acknowledged)}: lost {lost}, duplicated {duplicated}")
    figure(
        f"{mode}: from the kill to the API answering on the promoted replica", f"{back_at - killed_at:.1f} s"
    )
    assert duplicated == 0
    if synchronous:
        assert lost == 0
