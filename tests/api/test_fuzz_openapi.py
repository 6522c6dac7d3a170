"""Property: every request the OpenAPI contract can describe, to real or
unknown resources, gets an answer the contract documents: no server error,
a documented status code and content type, and a body that validates
against the documented schema.

Schemathesis generates the requests from the app's own OpenAPI document;
path parameters point at a real club, league, game and catalog half the time
so that the checks behind them run too."""

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from service.app import create_app
from service.config import Settings
from service.records.club.catalogs import default_catalog
from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory

RETRY_LATER = {"projection-behind", "busy"}  # documented 503s that tell the client when to retry


def operations(app) -> dict[str, object]:
    found = (r.ok() for r in schemathesis.openapi.from_wsgi("/openapi.json", app).get_all_operations())
    # The event streams are served by the stream process, not this app (tests/api/test_event_streams.py).
    return {f"{op.method.upper()} {op.path}": op for op in found if not op.path.startswith("/streams/")}


OPERATIONS = sorted(operations(create_app(Settings(), pool=None)))


@pytest.fixture
def real(client):
    club = ClubFactory(client=client)
    league = LeagueFactory(client=client, club=club)
    game = GameFactory(client=client, club=club, league=league["id"], dealer="table")
    Api(client, club["admin_token"]).post(
        f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}}
    )
    catalog = default_catalog("house-of-cronies")
    ids = {
        "club": club["id"],
        "league_id": league["id"],
        "game_id": game["id"],
        "engine_id": "pig",
        "kind": catalog["kind"],
        "catalog_id": catalog["id"],
        "version": catalog["version"],
        "step": 1,
    }
    return ids, {"Authorization": f"Bearer {club['admin_token']}"}


def not_a_server_fault(ctx, response, case):
    """No 5xx, but for the documented 503s that ask the client to retry
    (with Retry-After): a projection still behind, a game busy."""
    if (
        response.status_code == 503
        and response.headers.get("retry-after")  # schemathesis keeps header names lowercase
        and response.json().get("code") in RETRY_LATER
    ):
        return None
    return not_a_server_error(ctx, response, case)


CHECKS = [not_a_server_fault, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.mark.parametrize("name", OPERATIONS)
def test_every_answer_is_one_the_contract_documents(app, real, name):
    ids, auth = real
    operation = operations(app)[name]

    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(case=operation.as_strategy(), use_real=st.booleans())
    def check(case, use_real):
        if use_real and case.path_parameters:
            case.path_parameters.update({k: v for k, v in ids.items() if k in case.path_parameters})
        response = case.call(headers=auth)
        case.validate_response(response, checks=CHECKS, headers=auth)

    check()
