"""A club holding every kind of content the service keeps goes out as its
backup and comes back whole: everything a member can read is the same in the
restored club, and in a club restored from the restored club's backup. A live
game whose recorder sees only public information goes out sealed and goes on
in the restored club with the same hands."""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import io
import json
import random
import re

import pytest

from engines import registry
from engines.base import GameConfig
from engines.chance import deal
from service.app import create_app
from service.records.club.catalogs import default_catalog
from tests.api.test_full_games import play_through_api
from tests.factories import Api, ClubFactory
from tests.web.helpers import sign_in
from tests.workers.helpers import drain

NAMES = ["Ann", "Ben", "Cleo", "Dev", "Eve", "Finn"]
HISTORY = "tests/data/history/plays.csv"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
#: A moment the service stamps as it records (a restore records anew); days stay.
MOMENT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?|\b\d\d:\d\d\b")
#: What a member reads that says where or when the service recorded, not what was played.
RECORDING = {"position", "positions", "minutes", "recorded_at", "created_at", "version", "next_after_version"}


def played(engine_id: str, dealer: str, rng: random.Random, catalog: dict | None = None) -> dict:
    """A whole game's document, played to its end by the engine alone from random legal commands."""
    engine, game = registry.get(engine_id), registry.game(engine_id)
    options = game.options().load(dict(game.trial.options))
    content = catalog or (default_catalog(engine_id) if engine.catalog_kind else None)
    config = GameConfig(game.trial.seats, options, dealer, content)
    state = engine.initial_state(config)
    for event in engine.setup(config):
        state = engine.evolve(state, event)
    commands = []
    while not engine.outcome(state).finished:
        request = engine.chance(state)
        if request is not None:
            command = {**deal(request, rng), "seat": None}
        else:
            command = rng.choice([c for s in range(config.seats) for c in engine.legal_commands(state, s)])
        for event in engine.decide(state, command):
            state = engine.evolve(state, event)
        commands.append(
            {"seat": command["seat"], "command": {k: v for k, v in command.items() if k != "seat"}}
        )
    return {
        "engine": engine_id,
        "seats": [{"name": NAMES[(i + len(commands)) % len(NAMES)]} for i in range(config.seats)],
        "options": options,
        "dealer": dealer,
        "commands": commands,
        **({"catalog": {"id": catalog["id"], "version": catalog["version"]}} if catalog else {}),
    }


def act(api: Api, game_id: str, rng: random.Random, steps: int) -> None:
    """``steps`` legal actions of whoever ``api`` may act for."""
    for _ in range(steps):
        legal = api.get(f"/games/{game_id}/legal-actions").get_json()
        offered = [a for actions in legal["seats"].values() for a in actions]
        if not offered:
            return
        r = api.post(
            f"/games/{game_id}/actions", {**rng.choice(offered), "expected_version": legal["version"]}
        )
        assert r.status_code == 201, r.get_json()


