"""Operator endpoints say no more than they must: /health is up or down, and
log positions and set-aside tasks are shown to the operator's token alone."""

from tests.conftest import OPERATOR_TOKEN
from tests.factories import Api, ClubFactory, GameFactory


def test_health_says_only_that_the_service_is_up(client):
    response = client.get("/health")
    assert response.status_code == 200 and response.get_json() == {"status": "ok"}


def test_projection_positions_and_set_aside_tasks_are_for_the_operator_only(client):
    club = ClubFactory(client=client)
    GameFactory(client=client, club=club)
    for token in (None, club["admin_token"], "tr_operator_guess"):
        body = Api(client, token).get("/projections").get_json()
        assert set(body) == {"projections"}, token
        assert all(set(p) == {"name"} for p in body["projections"]), body
    full = Api(client, OPERATOR_TOKEN).get("/projections").get_json()
    assert {"head", "projections", "set_aside_tasks"} <= set(full)
    assert full["head"] > 0 and all("position" in p and "behind" in p for p in full["projections"])


def test_without_a_configured_operator_token_nobody_is_the_operator(settings, pool):
    from dataclasses import replace

    from service.app import create_app

    client = create_app(replace(settings, operator_token=None), pool=pool).test_client()
    for token in (None, "", "None"):
        body = Api(client, token).get("/projections").get_json()
        assert set(body) == {"projections"}
