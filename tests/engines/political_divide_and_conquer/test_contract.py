"""The engine contract: random legal play in both dealer modes at every seat
count, hidden information, descriptions, luck, statistics and snapshots."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engines.base import Event, GameConfig, fold
from engines.political_divide_and_conquer import ENGINE
from engines.political_divide_and_conquer import events as ev
from engines.political_divide_and_conquer.schemas import COMMANDS, OPTIONS
from engines.political_divide_and_conquer.state import OVER
from tests.engine_contract import PlayedGame, apply, play_random_game

from .builders import ANN, BO, CY, DI, catalog_dict, config, do, draw, group, keep, place, start

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
ALL_EVENTS = [v for k, v in vars(ev).items() if k.isupper() and isinstance(v, str)]


def play_table_game(seats: int, seed: int, check_every: int = 40, max_steps: int = 20_000) -> PlayedGame:
    """Random play with ``dealer: "table"``: the recorder picks each chance
    outcome from ``legal_commands(state, None)``; every command also passes its schema."""
    rng = random.Random(seed)
    cfg = config(seats, dealer="table")
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
        COMMANDS[command["type"]]().load({k: v for k, v in command.items() if k not in ("type", "seat")})
        state, events = apply(ENGINE, state, command)
        game.events.extend(events)
        game.steps += 1
        if game.steps % check_every == 0:
            assert fold(ENGINE, cfg, game.events) == state
            assert ENGINE.load_state(json.loads(json.dumps(ENGINE.dump_state(state))), cfg) == state
    game.state = state
    assert fold(ENGINE, cfg, game.events) == state
    return game


def server_config(seats: int) -> GameConfig:
    return config(seats, dealer="server")


@pytest.mark.parametrize("seats", [4, 5, 6, 7, 8])
@pytest.mark.parametrize("seed", range(2))
def test_random_games_with_the_server_dealing_end_and_replay_equals_live_state(seats, seed):
    game = play_random_game(ENGINE, server_config(seats), seed, max_steps=20_000, check_every=40)
    outcome = ENGINE.outcome(game.state)
    assert outcome.finished and outcome.ended_by == "deck-exhausted"
    assert len(outcome.places) == seats and min(outcome.places) == 1


@pytest.mark.parametrize("seats", [4, 5, 6, 7, 8])
@pytest.mark.parametrize("seed", range(2))
def test_random_games_recorded_at_a_table_end_and_replay_equals_live_state(seats, seed):
    game = play_table_game(seats, seed)
    assert ENGINE.outcome(game.state).finished


@pytest.fixture(scope="module")
def games() -> list[PlayedGame]:
    return [
        play_random_game(ENGINE, server_config(seats), seed, max_steps=20_000, check_every=10_000)
        for seed in range(4)
        for seats in (4, 8)
    ]


def test_every_event_kind_happens_and_is_described_in_plain_english(games):
    seen = Counter(e.type for g in games for e in g.events)
    missing = set(ALL_EVENTS) - set(seen) - {ev.INFLUENCE_COUNTED}  # read only in games recorded before
    assert not missing
    for g in games:
        for event in g.events:
            for seat in (None, 0):
                line = ENGINE.describe(ENGINE.redact(event, seat), NAMES[: g.config.seats])
                assert line and line != event.type and line.endswith(".")


def test_statistics_count_what_happened(games):
    for g in games:
        stats = ENGINE.statistics(g.state)
        attacks = Counter(e.data["seat"] for e in g.events if e.type == ev.ATTACK_DECLARED)
        won = Counter(
            e.data["seat"] for e in g.events if e.type == ev.ATTACK_ROLLED and e.data["result"] != "failed"
        )
        played = Counter(e.data["seat"] for e in g.events if e.type == ev.EVENT_PLAYED)
        ended = [e for e in g.events if e.type == ev.GAME_DECIDED][0]
        assert stats["attacks"] == sum(attacks.values())
        for seat, row in enumerate(stats["seats"]):
            assert (row["attacks"], row["attacks_won"], row["events_played"]) == (
                attacks[seat],
                won[seat],
                played[seat],
            )
            assert row["score"] == ended.data["scores"][seat]


def test_luck_ranks_the_attack_dice_for_the_attacker_and_a_defending_player():
    data = {"seat": ANN, "defender": BO, "dice": [6, 1], "target": "x", "result": "taken-over"}
    luck = ENGINE.luck(None, Event(ev.ATTACK_ROLLED, data))
    assert luck[ANN] > 0.95 and luck[BO] == pytest.approx(1 - luck[ANN])
    assert set(ENGINE.luck(None, Event(ev.ATTACK_ROLLED, {**data, "defender": None}))) == {ANN}
    first = ENGINE.luck(None, Event(ev.FIRST_PLAYER_ROLLED, {"seats": [0, 1], "dice": [6, 1], "first": 0}))
    assert first[0] > first[1]
    assert ENGINE.luck(None, Event(ev.TURN_ENDED, {"seat": 0, "took": "none"})) == {}


def test_a_finished_game_view_shows_everything(games):
    state = games[0].state
    assert state.stage == OVER
    view = ENGINE.view(state, None)
    assert "deck" in view and all("hand" in p for p in view["players"])
    json.dumps(view)


def test_state_survives_a_json_snapshot(games):
    cfg = server_config(8)
    state = fold(ENGINE, cfg, games[1].events[: len(games[1].events) // 2])
    data = json.loads(json.dumps(ENGINE.dump_state(state)))
    assert "catalog" not in data
    assert ENGINE.load_state(data, cfg) == state


# --- hidden information -------------------------------------------------------------

SECRET_A, SECRET_B = group("left", 6), group("right", 6)
FILLER = [group("left", 1, n) for n in range(5)]


def _twins():
    """Two games that differ only in one hidden card: Ann holds A or B (the other is in the deck)."""
    return [
        start(hands={ANN: [secret, *FILLER]}, in_deck=[SECRET_A, SECRET_B]) for secret in (SECRET_A, SECRET_B)
    ]


def _same_for_others(states, events_lists=(), seats=(BO, CY, DI, None)):
    for seat in seats:
        views = [ENGINE.view(s, seat) for s in states]
        assert views[0] == views[1]
        if seat is not None:
            assert ENGINE.legal_commands(states[0], seat) == ENGINE.legal_commands(states[1], seat)
        for pair in zip(*events_lists, strict=True):
            assert ENGINE.redact(pair[0], seat) == ENGINE.redact(pair[1], seat)


def test_two_games_that_differ_only_in_a_card_in_a_hand_look_the_same_to_everyone_else():
    states = _twins()
    _same_for_others(states)
    assert ENGINE.view(states[0], ANN) != ENGINE.view(states[1], ANN)


def test_two_games_that_differ_only_in_the_card_returned_to_the_top_look_the_same_to_everyone_else():
    runs, logs = [], []
    for kept in (SECRET_A, SECRET_B):
        state = start(hands={ANN: FILLER + [group("left", 1, 5)]}, in_deck=[SECRET_A, SECRET_B])
        state = draw(state, SECRET_A, SECRET_B)
        command = {"type": "KeepCard", "seat": ANN, "card": kept, "return_to": "top"}
        events = ENGINE.decide(state, command)
        state = do(state, command)
        more = ENGINE.decide(state, {"type": "RejectGroup", "seat": ANN, "card": FILLER[0]})
        state = do(state, {"type": "RejectGroup", "seat": ANN, "card": FILLER[0]})
        runs.append(state)
        logs.append(events + more)
    # Bo then draws the returned card from the top: he alone learns it
    assert [runs[0].drawn, runs[1].drawn] == [(SECRET_B,), (SECRET_A,)]
    _same_for_others(runs, logs, seats=(CY, DI, None))
    assert ENGINE.redact(logs[0][0], BO) == ENGINE.redact(logs[1][0], BO)
    assert ENGINE.redact(logs[0][0], ANN).data["returned"] == SECRET_B


def test_a_spectator_sees_no_hand_no_kept_card_and_no_unknown_deck_card():
    state = place(start(hands={ANN: [SECRET_A, *FILLER]}), unaffiliated=[])
    a, b = [c for c in state.deck.middle if c.startswith("right")][:2]
    state = keep(draw(state, a, b), ANN, a, to="bottom")
    text = json.dumps(ENGINE.view(state, None))
    assert not any(f'"{c}"' in text for p in state.players for c in p.hand)
    assert not any(f'"{c}"' in text for c in state.deck.middle)
    assert f'"{b}"' not in text and f'"{b}"' in json.dumps(ENGINE.view(state, ANN))


# --- options, catalog, registry --------------------------------------------------------


def test_the_options_schema_holds_the_default_first_player():
    assert OPTIONS().load({}) == {"first_player": None}


def test_the_catalog_in_a_game_is_the_one_in_its_config():
    data = catalog_dict()
    data["groups"][0]["influence"] = 3
    state = ENGINE.initial_state(GameConfig(seats=4, catalog=data))
    assert state.card(data["groups"][0]["id"]).influence == 3


def test_the_registry_and_the_schemas_find_the_engine():
    from engines.base import Engine
    from engines.registry import game, get

    engine = get("political-divide-and-conquer")
    assert isinstance(engine, Engine)
    assert (engine.id, engine.catalog_kind, engine.min_seats, engine.max_seats) == (
        "political-divide-and-conquer",
        "political-divide-and-conquer",
        4,
        8,
    )
    assert set(game("political-divide-and-conquer").commands) >= {
        "DeclareAttack",
        "PlayEvent",
        "PassWindow",
    }
