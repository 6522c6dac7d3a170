"""Property: no answer depends on what its reader may not see.

For every engine and every kind of reader (a seat token, a member sign-in,
the recorder who sees only public information, an anonymous viewer of a
public game), two table games that differ only in what that reader may not
see give it the same answers: the game's view and table view, its event log,
its legal actions, the game page and the scorepad with their card pickers,
refusals with their details and idempotent replays (the one bit a refusal
tells by its nature aside: an entry one game takes and the other refuses).
The recorder of a table game that is not sealed sees everything, so it has
no such pair.

A twin is made from a random game of the engine: a card its reader cannot
see is swapped with another all through the game's events, kept only when
every event and the game's view read alike to the reader (the engine's
``redact`` and ``view`` define what each reader may see) and both games
replay. Both are stored and asked the
same questions: domain functions for the reads, the API for the writes.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any
from uuid import UUID

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import registry
from engines.base import Event
from engines.chance import deal
from service.records.access import Principal
from service.records.log import store
from service.records.log.context import Records
from service.records.log.store import NewEvent
from service.records.pages import game_page, scorepad_page
from service.records.reading import game_views
from service.records.recording import states
from service.records.recording.games import config_of, get_game
from tests.factories import Api, ClubFactory, PlayerFactory, post_as_admin

#: Random steps before the twin is made, at most.
MAX_STEPS = 60
#: Cards tried as the other half of a swap.
TRIES = 8


def _swap(node: Any, a: str, b: str) -> Any:
    if node == a:
        return b
    if node == b:
        return a
    if isinstance(node, dict):
        return {k: _swap(v, a, b) for k, v in node.items()}
    if isinstance(node, list | tuple):
        return type(node)(_swap(v, a, b) for v in node)
    return node


def _strings(node: Any) -> set[str]:
    if isinstance(node, str):
        return {node}
    if isinstance(node, dict):
        node = list(node.values())
    if isinstance(node, list | tuple):
        return set().union(set(), *(_strings(v) for v in node))
    return set()


def _stored(event: Event) -> Event:
    return Event(event.type, orjson.loads(store.event_json(event.data)))


def _played(engine, state, seats: int, rng: random.Random, steps: int):
    """Random steps from ``state`` (never the one that ends the game): the
    events, the state after them and every card a pool offered."""
    events: list[Event] = []
    cards: set[str] = set()
    for _ in range(steps):
        request = engine.chance(state)
        if request is None:
            options = [c for s in range(seats) for c in engine.legal_commands(state, s)]
            if not options:
                break
            command = rng.choice(options)
        else:
            cards |= {*request.pool, *request.unseen}
            command = deal(request, rng)
        try:
            made = [_stored(e) for e in engine.decide(state, command)]
        except Exception:  # noqa: BLE001 - a random step the engine refuses is skipped
            continue
        after = state
        for event in made:
            after = engine.evolve(after, event)
        if engine.outcome(after).finished:
            break
        state, events = after, [*events, *made]
    return events, state, cards


def _twin(engine, start, events: list[Event], reader, cards: set[str], rng: random.Random):
    """``events`` with a card ``reader`` cannot see swapped with another, every
    event reading alike to ``reader``; None when no such swap replays."""
    seen = set().union(set(), *(_strings(engine.redact(e, reader).data) for e in events))
    hidden = sorted((set().union(set(), *(_strings(e.data) for e in events)) - seen) & cards)
    if not hidden:
        return None
    for _ in range(TRIES):
        a, b = rng.choice(hidden), rng.choice(sorted(cards - seen))
        if a == b:
            continue
        twin = [dataclasses.replace(e, data=_swap(e.data, a, b)) for e in events]
        if any(
            engine.redact(x, reader) != engine.redact(y, reader) for x, y in zip(events, twin, strict=True)
        ):
            continue
        try:
            state, other = start, start
            for event, swapped in zip(events, twin, strict=True):
                state, other = engine.evolve(state, event), engine.evolve(other, swapped)
        except (ValueError, KeyError, IndexError):
            continue
        if engine.view(state, reader) != engine.view(other, reader):
            continue  # the two cards play apart where the reader sees it (kinds counted, a special card)
        return twin, (a, b)
    return None


def _plain(node: Any, ids: dict[str, str]) -> Any:
    """An answer with the game's own ids, positions and times left out."""
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        node = dataclasses.asdict(node)
    if isinstance(node, dict):
        return {
            k: _plain(v, ids)
            for k, v in node.items()
            if k not in ("position", "recorded_at", "created_at", "id")
        }
    if isinstance(node, list | tuple):
        return [_plain(v, ids) for v in node]
    if isinstance(node, UUID):
        node = str(node)
    if isinstance(node, str):
        for real, alias in ids.items():
            node = node.replace(real, alias)
    return node


