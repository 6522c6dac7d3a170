"""Property: no request the OpenAPI contract can describe, to real or
unknown resources, makes the service fail with a 5xx.

Schemathesis generates the requests from the app's own OpenAPI document;
path parameters point at a real club, league and game half the time so that
the checks behind them run too."""

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.app import create_app
from service.config import Settings
from tests.factories import Api, ClubFactory, GameFactory, LeagueFactory


def operations(app) -> dict[str, object]:
    found = (r.ok() for r in schemathesis.openapi.from_wsgi("/openapi.json", app).get_all_operations())
    return {f"{op.method.upper()} {op.path}": op for op in found}


OPERATIONS = sorted(operations(create_app(Settings(), pool=None)))


@pytest.fixture
def real(client):
    club = ClubFactory(client=client)
    league = LeagueFactory(client=client, club=club)
    game = GameFactory(client=client, club=club, league=league["id"], dealer="table")
    Api(client, club["admin_token"]).post(
        f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}}
    )
    ids = {"club": club["id"], "league_id": league["id"], "game_id": game["id"], "engine_id": "pig"}
    return ids, {"Authorization": f"Bearer {club['admin_token']}"}


@pytest.mark.parametrize("name", OPERATIONS)
def test_no_request_makes_a_server_error(app, real, name):
    ids, auth = real
    operation = operations(app)[name]

    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(case=operation.as_strategy(), use_real=st.booleans())
    def check(case, use_real):
        if use_real and case.path_parameters:
            case.path_parameters.update({k: v for k, v in ids.items() if k in case.path_parameters})
        response = case.call(headers=auth)
        assert response.status_code < 500 or response.status_code == 503, (
            case.method,
            case.formatted_path,
            case.body,
            response.status_code,
            response.text[:300],
        )

    check()
