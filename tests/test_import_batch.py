"""Many games imported at once (``interchange.import_games``): one transaction
for the whole batch, so every game is stored or none is, and a refusal names
the document and, for a command, its index and rule."""

from uuid import UUID

import pytest

from service.records.access import Principal
from service.records.errors import Invalid
from service.records.history import interchange
from service.records.log.context import Records
from tests.factories import Api, ClubFactory, PlayerFactory


def _paper_game(points: int) -> dict:
    """A table game of Pig from paper: Ann rolls ``points`` and holds."""
    return {
        "engine": "pig",
        "options": {},
        "seats": [{"name": "Ann"}, {"name": "Bob"}],
        "commands": [
            {"seat": 0, "command": {"type": "Roll"}},
            {"seat": None, "command": {"type": "ResolveRoll", "dice": [points]}},
            {"seat": 0, "command": {"type": "Hold"}},
        ],
    }


def _club(client):
    club = ClubFactory(client=client)
    return club, Principal(UUID(club["id"]), "admin")


def _counts(pool) -> tuple[int, int, int]:
    with pool.connection() as conn:
        row = conn.execute(
            "SELECT (SELECT count(*) FROM games) g, (SELECT count(*) FROM events) e,"
            " (SELECT count(*) FROM players) p"
        ).fetchone()
    return row["g"], row["e"], row["p"]


def test_a_batch_stores_every_game_in_order_each_with_its_own_state(client, pool):
    club, admin = _club(client)
    records = Records(pool, snapshot_every=2)
    answer = interchange.import_games(records, admin.club_id, admin, [_paper_game(p) for p in (2, 3, 4)])
    assert answer.status == 201
    games = answer.body["games"]
    assert len(games) == 3 and len({g["id"] for g in games}) == 3
    api = Api(client, club["admin_token"])
    for game, points in zip(games, (2, 3, 4), strict=True):
        assert [s["token"] for s in game["seat_tokens"]] and game["status"] == "active"
        view = api.get(f"/games/{game['id']}").get_json()
        assert view["state"]["scores"] == [points, 0] and view["version"] == game["version"]
    # Every game seats the same two players of the club, created once by name.
    assert len({s["player"] for g in games for s in g["seats"]}) == 2


def test_a_refused_command_in_any_game_of_a_batch_stores_no_game(client, pool):
    _, admin = _club(client)
    batch = [_paper_game(2), _paper_game(3), _paper_game(4)]
    batch[2]["commands"][2] = {"seat": 1, "command": {"type": "Hold"}}
    before = _counts(pool)
    with pytest.raises(Invalid) as refused:
        interchange.import_games(Records(pool), admin.club_id, admin, batch)
    assert refused.value.code == "command-refused"
    assert refused.value.extra["document"] == 2 and refused.value.extra["index"] == 2
    assert refused.value.extra["rule"] == "not-your-turn"
    assert _counts(pool) == before


def test_a_refused_setup_in_a_batch_names_its_document(client, pool):
    _, admin = _club(client)
    batch = [_paper_game(2), {**_paper_game(3), "seats": [{"name": "Ann"}]}]
    before = _counts(pool)
    with pytest.raises(Invalid) as refused:
        interchange.import_games(Records(pool), admin.club_id, admin, batch)
    assert refused.value.code == "seat-count" and refused.value.extra["document"] == 1
    assert _counts(pool) == before


def test_a_batch_is_idempotent_under_its_key(client, pool):
    _, admin = _club(client)
    batch = [_paper_game(2), _paper_game(5)]
    records = Records(pool)
    first = interchange.import_games(records, admin.club_id, admin, batch, idempotency_key="k", body_hash="h")
    before = _counts(pool)
    again = interchange.import_games(records, admin.club_id, admin, batch, idempotency_key="k", body_hash="h")
    assert again.replayed and [g["id"] for g in again.body["games"]] == [g["id"] for g in first.body["games"]]
    assert all("seat_tokens" not in g for g in again.body["games"])
    assert _counts(pool) == before
    with pytest.raises(Invalid) as reused:
        interchange.import_games(records, admin.club_id, admin, batch, idempotency_key="k", body_hash="other")
    assert reused.value.code == "idempotency-key-reused"