def build_club(client) -> dict:
    """A club with every kind of content: what the test reads it by."""
    rng = random.Random(34)
    club = ClubFactory(client=client, name="Round Trip Club")
    api = Api(client, club["admin_token"])
    base = f"/clubs/{club['id']}"
    players = {n: api.post(f"{base}/players", {"name": n}).get_json()["id"] for n in NAMES}
    leagues = {
        name: api.post(f"{base}/leagues", {"name": name, "engine": engine, "season": "2026", "min_games": 1})
        for name, engine in (("Pig nights", "pig"), ("Cronies", "house-of-cronies"), ("Open", None))
    }
    leagues = {name: r.get_json()["id"] for name, r in leagues.items()}

    # The club's own card catalog, and a finished game played with it.
    ours = copy.deepcopy(default_catalog("house-of-cronies"))
    ours.update(id="tuesday-printed", version=1, reconstruction=False)
    assert api.post(f"{base}/catalogs", {"kind": "house-of-cronies", "content": ours}).status_code == 201
    documents = [played("house-of-cronies", "table", rng, catalog=ours)]
    # Every game of the registry finished, dealt by the service and at the table.
    documents += [played(e, d, rng) for e in registry.available() for d in ("server", "table")]
    for document in documents:
        league = {"pig": leagues["Pig nights"], "house-of-cronies": leagues["Cronies"]}.get(
            document["engine"], leagues["Open"]
        )
        r = api.post(f"{base}/games/import", {**document, "league": league})
        assert r.status_code == 201, r.get_json()

    # Pig played through the API, one game with a retraction.
    pig = api.post(
        f"{base}/games",
        {
            "engine": "pig",
            "seats": [players["Ann"], players["Ben"]],
            "dealer": "table",
            "league": leagues["Pig nights"],
            "options": {"target": 20},
        },
    ).get_json()
    act(api, pig["id"], rng, 6)
    assert api.post(f"/games/{pig['id']}/retract", {"to_version": 4}).status_code in (200, 201)
    play_through_api(api, pig["id"], rng)

    # Every game of the registry live, in both dealing modes.
    for index, engine_id in enumerate(registry.available()):
        trial = registry.game(engine_id).trial
        for dealer in ("server", "table"):
            seats = [players[NAMES[(index + k) % len(NAMES)]] for k in range(trial.seats)]
            live = api.post(
                f"{base}/games",
                {"engine": engine_id, "seats": seats, "dealer": dealer, "options": dict(trial.options)},
            )
            assert live.status_code == 201, live.get_json()
            act(api, live.get_json()["id"], rng, 3)

    # A live game whose recorder sees only public information, its seats acting for themselves.
    sealed = api.post(
        f"{base}/games",
        {
            "engine": "house-of-cronies",
            "seats": [players[n] for n in ("Ann", "Ben", "Cleo")],
            "dealer": "server",
            "admin_spectator": True,
            "league": leagues["Cronies"],
        },
    ).get_json()
    for _ in range(4):
        for token in sealed["seat_tokens"]:
            act(Api(client, token["token"]), sealed["id"], rng, 1)

    # Results alone: with scores, with places only, one retracted.
    scored = {
        "engine": "pig",
        "league": leagues["Pig nights"],
        "played_on": "2026-09-01",
        "minutes": 25,
        "options": {"target": 12},
        "players": [{"player": players["Cleo"], "score": 14}, {"player": players["Dev"], "score": 3}],
    }
    assert api.post(f"{base}/results", scored).status_code == 201
    placed = {
        "engine": "house-of-cronies",
        "league": leagues["Cronies"],
        "played_on": "2026-09-02",
        "players": [{"player": players[n], "place": p} for n, p in (("Ann", 2), ("Eve", 1), ("Finn", 3))],
    }
    assert api.post(f"{base}/results", placed).status_code == 201
    dropped = api.post(f"{base}/results", {**scored, "played_on": "2026-09-03"}).get_json()
    assert api.post(f"/games/{dropped['id']}/result/retract", {}).status_code == 200

    # Imported history.
    with open(HISTORY, "rb") as file:
        r = client.post(
            f"{base}/history",
            data={
                "file": (file, "plays.csv"),
                "league": leagues["Cronies"],
                "skip_unknown_games": "true",
                "mapping": json.dumps({"HoC": "house-of-cronies"}),
            },
            headers=api.headers(),
            content_type="multipart/form-data",
        )
    assert r.status_code == 201, r.get_json()

    # A tournament: its players entered, a round seated, one table logged by its result.
    cup = api.post(
        f"{base}/tournaments",
        {"name": "Winter Cup", "engine": "house-of-cronies", "rounds": 2, "league": leagues["Cronies"]},
    ).get_json()
    for name in NAMES:
        assert api.post(f"/tournaments/{cup['id']}/players", {"player": players[name]}).status_code == 200
    seated = api.post(f"/tournaments/{cup['id']}/rounds").get_json()
    first, *others = seated["played"][-1]["tables"]
    assert others, "a table is left to play"
    body = {"players": [{"player": s["player"], "place": i} for i, s in enumerate(first["players"], start=1)]}
    assert api.post(f"/tournaments/{cup['id']}/tables/{first['table']}/result", body).status_code == 200

    # A game night tonight: members' answers (one changed), who came, a table logged by its result.
    night = api.post(
        f"{base}/game-nights",
        {"day": dt.date.today().isoformat(), "time": "19:30", "place": "The back room", "games": ["pig"]},
    ).get_json()
    for name, answers in (("Ann", ("maybe", "yes")), ("Ben", ("no",)), ("Cleo", ("yes",))):
        member = Api(client, api.post(f"{base}/players/{players[name]}/sign-in").get_json()["token"])
        for answer in answers:
            r = member.post(f"/game-nights/{night['id']}/answer", {"answer": answer, "games": ["pig"]})
            assert r.status_code == 200, r.get_json()
    came = [players[n] for n in ("Ann", "Cleo", "Dev")]
    assert api.post(f"/game-nights/{night['id']}/present", {"players": came}).status_code == 200
    table = {"engine": "pig", "players": [{"player": p, "place": i} for i, p in enumerate(came[:2], start=1)]}
    r = api.post(f"/game-nights/{night['id']}/tables/result", table)
    assert r.status_code == 200, r.get_json()

    # A retired player, a closed league, a member's sign-in.
    assert (
        api.client.patch(
            f"{base}/players/{players['Finn']}", json={"retired": True}, headers=api.headers()
        ).status_code
        == 200
    )
    assert (
        api.client.patch(
            f"{base}/leagues/{leagues['Pig nights']}", json={"closed": True}, headers=api.headers()
        ).status_code
        == 200
    )
    member = api.post(f"{base}/players/{players['Ann']}/sign-in").get_json()
    return {"club": club, "sealed": sealed, "member": member}


