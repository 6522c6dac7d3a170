"""Input built to break the service gets a 4xx problem naming what is wrong,
and stores nothing; never a 500."""

import copy

import pytest

from service.records.club.catalogs import default_catalog
from tests.factories import Api, ClubFactory, PlayerFactory
from tests.helpers import event_count, new_pig_game

PROBLEM = "application/problem+json"


@pytest.fixture
def pig(client, pool):
    club, game, api = new_pig_game(client)
    return club, api, game, event_count(pool, game["id"])


def _problem(response, status, code=None):
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert response.mimetype == PROBLEM
    body = response.get_json()
    if code:
        assert body["code"] == code
    return body


def _clubs(pool) -> int:
    with pool.connection() as conn:
        return conn.execute("SELECT count(*) AS n FROM clubs").fetchone()["n"]


@pytest.mark.parametrize("depth", [33, 330, 5000, 100_000])
def test_json_nested_beyond_the_limit_is_refused_even_unauthenticated(client, pool, depth):
    body = '{"name": ' + "[" * depth + "]" * depth + "}"
    _problem(client.post("/clubs", data=body, content_type="application/json"), 422, "too-deep")
    assert _clubs(pool) == 0


def test_json_nested_within_the_limit_is_parsed_as_usual(client):
    body = '{"name": ' + "[" * 30 + "]" * 30 + "}"
    assert client.post("/clubs", data=body, content_type="application/json").status_code == 422
    assert client.post("/clubs", json={"name": "[[[[ not nesting ]]]]"}).status_code == 201


def test_an_integer_of_thousands_of_digits_is_refused(pig, pool):
    _, api, game, count = pig
    huge = "9" * 5000
    response = api.client.post(
        f"/games/{game['id']}/actions",
        data='{"seat": ' + huge + ', "command": {"type": "Roll"}}',
        content_type="application/json",
        headers=api.headers(),
    )
    _problem(response, 422, "number-too-large")
    assert event_count(pool, game["id"]) == count


@pytest.mark.parametrize("version", [2**31, 2**40, 2**63 + 5])
def test_a_catalog_version_beyond_the_column_is_a_422_naming_it(client, version):
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    catalog = copy.deepcopy(default_catalog("house-of-cronies"))
    catalog.update(id="big-version", version=version)
    body = _problem(
        api.post(f"/clubs/{club['id']}/catalogs", {"kind": "house-of-cronies", "content": catalog}), 422
    )
    assert "version" in str(body["errors"])
    players = [PlayerFactory(client=client, club=club)["id"] for _ in range(3)]
    game = {"engine": "house-of-cronies", "seats": players, "catalog": {"id": "x", "version": version}}
    body = _problem(api.post(f"/clubs/{club['id']}/games", game), 422)
    assert "version" in body["errors"]["catalog"]


@pytest.mark.parametrize("text", ["\ud800", "Ann\udfff", "\udc00x"])
def test_a_lone_surrogate_is_refused_in_names_seasons_and_reasons(client, pig, pool, text):
    club, api, game, count = pig
    _problem(client.post("/clubs", json={"name": text}), 422, "lone-surrogate")
    _problem(api.post(f"/clubs/{club['id']}/players", {"name": text}), 422, "lone-surrogate")
    _problem(api.post(f"/clubs/{club['id']}/leagues", {"name": "L", "season": text}), 422, "lone-surrogate")
    _problem(api.post(f"/games/{game['id']}/abandon", {"reason": text}), 422, "lone-surrogate")
    assert event_count(pool, game["id"]) == count


def test_a_long_request_id_is_refused_not_stored(pig, pool):
    _, api, game, count = pig
    response = api.post(
        f"/games/{game['id']}/actions",
        {"seat": 0, "command": {"type": "Roll"}},
        **{"X-Request-Id": "r" * 8000},
    )
    _problem(response, 400, "invalid-request-id")
    assert event_count(pool, game["id"]) == count


def test_a_request_id_of_up_to_128_characters_is_kept_in_the_events_metadata(pig, pool):
    _, api, game, count = pig
    given = "req-" + "x" * 124
    response = api.post(
        f"/games/{game['id']}/actions", {"seat": 0, "command": {"type": "Roll"}}, **{"X-Request-Id": given}
    )
    assert response.status_code == 201 and response.headers["X-Request-Id"] == given
    with pool.connection() as conn:
        row = conn.execute(
            "SELECT metadata FROM events WHERE game_id = %s ORDER BY version DESC LIMIT 1", (game["id"],)
        ).fetchone()
    assert row["metadata"]["request_id"] == given


@pytest.mark.parametrize(
    "body",
    [b'{"name": "Ann\x00"}', b'{"name": "Ann\xed\xa0\x80"}', b'{"name": "Ann\xff"}'],
    ids=["raw-nul", "raw-surrogate", "not-utf8"],
)
def test_a_nul_or_surrogate_written_raw_is_malformed_json_and_stores_nothing(client, pool, body):
    """Only a \\u escape can carry a NUL or a lone surrogate inside valid JSON:
    written as raw bytes they make the body malformed."""
    _problem(client.post("/clubs", data=body, content_type="application/json"), 400)
    assert _clubs(pool) == 0


@pytest.mark.parametrize(
    "name",
    [
        "   ",
        "\t\n",
        "\u3000",
        "Ann\u202eevil",  # right-to-left override
        "\u2066Ann\u2069",  # isolates
        "A\u200bnn",  # zero-width space
        "Ann\u200d",  # zero-width joiner
        "\ufeffAnn",  # byte-order mark
        "Ann\u2028Bob",  # line separator
        "Ann\x07",
    ],
)
def test_a_blank_name_or_one_with_bidi_or_invisible_characters_is_refused(client, pig, pool, name):
    club, api, game, count = pig
    assert _problem(client.post("/clubs", json={"name": name}), 422)["errors"]
    _problem(api.post(f"/clubs/{club['id']}/players", {"name": name}), 422)
    _problem(api.post(f"/clubs/{club['id']}/leagues", {"name": name}), 422)
    if name.strip():  # a season's surrounding whitespace is trimmed
        _problem(api.post(f"/clubs/{club['id']}/leagues", {"name": "L", "season": f"2026{name}"}), 422)
    document = {"engine": "pig", "seats": [{"name": name}, {"name": "Bob"}]}
    _problem(api.post(f"/clubs/{club['id']}/games/import", document), 422)
    assert event_count(pool, game["id"]) == count


def test_names_are_stored_composed_and_trimmed(client, pig):
    club, api, _, _ = pig
    decomposed = "  Zoe\u0301 "
    player = api.post(f"/clubs/{club['id']}/players", {"name": decomposed}).get_json()
    assert player["name"] == "Zo\u00e9"
    again = api.post(f"/clubs/{club['id']}/players", {"name": "Zo\u00e9"})
    assert again.status_code == 409, again.get_json()
