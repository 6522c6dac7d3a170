"""The history formats (BG Stats JSON, BoardGameGeek XML, CSV) and restore,
fuzzed: files whose every field is drawn from the odd values of its type (and
from other types), whatever a hand-edited or hostile file may hold. The answer
is a 2xx or a 4xx naming what is wrong, never a 5xx, and a refusal stores
nothing."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from xml.etree import ElementTree

from hypothesis import given
from hypothesis import strategies as st

from tests.factories import ClubFactory
from tests.web.test_form_fuzz import FUZZ, TEXT

# -- values by type ---------------------------------------------------------------

ANY_JSON = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(),
        st.sampled_from([10**400, 2**63, -(2**63) - 1, 1e308, -1e308]),
        TEXT,
    ),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
NUMBER_TEXT = st.sampled_from(
    ["", "0", "1", "2", "-1", "1.5", "30", "nan", "inf", "-inf", "1e308", "1e400", "9" * 40, "abc", " 7 "]
)
ODD_NUMBER = st.one_of(st.integers(), st.floats(), NUMBER_TEXT, ANY_JSON)
DAY = st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2030, 12, 31)).map(dt.date.isoformat)
ODD_DAY = st.one_of(
    st.dates().map(dt.date.isoformat),
    st.sampled_from(["0001-01-01", "9999-12-31", "2024-02-30", "2024-13-01", "yesterday", ""]),
    TEXT,
)
GAME_NAMES = ["Pig", "House of Cronies", "Chancellors", "Final Decrees"]
PLAYER_NAMES = ["Ann", "Ben", "Cleo", "Dev"]
GAME = "House of Cronies"  # 3 or 4 players, any scores: a valid play is easy to write
MISSING = object()  # an odd value that leaves the field out


@st.composite
def mostly(draw, valid: dict, odd: dict, spoil: int = 2, other=ANY_JSON):
    """A record whose every field is valid but at most ``spoil`` of them,
    which take an odd value of their type, of another type (``other``), or
    are left out (a field whose valid value is ``MISSING`` is one a file may leave out):
    so that a file gets past its first checks and meets the later ones."""
    spoiled = draw(st.sets(st.sampled_from(sorted(valid)), max_size=spoil))
    record = {}
    for key, strategy in valid.items():
        if key in spoiled:
            value = draw(st.one_of(odd.get(key, other), other, st.just(MISSING)))
        else:
            value = draw(strategy)
        if value is not MISSING:
            record[key] = value
    return record


def _stored(pool) -> tuple[int, ...]:
    with pool.connection() as conn:
        return tuple(
            conn.execute(f"SELECT count(*) AS n FROM {t}").fetchone()["n"]
            for t in ("clubs", "players", "leagues", "games", "events", "result_games")
        )


def _import(client, club, filename: str, content: bytes):
    return client.post(
        f"/clubs/{club['id']}/history",
        data={"file": (io.BytesIO(content), filename)},
        headers={"Authorization": f"Bearer {club['admin_token']}"},
        content_type="multipart/form-data",
    )


def _answered(response, pool, before, sent: str) -> None:
    """Never a 5xx; a refusal names what is wrong and stores nothing."""
    body = response.get_data(as_text=True)
    assert response.status_code < 500, (response.status_code, body[:300], sent[:300])
    if response.status_code >= 400:
        assert response.get_json()["code"], body[:300]
        assert _stored(pool) == before, (body[:300], sent[:300])


# -- BG Stats ---------------------------------------------------------------------

ABSENT = st.just(MISSING)
SCORE = st.integers(0, 20)


def _bgstats_entry(ref: int):
    return mostly(
        {
            "playerRefId": st.just(ref),
            "score": SCORE,
            "rank": ABSENT,
            "winner": ABSENT,
            "startPlayer": ABSENT,
        },
        {"playerRefId": st.one_of(st.integers(-1, 9), ANY_JSON), "score": ODD_NUMBER, "rank": ODD_NUMBER},
        spoil=1,
    )


BGSTATS_PLAY = mostly(
    {
        "uuid": st.uuids().map(str),
        "playDate": DAY,
        "gameRefId": st.just(2),
        "durationMin": st.integers(0, 300),
        "comments": ABSENT,
        "ignored": ABSENT,
        "playerScores": st.lists(st.integers(1, 4), min_size=3, max_size=4, unique=True).flatmap(
            lambda refs: st.tuples(*(_bgstats_entry(r) for r in refs)).map(list)
        ),
    },
    {
        "uuid": ANY_JSON,
        "playDate": ODD_DAY,
        "gameRefId": st.one_of(st.integers(-1, 9), ANY_JSON),
        "durationMin": ODD_NUMBER,
        "comments": st.one_of(TEXT, ANY_JSON),
        "playerScores": st.lists(st.one_of(_bgstats_entry(1), ANY_JSON), max_size=3),
    },
    spoil=1,
)
BGSTATS = mostly(
    {
        "games": st.just([{"id": i, "name": n} for i, n in enumerate(GAME_NAMES, start=1)]),
        "players": st.just([{"id": i, "name": n} for i, n in enumerate(PLAYER_NAMES, start=1)]),
        "plays": st.lists(BGSTATS_PLAY, min_size=1, max_size=3),
    },
    {
        "games": st.lists(
            st.fixed_dictionaries({"id": ANY_JSON, "name": st.one_of(TEXT, ANY_JSON)}), max_size=3
        ),
        "players": st.lists(
            st.fixed_dictionaries({"id": ANY_JSON, "name": st.one_of(TEXT, ANY_JSON)}), max_size=3
        ),
        "plays": st.lists(st.one_of(BGSTATS_PLAY, ANY_JSON), max_size=3),
    },
    spoil=1,
)


@FUZZ
@given(backup=BGSTATS)
def test_a_bgstats_backup_never_answers_5xx(client, pool, backup):
    club = ClubFactory(client=client)
    content = json.dumps(backup).encode("utf-8", "surrogatepass")
    before = _stored(pool)
    _answered(_import(client, club, "backup.json", content), pool, before, repr(backup))


# -- BoardGameGeek -----------------------------------------------------------------

ATTRIBUTE = st.one_of(TEXT, NUMBER_TEXT).map(lambda t: "".join(c for c in t if c.isprintable() or c == " "))


def _bgg_player(name: str):
    return mostly(
        {
            "name": st.just(name),
            "score": SCORE.map(str),
            "win": ABSENT,
            "startposition": ABSENT,
            "username": ABSENT,
        },
        {"score": st.one_of(NUMBER_TEXT, ATTRIBUTE), "win": st.sampled_from(["0", "1", "yes"])},
        spoil=1,
        other=ATTRIBUTE,
    )


BGG_PLAY = st.fixed_dictionaries(
    {
        "attributes": mostly(
            {
                "id": st.integers(1, 10**6).map(str),
                "date": DAY,
                "quantity": ABSENT,
                "length": st.integers(0, 300).map(str),
                "incomplete": ABSENT,
            },
            {
                "date": ODD_DAY.map(lambda t: "".join(c for c in t if c.isprintable())),
                # How often the play counts: odd values, not counts that make the file large.
                "quantity": st.sampled_from(["", "0", "-1", "2", "3", "1.5", "abc", "nan", "inf", "1e400"]),
                "length": st.one_of(NUMBER_TEXT, ATTRIBUTE),
                "incomplete": st.sampled_from(["0", "1", ""]),
            },
            spoil=1,
            other=ATTRIBUTE,
        ),
        "game": st.one_of(st.just(GAME), st.just(GAME), st.sampled_from(GAME_NAMES), st.none(), ATTRIBUTE),
        "players": st.lists(st.sampled_from(PLAYER_NAMES), min_size=3, max_size=4, unique=True).flatmap(
            lambda names: st.tuples(*(_bgg_player(n) for n in names)).map(list)
        ),
        "comments": st.one_of(st.none(), ATTRIBUTE),
    }
)


def _bgg_xml(plays: list[dict]) -> bytes:
    root = ElementTree.Element("plays")
    for play in plays:
        element = ElementTree.SubElement(root, "play", play["attributes"])
        if play["game"] is not None:
            ElementTree.SubElement(element, "item", {"name": play["game"]})
        players = ElementTree.SubElement(element, "players")
        for player in play["players"]:
            ElementTree.SubElement(players, "player", player)
        if play["comments"] is not None:
            ElementTree.SubElement(element, "comments").text = play["comments"]
    return ElementTree.tostring(root, encoding="utf-8")


@FUZZ
@given(plays=st.lists(BGG_PLAY, min_size=1, max_size=3))
def test_a_boardgamegeek_export_never_answers_5xx(client, pool, plays):
    club = ClubFactory(client=client)
    content = _bgg_xml(plays)
    before = _stored(pool)
    _answered(_import(client, club, "plays.xml", content), pool, before, repr(plays))


# -- CSV ----------------------------------------------------------------------------

CELL = st.one_of(TEXT, NUMBER_TEXT)
CSV_COLUMNS = ["date", "game", "player", "score", "place", "minutes", "note", "play", "options"]


@st.composite
def csv_play(draw) -> list[dict]:
    """The rows of one play: the same day and game, a row per player."""
    day = draw(DAY)
    names = draw(st.lists(st.sampled_from(PLAYER_NAMES), min_size=3, max_size=4, unique=True))
    row = {
        "date": st.just(day),
        "game": st.just(GAME),
        "score": SCORE.map(str),
        "place": st.just(""),
        "minutes": st.just(""),
        "note": st.just(""),
        "play": st.just(""),
        "options": st.just(""),
    }
    odd = {
        "date": ODD_DAY,
        "game": st.sampled_from([*GAME_NAMES, "house of cronies"]),
        "player": st.sampled_from(["ann", "Ann ", "Zoe\u0301"]),
        "score": st.one_of(NUMBER_TEXT, CELL),
        "place": st.one_of(NUMBER_TEXT, CELL),
        "minutes": st.one_of(NUMBER_TEXT, CELL),
        "play": st.sampled_from(["1", "2", "x"]),
        "options": st.sampled_from(["{}", '{"first_speaker": 1}', '{"x": [1]}', "[]", "{", "null"]),
    }
    return [draw(mostly({**row, "player": st.just(n)}, odd, spoil=1, other=CELL)) for n in names]


@FUZZ
@given(plays=st.lists(csv_play(), min_size=1, max_size=2), columns=st.permutations(CSV_COLUMNS))
def test_a_csv_history_never_answers_5xx(client, pool, plays, columns):
    club = ClubFactory(client=client)
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, fieldnames=columns)
    writer.writeheader()
    writer.writerows(row for play in plays for row in play)
    content = out.getvalue().encode("utf-8", "surrogatepass")
    before = _stored(pool)
    _answered(_import(client, club, "plays.csv", content), pool, before, out.getvalue())


# -- restore ------------------------------------------------------------------------

OLD_PLAYERS = [{"id": f"p{i}", "name": n} for i, n in enumerate(PLAYER_NAMES[:3], start=1)]
OLD_ID = st.one_of(st.sampled_from(["p1", "p2", "p3", "l1", "p9"]), ANY_JSON)
LEAGUE = mostly(
    {
        "id": st.just("l1"),
        "name": st.just("Autumn"),
        "engine": st.just("house-of-cronies"),
        "season": st.just(None),
        "points_table": st.just(None),
        "min_games": st.just(0),
        "public": st.just(False),
    },
    {"name": TEXT, "engine": st.sampled_from(["pig", "chess", ""]), "season": TEXT, "min_games": ODD_NUMBER},
    spoil=1,
)
HEADER = mostly(
    {
        "format": st.just("tablerecord.club/1"),
        "club": st.just({"name": "Club"}),
        "players": st.just(OLD_PLAYERS),
        "leagues": st.lists(LEAGUE, max_size=1),
    },
    {
        "club": st.fixed_dictionaries({"name": st.one_of(TEXT, ANY_JSON)}),
        "players": st.lists(
            st.fixed_dictionaries({"id": OLD_ID, "name": st.one_of(TEXT, ANY_JSON)}), max_size=3
        ),
    },
    spoil=1,
)


@st.composite
def result_line(draw) -> dict:
    scores = draw(st.permutations([5, 9, 12]))
    seats = [
        draw(
            mostly(
                {
                    "player": st.just(p["id"]),
                    "score": st.just(s),
                    "place": st.just(1 + sum(o > s for o in scores)),
                },
                {"player": OLD_ID, "score": ODD_NUMBER, "place": ODD_NUMBER},
                spoil=1,
            )
        )
        for p, s in zip(OLD_PLAYERS, scores, strict=True)
    ]
    return draw(
        mostly(
            {
                "engine": st.just("house-of-cronies"),
                "played_on": DAY,
                "players": st.just(seats),
                "minutes": st.integers(0, 300),
                "note": st.just(None),
                "league": st.sampled_from([None, "l1"]),
                "ended_by": st.just(None),
                "options": st.just({}),
                "status": st.sampled_from(["recorded", "retracted"]),
            },
            {
                "engine": st.sampled_from(["pig", "chancellors", "chess", ""]),
                "played_on": ODD_DAY,
                "minutes": ODD_NUMBER,
                "note": TEXT,
                "league": OLD_ID,
                "ended_by": TEXT,
            },
            spoil=1,
        )
    )


GAME_LINE = mostly(
    {
        "engine": st.just("pig"),
        "seats": st.just([{"player": "p1"}, {"player": "p2"}]),
        "commands": st.just([]),
        "status": st.just("active"),
        "dealer": st.just("table"),
        "league": st.just(None),
    },
    {
        "engine": st.sampled_from(["house-of-cronies", "chess", ""]),
        "seats": st.lists(
            st.fixed_dictionaries({"player": OLD_ID}, optional={"seat": ODD_NUMBER}), max_size=3
        ),
        "commands": st.lists(ANY_JSON, max_size=3),
        "status": st.sampled_from(["finished", "abandoned", ""]),
        "dealer": st.sampled_from(["server", ""]),
        "league": OLD_ID,
    },
    spoil=1,
)
LINE = st.one_of(result_line().map(lambda r: {"result": r}), GAME_LINE.map(lambda g: {"game": g}), ANY_JSON)


@FUZZ
@given(header=HEADER, line=LINE)
def test_a_restore_never_answers_5xx(client, pool, header, line):
    content = (json.dumps(header) + "\n" + json.dumps(line) + "\n").encode("utf-8", "surrogatepass")
    before = _stored(pool)
    response = client.post(
        "/clubs/restore",
        data={"file": (io.BytesIO(content), "club.ndjson")},
        content_type="multipart/form-data",
    )
    _answered(response, pool, before, content.decode("utf-8", "surrogatepass"))