def scrub(value, names: dict[str, str] | None = None):
    """What a member reads, without what only says when or where it was
    recorded: a player's or league's id by its name (``names``), any other id
    and every moment the service stamped as it recorded left out."""
    names = names or {}
    text = value if isinstance(value, str) else json.dumps(without_recording(value), sort_keys=True)
    text = MOMENT.sub("<moment>", UUID.sub(lambda m: names.get(m.group(0), "<id>"), text))
    return text if isinstance(value, str) else json.loads(text)


def without_recording(value):
    if isinstance(value, dict):
        return {k: without_recording(v) for k, v in value.items() if k not in RECORDING}
    if isinstance(value, list):
        return [without_recording(v) for v in value]
    return value


def without_played_at(step: dict) -> dict:
    """A game recorded move by move was played the day it first ended; restored,
    its creation says that day outright (``played_at``), which the day shown
    everywhere (compared through search, profiles and plays.csv) already is."""
    if step.get("type") != "GameCreated":
        return step
    return {**step, "data": {k: v for k, v in step["data"].items() if k != "played_at"}}


def readable(client, database_url, club_id: str, token: str) -> dict:
    """Everything a member of the club can read, by names."""
    drain(database_url)
    api = Api(client, token)
    out = {}
    players = api.get(f"/clubs/{club_id}/players").get_json()
    leagues = api.get(f"/clubs/{club_id}/leagues").get_json()
    names = {p["id"]: f"player {p['name']}" for p in players} | {
        league["id"]: f"league {league['name']}" for league in leagues
    }

    def read(path: str):
        return scrub(api.get(path).get_json(), names)

    def text(path: str) -> list[str]:
        return scrub(api.get(path).get_data(as_text=True).splitlines(), names)

    out["players"] = scrub(players, names)
    out["leagues"] = scrub(leagues, names)
    for league in leagues:
        key = league["name"]
        out[f"standings {key}"] = read(f"/leagues/{league['id']}/standings")
        out[f"statistics {key}"] = by_names(read(f"/leagues/{league['id']}/statistics"))
        out[f"rating history {key}"] = read(f"/leagues/{league['id']}/rating-history")
        out[f"standings.csv {key}"] = text(f"/leagues/{league['id']}/standings.csv")
        out[f"plays.csv {key}"] = sorted(text(f"/leagues/{league['id']}/plays.csv"))
    for player in players:
        out[f"profile {player['name']}"] = read(f"/players/{player['id']}/profile")
    for query in ("", "status=finished", "status=live", "engine=pig", f"winner={players[0]['id']}"):
        first = api.get(f"/clubs/{club_id}/games/search?{query}").get_json()
        found = [
            json.dumps(game, sort_keys=True)
            for page in range(1, first["pages"] + 1)
            for game in read(f"/clubs/{club_id}/games/search?{query}&page={page}")["games"]
        ]
        out[f"search {scrub(query, names)}"] = (first["total"], sorted(found))
    out["plays.csv"] = sorted(text(f"/clubs/{club_id}/plays.csv"))
    replays = []
    for game in api.get(f"/clubs/{club_id}/games").get_json():
        replay = api.get(f"/games/{game['id']}/replay?limit=1000")
        # A backup carries the commands in force: a retracted step is not in it.
        steps = (
            [
                {k: v for k, v in without_played_at(s).items() if k not in ("step", "retracted_by")}
                for s in replay.get_json()["steps"]
                if s.get("retracted_by") is None and s["type"] != "ActionsRetracted"
            ]
            if replay.status_code == 200
            else replay.get_json()["code"]
        )
        replays.append(json.dumps(scrub([game, steps], names), sort_keys=True))
    out["replays"] = sorted(replays)
    out["results"] = sorted(json.dumps(r, sort_keys=True) for r in read(f"/clubs/{club_id}/results"))
    out["tournaments"] = read(f"/clubs/{club_id}/tournaments")
    out["nights"] = read(f"/clubs/{club_id}/game-nights")
    tournaments = api.get(f"/clubs/{club_id}/tournaments").get_json()
    nights = api.get(f"/clubs/{club_id}/game-nights").get_json()
    assert tournaments and nights, "the club holds a tournament and a game night"
    # Their tables' games by what was played there (the games' ids are made anew).
    games_of = {
        g["id"]: f"game {g['engine']} {g['status']}" for g in api.get(f"/clubs/{club_id}/games").get_json()
    }
    names_and_games = {**names, **games_of}
    web = client.application.test_client()
    sign_in(web, token)
    for t in tournaments:
        out[f"tournament {t['name']}"] = scrub(api.get(f"/tournaments/{t['id']}").get_json(), names_and_games)
        out[f"tournament page {t['name']}"] = scrub(web_page(web, f"/tournament/{t['id']}"), names_and_games)
    for n in nights:
        out[f"night {n['place']}"] = scrub(api.get(f"/game-nights/{n['id']}").get_json(), names_and_games)
        out[f"night page {n['place']}"] = scrub(web_page(web, f"/game-night/{n['id']}"), names_and_games)
    page = scrub(web.get(f"/club/{club_id}").get_data(as_text=True), names)
    page = live_from(re.sub(r'name="csrf_token" value="[^"]+"', "", page))
    # Its lists of games by their length: which games the latest ones are
    # follows when each was played, which a restore does not keep yet.
    out["club page"] = re.sub(
        r'(<ul class="games"[^>]*>)(.*?)</ul>',
        lambda m: f"{m.group(1)}{m.group(2).count('<li ')} games</ul>",
        page,
        flags=re.S,
    )
    return out


