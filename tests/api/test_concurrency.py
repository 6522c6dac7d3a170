"""Writers racing on one game: exactly one append per version, no gaps."""

from concurrent.futures import ThreadPoolExecutor

from tests.helpers import event_count, new_pig_game

WRITERS = 20


def _race(app, token, game_id, bodies):
    def post(body):
        with app.test_client() as c:
            r = c.post(f"/games/{game_id}/actions", json=body, headers={"Authorization": f"Bearer {token}"})
            return r.status_code, r.get_json()

    with ThreadPoolExecutor(WRITERS) as executor:
        return list(executor.map(post, bodies))


def test_twenty_writers_with_the_same_expected_version_one_wins(app, client, pool):
    club, game, api = new_pig_game(client)
    version = game["version"]
    body = {"seat": 0, "command": {"type": "Roll"}, "expected_version": version}
    results = _race(app, club["admin_token"], game["id"], [body] * WRITERS)
    statuses = sorted(s for s, _ in results)
    assert statuses.count(201) == 1
    assert statuses.count(409) == WRITERS - 1
    conflict = next(b for s, b in results if s == 409)
    assert conflict["code"] == "version-conflict" and conflict["current_version"] > version
    assert event_count(pool, game["id"]) == api.get(f"/games/{game['id']}").get_json()["version"]


def test_twenty_writers_without_expected_version_never_interleave(app, client, pool):
    club, game, api = new_pig_game(client, options={"target": 500})
    bodies = [{"seat": 0, "command": {"type": "Roll"}}] * WRITERS
    results = _race(app, club["admin_token"], game["id"], bodies)
    assert all(s in (201, 422) for s, _ in results)
    appended = [e for s, b in results if s == 201 for e in b["events"]]
    versions = sorted(e["version"] for e in appended)
    assert versions == list(range(game["version"] + 1, game["version"] + 1 + len(versions)))
    with pool.connection() as conn:
        stored = [
            r["version"]
            for r in conn.execute(
                "SELECT version FROM events WHERE game_id = %s ORDER BY version", (game["id"],)
            )
        ]
    assert stored == list(range(1, len(stored) + 1))
