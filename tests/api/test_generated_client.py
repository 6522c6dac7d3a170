"""A third-party client: generated from openapi.yaml by openapi-python-client
(with no warning but formatting), it plays a whole game of every engine,
sending typed commands, reads the game's view with its state typed by engine,
reads the log as JSON pages and as NDJSON, and imports the game's export as a
typed document."""

from __future__ import annotations

import importlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from engines import registry
from tests.conftest import ROOT

MAX_STEPS = 5000


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    out = tmp_path_factory.mktemp("client") / "tablerecord_client"
    bin_dir = Path(sys.executable).parent
    run = subprocess.run(
        [
            str(bin_dir / "openapi-python-client"),
            "generate",
            "--path",
            str(ROOT / "openapi.yaml"),
            "--config",
            str(ROOT / "docs" / "clients" / "openapi-python-client.yaml"),
            "--meta",
            "none",
            "--output-path",
            str(out),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"},
        timeout=300,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "warning" not in output.lower(), output
    sys.path.insert(0, str(out.parent))
    try:
        yield importlib.import_module("tablerecord_client")
    finally:
        sys.path.remove(str(out.parent))
        for name in [m for m in sys.modules if m.split(".")[0] == "tablerecord_client"]:
            del sys.modules[name]


def _call(module: str, **kwargs):
    """Call a generated operation; any answer but the documented success fails the test."""
    response = importlib.import_module(f"tablerecord_client.api.{module}").sync_detailed(**kwargs)
    assert response.status_code < 300, (module, response.status_code, response.content[:300])
    return response


class Table:
    """A club and a game of one engine, driven through the generated client only."""

    def __init__(self, client_module, app, engine_id: str):
        from tablerecord_client import models

        self.models, self.engine_id, self.prefix = models, engine_id, registry.game(engine_id).schema_prefix
        transport = httpx.WSGITransport(app=app)
        anonymous = client_module.Client(
            base_url="http://tablerecord.test",
            httpx_args={"transport": transport},
            raise_on_unexpected_status=True,
        )
        club = _call(
            "clubs.post_clubs", client=anonymous, body=models.ClubCreate(name=f"{engine_id} club")
        ).parsed
        self.club = club.id
        self.client = client_module.AuthenticatedClient(
            base_url="http://tablerecord.test",
            token=club.admin_token,
            httpx_args={"transport": transport},
            raise_on_unexpected_status=True,
        )

    def model(self, name: str):
        return getattr(self.models, f"{self.prefix}{name}")

    def create_game(self) -> object:
        engine = registry.get(self.engine_id)
        seats = [
            _call(
                "players.post_clubs_club_players",
                club=self.club,
                client=self.client,
                body=self.models.PlayerCreate(name=f"Player {i}"),
            ).parsed.id
            for i in range(engine.min_seats)
        ]
        body = self.model("GameCreate")(
            engine=self.model("GameCreateEngine")(self.engine_id),
            seats=seats,
            options=self.model("Options").from_dict(dict(registry.game(self.engine_id).trial.options)),
        )
        return _call("games.post_clubs_club_games", club=self.club, client=self.client, body=body).parsed

    def typed(self, command: dict) -> object:
        """The command as its generated model; dumping it gives back exactly what was offered."""
        model = self.model(command["type"]).from_dict(command)
        assert model.to_dict() == command
        return model

    def state_shape(self, game_id, **query) -> str:
        """The model the generated client reads the game view's state as (typed by the view's engine)."""
        view = _call("games.get_games_game_id", game_id=game_id, client=self.client, **query).parsed
        assert type(view).__name__ == f"{self.prefix}GameView"
        return type(view.state).__name__

    def play(self, game_id, rng: random.Random) -> int:
        during_play = registry.game(self.engine_id).views[0].__name__
        for step in range(MAX_STEPS):
            if step == 3:
                assert self.state_shape(game_id) == self.state_shape(game_id, seat=0) == during_play
            legal = _call("games.get_games_game_id_legal_actions", game_id=game_id, client=self.client).parsed
            offered = [a for actions in legal.seats.additional_properties.values() for a in actions]
            if not offered:
                return step
            action = rng.choice(offered).to_dict()
            body = self.models.ActionRequest(
                seat=action["seat"], command=self.typed(action["command"]), expected_version=legal.version
            )
            _call("games.post_games_game_id_actions", game_id=game_id, client=self.client, body=body)
        raise AssertionError("the game did not end")

    def events_as_pages(self, game_id) -> list[dict]:
        events, after = [], 0
        while True:
            page = _call(
                "games.get_games_game_id_events",
                game_id=game_id,
                client=self.client,
                after_version=after,
                limit=50,
            ).parsed
            events += [e.to_dict() for e in page.events]
            if page.next_after_version is None:
                return events
            after = page.next_after_version

    def events_as_ndjson(self, game_id) -> list[dict]:
        events, after = [], 0
        while True:
            text = _call(
                "games.get_games_game_id_events_ndjson",
                game_id=game_id,
                client=self.client,
                after_version=after,
                limit=50,
            ).parsed
            lines = [json.loads(line) for line in text.splitlines()]
            events += lines
            if len(lines) < 50:
                return events
            after = lines[-1]["version"]


@pytest.mark.parametrize("engine_id", registry.available())
def test_a_generated_client_plays_a_whole_game(generated, app, engine_id):
    table = Table(generated, app, engine_id)
    game = table.create_game()
    assert table.play(game.id, random.Random(5)) > 0
    view = _call("games.get_games_game_id", game_id=game.id, client=table.client).parsed
    assert view.status == "finished" and view.outcome.finished and 1 in view.outcome.places
    assert type(view.state).__name__ == registry.game(engine_id).state.__name__  # a finished game shows all
    pages = table.events_as_pages(game.id)
    assert pages[-1]["type"] == "GameEnded" and [e["version"] for e in pages] == list(
        range(1, view.version + 1)
    )
    assert table.events_as_ndjson(game.id) == pages
    document = _call("interchange.get_games_game_id_export", game_id=game.id, client=table.client).parsed
    body = table.model("GameImport").from_dict(document.to_dict())
    copy = _call(
        "interchange.post_clubs_club_games_import", club=table.club, client=table.client, body=body
    ).parsed
    assert copy.status == "finished" and copy.version == view.version