READERS = ("seat", "member", "spectating recorder", "anonymous")


def _games(client, engine_id: str):
    """Two sealed, public table games of ``engine_id`` at one club, with the same players."""
    trial = registry.game(engine_id).trial
    club = ClubFactory(client=client)
    players = [PlayerFactory(client=client, club=club) for _ in range(trial.seats)]
    spec = {
        "engine": engine_id,
        "seats": [p["id"] for p in players],
        "dealer": "table",
        "options": dict(trial.options),
        "public": True,
        "admin_spectator": True,
    }
    return club, players, [post_as_admin(client, club, "games", spec) for _ in range(2)]


def _principal(kind: str, club: dict, players: list[dict], game: dict, seat: int) -> Principal | None:
    club_id = UUID(club["id"])
    return {
        "seat": Principal(club_id, "seat", UUID(game["id"]), seat),
        "member": Principal(club_id, "member", player_id=UUID(players[seat]["id"])),
        "spectating recorder": Principal(club_id, "admin"),
        "anonymous": None,
    }[kind]


def _reads(records: Records, game_id: UUID, principal: Principal | None) -> dict[str, Any]:
    """Every read the API and the pages give ``principal`` of the game."""
    answers: dict[str, Any] = {
        "view": game_views.game_view(records, game_id, principal, None, table=True),
        "events": game_views.event_page(records, game_id, principal, 0, 1000),
        "page": game_page.game_page(records, game_id, principal),
    }
    if principal is not None:
        answers["legal"] = game_views.legal_actions(records, game_id, principal)
        pad = scorepad_page.scorepad(records, game_id, principal, None, [])
        answers["scorepad"] = pad
        for choice in pad["choices"]:  # one card picked on each pad, as a tap would
            actor = "table" if choice.actor is None else str(choice.actor)
            for option in choice.options[:1]:
                if option.picks:
                    answers[f"picked {actor}"] = scorepad_page.scorepad(
                        records, game_id, principal, actor, list(option.picks)
                    )
    return answers


def _answer(response) -> tuple:
    body = response.get_json() or {}
    return (
        response.status_code,
        body.get("code"),
        body.get("detail"),
        json.dumps(body.get("details"), sort_keys=True),
        response.headers.get("Idempotent-Replayed"),
    )