def web_page(web, path: str) -> str:
    page = web.get(path)
    assert page.status_code == 200, path
    return live_from(re.sub(r'name="csrf_token" value="[^"]+"', "", page.get_data(as_text=True)))


def live_from(page: str) -> str:
    """A page less the log position its stream follows from: a position in
    the whole service's log, which a restored club holds elsewhere."""
    page = re.sub(r"after_position=\d+", "after_position=", page)
    return re.sub(r"\"min_position\": \d+", '"min_position": ', page)


def by_names(statistics: dict) -> dict:
    """A league's statistics with its players and pairs in their names'
    order: the service lists them by the players' ids, which a restore makes anew."""
    figures = dict(statistics["statistics"])
    figures["players"] = sorted(figures["players"], key=lambda p: p["name"])
    figures["longest_winning_streaks"] = sorted(
        figures["longest_winning_streaks"], key=lambda p: (-p["streak"], p["name"])
    )
    pairs = []
    for pair in figures["head_to_head"]:
        if pair["name"] > pair["opponent_name"]:
            pair = {
                **pair,
                "player": pair["opponent"],
                "opponent": pair["player"],
                "name": pair["opponent_name"],
                "opponent_name": pair["name"],
                "ahead": pair["behind"],
                "behind": pair["ahead"],
            }
        pairs.append(pair)
    figures["head_to_head"] = sorted(pairs, key=lambda p: (p["name"], p["opponent_name"]))
    return {**statistics, "statistics": figures}


