"""factory-boy factories that build clubs, players, leagues and games through
the API itself, so every fixture goes through the same checks as a client."""

from __future__ import annotations

import factory


class Api:
    """A thin client bound to a Flask test client and a token."""

    def __init__(self, client, token: str | None = None):
        self.client, self.token = client, token

    def headers(self, token=None, **extra):
        token = token or self.token
        return {**({"Authorization": f"Bearer {token}"} if token else {}), **extra}

    def post(self, path, body=None, token=None, **headers):
        return self.client.post(
            path, json=body if body is not None else {}, headers=self.headers(token, **headers)
        )

    def get(self, path, token=None, **headers):
        return self.client.get(path, headers=self.headers(token, **headers))


class ClubFactory(factory.Factory):
    class Meta:
        model = dict

    name = factory.Sequence(lambda n: f"Club {n}")

    @classmethod
    def _create(cls, model_class, client=None, **kwargs):
        response = client.post("/clubs", json=kwargs)
        assert response.status_code == 201, response.get_json()
        return response.get_json()


def post_as_admin(client, club, path: str, body: dict) -> dict:
    response = client.post(
        f"/clubs/{club['id']}/{path}", json=body, headers={"Authorization": f"Bearer {club['admin_token']}"}
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


class PlayerFactory(factory.Factory):
    class Meta:
        model = dict

    name = factory.Sequence(lambda n: f"Player {n}")

    @classmethod
    def _create(cls, model_class, client=None, club=None, **kwargs):
        return post_as_admin(client, club, "players", kwargs)


class LeagueFactory(factory.Factory):
    class Meta:
        model = dict

    name = factory.Sequence(lambda n: f"League {n}")
    min_games = 1

    @classmethod
    def _create(cls, model_class, client=None, club=None, **kwargs):
        return post_as_admin(client, club, "leagues", kwargs)


class GameFactory(factory.Factory):
    class Meta:
        model = dict

    engine = "pig"
    options = factory.LazyFunction(lambda: {"target": 20})
    dealer = "server"

    @classmethod
    def _create(cls, model_class, client=None, club=None, players=None, seats=2, **kwargs):
        if players is None:
            players = [PlayerFactory(client=client, club=club) for _ in range(seats)]
        return post_as_admin(client, club, "games", {**kwargs, "seats": [p["id"] for p in players]})