@pytest.mark.parametrize("engine_id", registry.available())
@settings(
    max_examples=2,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(1, MAX_STEPS),
    kind=st.sampled_from(READERS),
    data=st.data(),
)
def test_no_answer_depends_on_what_its_reader_may_not_see(client, pool, engine_id, seed, steps, kind, data):
    records = Records(pool, 100)
    club, players, (first, second) = _games(client, engine_id)
    with pool.connection() as conn:
        record = get_game(conn, UUID(first["id"]))
        config, start = config_of(conn, record), states.load_state(conn, record)
    engine = record.engine
    seats = config.seats
    seat = data.draw(st.integers(0, seats - 1), label="seat")
    reader = seat if kind in ("seat", "member") else None
    rng = random.Random(seed)
    events, state, cards = _played(engine, start, seats, rng, steps)
    made = _twin(engine, start, events, reader, cards, rng)
    if made is None:
        return
    twin, (a, b) = made
    for game, stream in ((first, events), (second, twin)):
        with pool.connection() as conn:
            version = get_game(conn, UUID(game["id"]), lock=True).version
            meta = {"actor": "recorder", "engine": engine.id, "engine_version": engine.version}
            store.append(
                conn,
                UUID(club["id"]),
                UUID(game["id"]),
                version,
                [NewEvent(e.type, e.data, meta) for e in stream],
                "active",
            )
    ids = {first["id"]: "G", second["id"]: "G"}
    principals = [_principal(kind, club, players, g, seat) for g in (first, second)]
    reads = [
        _plain(_reads(records, UUID(g["id"]), p), ids)
        for g, p in zip((first, second), principals, strict=True)
    ]
    for key in reads[0]:
        assert reads[0][key] == reads[1][key], (
            f"{kind} {seat}: {key} differs when {a} and {b} are swapped",
            _diff(reads[0][key], reads[1][key]),
        )
    assert reads[0].keys() == reads[1].keys()
    _writes_agree(client, club, first, second, kind, seat, engine, state, (a, b))


def _writes_agree(client, club, first, second, kind, seat, engine, state, swapped) -> None:
    """The entries the reader may try, and a replay of another's key, answered alike in both games."""
    if kind == "anonymous":
        return
    if kind == "seat":
        tokens = [game["seat_tokens"][seat]["token"] for game in (first, second)]
    elif kind == "member":  # one sign-in per player: it signs the player in at both games
        player = first["seats"][seat]["player"]
        answer = Api(client, club["admin_token"]).post(f"/clubs/{club['id']}/players/{player}/sign-in")
        tokens = [answer.get_json()["token"]] * 2
    else:
        tokens = [club["admin_token"]] * 2
    request = engine.chance(state)
    entries = []
    if request is not None and request.draw:
        base = {"type": request.command, **dict(request.fixed)}
        filler = sorted(request.unseen or request.pool)
        for card in (*swapped, "made-up-card"):
            entries.append({"seat": None, "command": {**base, "cards": [card, *filler[: request.draw - 1]]}})
    entries += [
        {"seat": seat, "command": {k: v for k, v in c.items() if k != "seat"}}
        for c in engine.legal_commands(state, seat)[:2]
    ]
    for n, entry in enumerate(entries):
        answers = []
        for game, token in zip((first, second), tokens, strict=True):
            api = Api(client, token)
            replay = Api(client, club["admin_token"]).post(
                f"/games/{game['id']}/actions", entry, **{"Idempotency-Key": f"k{n}"}
            )
            answers.append(
                (
                    replay.status_code,
                    _answer(api.post(f"/games/{game['id']}/actions", entry, **{"Idempotency-Key": f"k{n}"})),
                )
            )
        if 201 in (answers[0][0], answers[1][0], answers[0][1][0], answers[1][1][0]):
            return  # one game took an entry: they differ from here on (the one bit)
        assert answers[0] == answers[1], f"{kind} {seat}: {entry} answered differently"


def _diff(one: Any, other: Any, path: str = "") -> list[str]:
    """Where two answers differ (for the failure's message)."""
    if isinstance(one, dict) and isinstance(other, dict):
        return [d for k in one.keys() | other.keys() for d in _diff(one.get(k), other.get(k), f"{path}.{k}")]
    if isinstance(one, list) and isinstance(other, list) and len(one) == len(other):
        return [
            d for i, (x, y) in enumerate(zip(one, other, strict=True)) for d in _diff(x, y, f"{path}[{i}]")
        ]
    return [] if one == other else [f"{path}: {one!r} / {other!r}"[:300]]
