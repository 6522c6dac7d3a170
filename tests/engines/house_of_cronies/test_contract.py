"""The engine contract: random legal play in both dealer modes, views,
redaction, descriptions, luck, statistics and snapshots."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engines.base import Event, fold
from engines.chance import deal
from engines.house_of_cronies import ENGINE
from engines.house_of_cronies import events as ev
from engines.house_of_cronies.catalog import parse_catalog
from engines.house_of_cronies.schemas import COMMANDS, OPTIONS
from engines.house_of_cronies.state import OVER
from tests.engine_contract import PlayedGame, apply, play_random_game

from .builders import config, cor, inf

NAMES = ["Baleka", "Thuli", "Pravin", "Jacob"]
ALL_EVENTS = [v for k, v in vars(ev).items() if k.isupper() and isinstance(v, str)]


def play_table_game(seats: int, seed: int, check_every: int = 25, max_steps: int = 5000) -> PlayedGame:
    """Random play with ``dealer: "table"``: the recorder picks each draw from
    ``legal_commands(state, None)`` and every player's move from their legal commands.
    Every command is also checked against its marshmallow schema."""
    rng = random.Random(seed)
    cfg = config(seats, dealer="table", first_speaker=seed % seats)
    game = PlayedGame(cfg)
    state = ENGINE.initial_state(cfg)
    for event in ENGINE.setup(cfg):
        state = ENGINE.evolve(state, event)
        game.events.append(event)
    while not ENGINE.outcome(state).finished:
        assert game.steps < max_steps, "game did not end"
        if ENGINE.chance(state) is not None:
            options = ENGINE.legal_commands(state, None)
            assert all(ENGINE.legal_commands(state, s) == [] for s in range(seats))
        else:
            options = [c for s in range(seats) for c in ENGINE.legal_commands(state, s)]
            assert ENGINE.legal_commands(state, None) == []
        assert options, "nobody can act in an unfinished game"
        command = rng.choice(options)
        fields = {k: v for k, v in command.items() if k not in ("type", "seat")}
        COMMANDS[command["type"]]().load(fields)
        state, events = apply(ENGINE, state, command)
        game.events.extend(events)
        game.steps += 1
        if game.steps % check_every == 0:
            assert fold(ENGINE, cfg, game.events) == state
            assert ENGINE.load_state(json.loads(json.dumps(ENGINE.dump_state(state))), cfg) == state
    game.state = state
    assert fold(ENGINE, cfg, game.events) == state
    return game


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("seed", range(12))
def test_random_games_with_the_server_dealing_end_and_replay_equals_live_state(seats, seed):
    game = play_random_game(ENGINE, config(seats, first_speaker=seed % seats), seed, check_every=20)
    outcome = ENGINE.outcome(game.state)
    assert outcome.finished and outcome.ended_by == "election"
    assert len(outcome.places) == seats and min(outcome.places) == 1


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("seed", range(12))
def test_random_games_recorded_at_a_table_end_and_replay_equals_live_state(seats, seed):
    game = play_table_game(seats, seed)
    assert ENGINE.outcome(game.state).finished


@pytest.fixture(scope="module")
def games() -> list[PlayedGame]:
    return [
        play_random_game(ENGINE, config(seats), seed, check_every=10_000)
        for seed in range(6)
        for seats in (3, 4)
    ]


def test_every_event_kind_happens_and_is_described_in_plain_english(games):
    seen = Counter(e.type for g in games for e in g.events)
    missing = (
        set(ALL_EVENTS) - set(seen) - {ev.TACTIC_DRAW_FORFEITED, ev.VOTES_COUNTED}
    )  # read only in old games
    assert not missing
    for g in games:
        for event in g.events:
            line = ENGINE.describe(event, NAMES[: g.config.seats])
            assert line and line != event.type and line.endswith(".")


def test_statistics_count_what_happened(games):
    for g in games:
        stats = ENGINE.statistics(g.state)
        won = Counter(e.data["seat"] for e in g.events if e.type == ev.BID_WON)
        played = Counter(e.data["seat"] for e in g.events if e.type == ev.TACTIC_PLAYED)
        cancelled = Counter(e.data["seat"] for e in g.events if e.type == ev.TACTIC_CANCELLED)
        names = {
            seat: [
                g.state.card(e.data["card"]).name
                for e in g.events
                if e.type == ev.BID_WON and e.data["seat"] == seat
            ]
            for seat in range(g.config.seats)
        }
        for seat, row in enumerate(stats["seats"]):
            assert row["cronies_won"] == won[seat]
            assert row["cronies_won_names"] == names[seat]
            assert row["tactics_played"] == played[seat]
            assert row["tactics_cancelled"] == cancelled[seat]
            assert row["votes"] == g.state.votes[seat]


def test_a_finished_game_view_shows_everything(games):
    state = games[0].state
    assert state.stage == OVER
    view = ENGINE.view(state, None)
    assert all("hand" in p for p in view["players"]) and "main_deck" in view
    json.dumps(view)


def mid_game(seed=3, steps=60):
    cfg = config(4)
    rng = random.Random(seed)
    state = ENGINE.initial_state(cfg)
    events = []
    for event in ENGINE.setup(cfg):
        state = ENGINE.evolve(state, event)
    for _ in range(steps):
        request = ENGINE.chance(state)
        if request is not None:
            command = deal(request, rng)
        else:
            command = rng.choice([c for s in range(4) for c in ENGINE.legal_commands(state, s)])
        state, more = apply(ENGINE, state, command)
        events += more
    return state, events


def test_a_view_hides_other_hands_and_the_decks():
    state, _ = mid_game()
    mine = ENGINE.view(state, 1)
    assert mine["players"][1]["hand"] == list(state.players[1].hand)
    assert mine["players"][1]["tactics"] == list(state.players[1].tactics)
    for seat in (0, 2, 3):
        assert "hand" not in mine["players"][seat] and "tactics" not in mine["players"][seat]
        assert mine["players"][seat]["hand_size"] == len(state.players[seat].hand)
    assert "main_deck" not in mine and mine["main_deck_size"] == len(state.main_deck)
    spectator = ENGINE.view(state, None)
    assert all("hand" not in p for p in spectator["players"])
    assert spectator["table"] == list(state.table) and spectator["main_discard"] == list(state.main_discard)
    text = json.dumps(spectator)
    assert not any(card in text for card in state.main_deck)
    for seat in range(4):
        assert not any(card in text for card in state.players[seat].hand)


def test_drawn_cards_are_redacted_for_everyone_else():
    event = Event(ev.CARDS_DRAWN, {"deck": "main", "seat": 2, "cards": [inf(1), cor(3)]})
    assert ENGINE.redact(event, 2) == event
    for seat in (0, None):
        hidden = ENGINE.redact(event, seat)
        assert "cards" not in hidden.data and hidden.data["count"] == 2
        assert ENGINE.describe(hidden, NAMES) == "Pravin draws 2 main-deck cards."
    laid = Event(ev.CARDS_LAID_OUT, {"round": 1, "cards": [inf(1)]})
    assert ENGINE.redact(laid, 0) == laid


def test_luck_ranks_a_draw_against_every_draw_from_the_same_pool():
    state = ENGINE.initial_state(config(4))
    # worth: an influence/corruption card's value, a crony's or ally's votes
    best = max(state.main_deck, key=lambda c: state.card(c).value or state.card(c).votes)
    worst = min(state.main_deck, key=lambda c: state.card(c).value or state.card(c).votes)
    assert state.card(best).value == 7 and state.card(worst).votes == -2
    high = ENGINE.luck(state, Event(ev.CARDS_DRAWN, {"deck": "main", "seat": 1, "cards": [best]}))
    low = ENGINE.luck(state, Event(ev.CARDS_DRAWN, {"deck": "main", "seat": 1, "cards": [worst]}))
    assert 0.9 < high[1] <= 1 and 0 <= low[1] < 0.1
    tactics = Event(ev.CARDS_DRAWN, {"deck": "tactics", "seat": 0, "cards": ["tactic-hawks-1"]})
    assert ENGINE.luck(state, tactics) == {0: 0.5}
    assert ENGINE.luck(state, Event(ev.CARDS_LAID_OUT, {"round": 1, "cards": [best]})) == {}
    assert ENGINE.luck(state, Event(ev.BID_PASSED, {"seat": 0})) == {}


def test_state_survives_a_json_snapshot():
    state, _ = mid_game(seed=5, steps=120)
    data = json.loads(json.dumps(ENGINE.dump_state(state)))
    assert "catalog" not in data
    assert ENGINE.load_state(data, config(4)) == state


def test_the_options_schema_defaults_the_first_speaker():
    assert OPTIONS().load({}) == {"first_speaker": 0}
    assert ENGINE.initial_state(config(4, first_speaker=2)).speaker == 2


def test_the_catalog_in_a_game_is_the_one_in_its_config():
    data = config(4).catalog
    data["cronies"][0]["votes"] = 9
    state = ENGINE.initial_state(config(4).__class__(seats=4, catalog=data))
    assert state.card("crony-01").votes == 9
    assert parse_catalog(config(4).catalog).card("crony-01").votes == 5


def test_the_registry_and_the_schemas_find_the_engine():
    from engines.base import Engine
    from engines.registry import game, get

    engine = get("house-of-cronies")
    assert isinstance(engine, Engine)
    assert (engine.id, engine.version, engine.catalog_kind) == ("house-of-cronies", "1", "house-of-cronies")
    assert set(game("house-of-cronies").commands) >= {"PlaceBid", "PassBid", "PlayTactic", "DrawCards"}