def differences(a, b, path: str = "") -> list[str]:
    """Where ``a`` and ``b`` differ, as paths with both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [
            d for k in sorted(a.keys() | b.keys()) for d in differences(a.get(k), b.get(k), f"{path}/{k}")
        ]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [
            d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in differences(x, y, f"{path}[{i}]")
        ]
    if isinstance(a, str) and isinstance(b, str) and a != b:
        at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
        return [f"{path} at {at}: {a[max(0, at - 200) : at + 200]!r} != {b[max(0, at - 200) : at + 200]!r}"]
    return [] if a == b else [f"{path}: {a!r} != {b!r}"[:600]]


def backup_of(client, club_id: str, token: str) -> bytes:
    r = Api(client, token).get(f"/clubs/{club_id}/backup.ndjson")
    assert r.status_code == 200, r.get_json()
    return r.get_data()


def restore(client, content: bytes):
    return client.post(
        "/clubs/restore",
        data={"file": (io.BytesIO(content), "club.ndjson")},
        content_type="multipart/form-data",
    )


def hands(view) -> list[str]:
    """Every card of every hand a view shows."""
    if isinstance(view, dict):
        return [c for k, v in view.items() for c in (v if k == "hand" and isinstance(v, list) else hands(v))]
    if isinstance(view, list):
        return [c for v in view for c in hands(v)]
    return []


@pytest.mark.timeout(1800)
def test_a_club_with_every_kind_of_content_backs_up_and_restores_twice_to_what_its_members_read(
    client, database_url
):
    built = build_club(client)
    club, sealed = built["club"], built["sealed"]
    original = readable(client, database_url, club["id"], club["admin_token"])

    first = backup_of(client, club["id"], club["admin_token"])
    restored = restore(client, first)
    assert restored.status_code == 201, restored.get_json()
    copy1 = restored.get_json()
    found = differences(readable(client, database_url, copy1["id"], copy1["admin_token"]), original)
    assert not found, "\n".join(found)

    second = backup_of(client, copy1["id"], copy1["admin_token"])
    again = restore(client, second)
    assert again.status_code == 201, again.get_json()
    copy2 = again.get_json()
    found = differences(readable(client, database_url, copy2["id"], copy2["admin_token"]), original)
    assert not found, "\n".join(found)

    # No token travels: the old member sign-in opens none of the restored clubs.
    member = Api(client, built["member"]["token"])
    assert member.get(f"/clubs/{copy1['id']}/players").status_code in (401, 403, 404)

    # The sealed game: its line names no card of any hand, and it goes on with the same hands.
    seats = [Api(client, t["token"]) for t in sealed["seat_tokens"]]
    before = [s.get(f"/games/{sealed['id']}").get_json() for s in seats]
    cards = {c for view in before for c in hands(view["state"])}
    assert cards, "the sealed game's seats hold cards"
    (line,) = [raw for raw in first.decode().splitlines() if "sealed" in json.loads(raw).get("game", {})]
    assert not {c for c in cards if f'"{c}"' in line}
    assert json.loads(line)["game"]["commands"] == [] and json.loads(line)["game"]["seed"] is None
    admin = Api(client, copy1["admin_token"])
    (game,) = [
        g
        for g in admin.get(f"/clubs/{copy1['id']}/games").get_json()
        if g["status"] == "active" and g.get("admin_spectator")
    ]
    assert admin.get(f"/games/{game['id']}").get_json()["viewer"] is None
    assert admin.get(f"/games/{game['id']}/export").get_json()["code"] == "admin-spectator"
    tokens = admin.post(f"/games/{game['id']}/seat-tokens").get_json()["seat_tokens"]
    after = [Api(client, t["token"]).get(f"/games/{game['id']}").get_json() for t in tokens]
    assert [hands(v["state"]) for v in after] == [hands(v["state"]) for v in before]
    assert [v["version"] for v in after] == [v["version"] for v in before]
    # Both games go on alike: the same actions offered, and the same cards dealt after them.
    rng = random.Random(5)
    restored_seats = [Api(client, t["token"]) for t in tokens]
    for _ in range(3):
        for new, old in zip(restored_seats, seats, strict=True):
            legal = new.get(f"/games/{game['id']}/legal-actions").get_json()
            assert scrub(legal) == scrub(old.get(f"/games/{sealed['id']}/legal-actions").get_json())
            offered = [a for actions in legal["seats"].values() for a in actions]
            if offered:
                action = rng.choice(offered)
                assert new.post(f"/games/{game['id']}/actions", action).status_code == 201
                assert old.post(f"/games/{sealed['id']}/actions", action).status_code == 201
        assert [hands(s.get(f"/games/{game['id']}").get_json()["state"]) for s in restored_seats] == [
            hands(s.get(f"/games/{sealed['id']}").get_json()["state"]) for s in seats
        ]


def test_a_sealed_backup_is_refused_storing_nothing_where_its_key_is_not(client, app, pool, settings):
    built = build_sealed(client)
    content = backup_of(client, built["id"], built["admin_token"])
    elsewhere = create_app(dataclasses.replace(settings, backup_seal_key=None), pool=pool)
    before = counts(pool)
    r = restore(elsewhere.test_client(), content)
    assert r.status_code == 422 and r.get_json()["code"] == "backup-seal-key-unknown", r.get_json()
    assert counts(pool) == before
    # A deployment with no key at all cannot seal, so it does not take such a backup.
    refused = Api(elsewhere.test_client(), built["admin_token"]).get(f"/clubs/{built['id']}/backup.ndjson")
    assert refused.status_code == 409 and refused.get_json()["code"] == "backup-seal-key-missing"


def test_a_sealed_game_is_restored_as_it_was_sealed_whatever_its_clear_part_says(client):
    built = build_sealed(client)
    lines = backup_of(client, built["id"], built["admin_token"]).decode().splitlines()
    game = json.loads(lines[1])
    game["game"].update(admin_spectator=False, public=True)
    r = restore(client, "\n".join([lines[0], json.dumps(game)]).encode())
    assert r.status_code == 201, r.get_json()
    copy = Api(client, r.get_json()["admin_token"])
    (restored,) = copy.get(f"/clubs/{r.get_json()['id']}/games").get_json()
    assert restored["admin_spectator"] is True and restored["public"] is False
    assert copy.get(f"/games/{restored['id']}?seat=0").get_json()["code"] == "admin-spectator"


def build_sealed(client) -> dict:
    club = ClubFactory(client=client)
    api = Api(client, club["admin_token"])
    seats = [api.post(f"/clubs/{club['id']}/players", {"name": n}).get_json()["id"] for n in NAMES[:3]]
    game = api.post(
        f"/clubs/{club['id']}/games",
        {"engine": "house-of-cronies", "seats": seats, "dealer": "server", "admin_spectator": True},
    )
    assert game.status_code == 201
    return club


def counts(pool) -> tuple:
    with pool.connection() as conn:
        return tuple(
            conn.execute(f"SELECT count(*) AS n FROM {table}").fetchone()["n"]
            for table in ("clubs", "players", "leagues", "games", "events", "catalogs", "tokens")
        )