def test_a_player_added_meanwhile_under_a_new_name_is_the_one_seated(client, pool, monkeypatch):
    club, admin = _club(client)
    bob = {}
    replay_all = interchange._replay_all

    def and_meanwhile_bob_joins(*args, **kwargs):
        replayed = replay_all(*args, **kwargs)
        if not bob:  # another writer adds Bob between the replay and the store
            bob.update(PlayerFactory(client=client, club=club, name="Bob"))
        return replayed

    monkeypatch.setattr(interchange, "_replay_all", and_meanwhile_bob_joins)
    answer = interchange.import_games(Records(pool), admin.club_id, admin, [_paper_game(3)])
    (game,) = answer.body["games"]
    assert game["seats"][1] == {"seat": 1, "player": bob["id"], "name": "Bob"}
    view = Api(client, club["admin_token"]).get(f"/games/{game['id']}").get_json()
    assert view["state"]["scores"] == [3, 0]


def test_a_batch_writes_its_games_tokens_events_and_snapshots_in_bulk(client, pool, monkeypatch):
    """A batch's rows go in by COPY, a few statements per table whatever the
    number of games, never a statement per row (a restore stores its games the same way)."""
    import contextlib

    import psycopg

    statements: list[tuple[str, str, int]] = []

    class Recording(psycopg.Cursor):
        def executemany(self, query, params_seq, **kwargs):
            rows = list(params_seq)
            statements.append(("rows", str(query).split("(")[0].strip(), len(rows)))
            return super().executemany(query, rows, **kwargs)

        def copy(self, statement, *args, **kwargs):
            statements.append(("copy", str(statement).split("(")[0].strip(), 0))
            return super().copy(statement, *args, **kwargs)

    lend = pool.connection

    @contextlib.contextmanager
    def recorded(*args, **kwargs):
        with lend(*args, **kwargs) as conn:
            conn.cursor_factory = Recording
            try:
                yield conn
            finally:
                conn.cursor_factory = psycopg.Cursor

    club, admin = _club(client)
    monkeypatch.setattr(pool, "connection", recorded)
    answer = interchange.import_games(
        Records(pool, snapshot_every=2), admin.club_id, admin, [_paper_game(2 + p % 4) for p in range(40)]
    )
    monkeypatch.undo()
    assert answer.status == 201 and len(answer.body["games"]) == 40
    assert [s for s in statements if s[0] == "rows" and s[2] > 1] == []
    copied = {table for kind, table, _ in statements if kind == "copy"}
    assert copied == {"COPY games", "COPY tokens", "COPY events", "COPY snapshots"}
    assert _counts(pool)[:2] == (40, 40 * 4)


def test_an_imported_game_evolves_each_event_of_its_commands_once(client, pool, monkeypatch):
    """The engine settles a command's events and hands back the state they
    leave: the writer does not evolve them a second time."""
    import dataclasses

    from engines import pig, registry
    from service.records.log import fold

    evolved = []

    def evolve(state, event):
        evolved.append(event.type)
        return pig.GAME.engine.evolve(state, event)

    counting = dataclasses.replace(pig.GAME, engine=dataclasses.replace(pig.GAME.engine, evolve=evolve))
    monkeypatch.setitem(registry.GAMES, "pig", counting)
    _, admin = _club(client)
    answer = interchange.import_games(Records(pool), admin.club_id, admin, [_paper_game(5)])
    with pool.connection() as conn:
        rows = conn.execute(
            "SELECT type, metadata FROM events WHERE game_id = %s ORDER BY version",
            (answer.body["games"][0]["id"],),
        ).fetchall()
    engine_events = [r for r in rows if r["type"] not in fold.SERVICE_EVENTS]
    setup = sum(1 for r in engine_events if r["metadata"].get("setup"))
    commanded = len(engine_events) - setup
    assert commanded >= 3
    # The setup's events are settled by the engine, then recorded (twice); every other once.
    assert len(evolved) == commanded + 2 * setup
