"""The engine contract: random legal play in both dealer modes at every seat
count, replay, snapshots, views, hidden information, lines, luck, statistics."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import Engine, Event, fold
from engines.chance import deal
from engines.maccreedys_mansion import ENGINE
from engines.maccreedys_mansion import events as ev
from engines.maccreedys_mansion.schemas import COMMANDS, OPTIONS
from tests.engine_contract import PlayedGame, apply, as_stored, play_random_game

from .builders import NAMES, config, new_game

ALL_EVENTS = [v for k, v in vars(ev).items() if k.isupper() and isinstance(v, str)]
SEATS = range(ENGINE.min_seats, ENGINE.max_seats + 1)


def test_the_engine_implements_the_contract_and_is_registered():
    from engines.registry import game, get

    assert isinstance(ENGINE, Engine) and get("maccreedys-mansion") is ENGINE
    assert (ENGINE.id, ENGINE.catalog_kind) == ("maccreedys-mansion", "maccreedys-mansion")
    assert set(game("maccreedys-mansion").commands) == set(COMMANDS)


def test_the_options_schema_holds_every_default_and_max_rounds_is_the_house_rule():
    assert OPTIONS().load({}) == {"first_player": 0, "max_rounds": 20, "covered_rooms": []}


def play_table_game(seats: int, seed: int, max_rounds: int, check_every: int = 20) -> PlayedGame:
    """Random play with ``dealer: "table"``: the recorder picks each card from
    ``legal_commands(state, None)``; every command passes its marshmallow schema."""
    rng = random.Random(seed)
    cfg = config(seats, dealer="table", max_rounds=max_rounds, first_player=seed % seats)
    game = PlayedGame(cfg)
    state = ENGINE.initial_state(cfg)
    for event in ENGINE.setup(cfg):
        state = ENGINE.evolve(state, event)
        game.events.append(event)
    while not ENGINE.outcome(state).finished:
        assert game.steps < 5000, "game did not end"
        if ENGINE.chance(state) is not None:
            options = ENGINE.legal_commands(state, None)
            assert all(ENGINE.legal_commands(state, s) == [] for s in range(seats))
        else:
            options = [c for s in range(seats) for c in ENGINE.legal_commands(state, s)]
            assert ENGINE.legal_commands(state, None) == []
            assert len({c["seat"] for c in options}) == 1, "one seat at a time is asked"
        assert options, "nobody can act in an unfinished game"
        command = rng.choice(options)
        COMMANDS[command["type"]]().load({k: v for k, v in command.items() if k not in ("type", "seat")})
        state, events = apply(ENGINE, state, command)
        game.events.extend(events)
        game.steps += 1
        if game.steps % check_every == 0:
            assert fold(ENGINE, cfg, [as_stored(e) for e in game.events]) == state
            assert ENGINE.load_state(json.loads(json.dumps(ENGINE.dump_state(state))), cfg) == state
    game.state = state
    assert fold(ENGINE, cfg, [as_stored(e) for e in game.events]) == state
    return game


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("seed", range(4))
def test_random_games_with_the_server_dealing_end_and_replay_equals_live_state(seats, seed):
    cfg = config(seats, max_rounds=3, first_player=seed % seats)
    game = play_random_game(ENGINE, cfg, seed, check_every=25)
    outcome = ENGINE.outcome(game.state)
    assert outcome.finished and len(outcome.places) == seats and min(outcome.places) == 1
    assert game.state.round <= 3


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("seed", range(4))
def test_random_games_recorded_at_a_table_end_and_replay_equals_live_state(seats, seed):
    game = play_table_game(seats, seed, max_rounds=3)
    assert ENGINE.outcome(game.state).finished


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), seats=st.sampled_from(list(SEATS)), rounds=st.integers(1, 4))
def test_every_random_game_ends_within_the_round_limit(seed, seats, rounds):
    game = play_random_game(ENGINE, config(seats, max_rounds=rounds), seed, check_every=10_000)
    assert ENGINE.outcome(game.state).finished and game.state.round <= rounds


@pytest.fixture(scope="module")
def games() -> list[PlayedGame]:
    return [
        play_random_game(ENGINE, config(seats, max_rounds=12), seed, check_every=10_000)
        for seed in range(4)
        for seats in (2, 3, 5)
    ]


# An id as the log must not print it ("front-door-1"); a one-word id ("cellar") reads as a word.
ID_LIKE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")


def _catalog_ids(board) -> set[str]:
    return {*board.job, *board.card, *board.space, *board.location, *board.room}


def test_every_event_kind_happens_and_is_described_in_plain_english(games):
    seen = Counter(e.type for g in games for e in g.events)
    assert not set(ALL_EVENTS) - set(seen)
    for g in games:
        ids = _catalog_ids(g.state.board)
        for event in g.events:
            line = ENGINE.describe(event, NAMES[: g.config.seats])
            assert line and line != event.type and line.endswith(".")
            assert not ids & set(ID_LIKE.findall(line)), line


def test_every_way_of_ending_happens(games):
    assert {ENGINE.outcome(g.state).ended_by for g in games} >= {"mansion-restored", "round-limit"}


def test_statistics_count_what_happened(games):
    for g in games:
        stats = ENGINE.statistics(g.state)
        hired = Counter(e.data["seat"] for e in g.events if e.type == ev.WORKER_HIRED)
        closed = Counter(e.data["seat"] for e in g.events if e.type == ev.COMPANY_CLOSED)
        pay = Counter()
        for e in g.events:
            if e.type == ev.COMPANY_PAID:
                pay[e.data["seat"]] += e.data["jobs"]
        assert stats["rounds"] == g.state.round and stats["ended_by"] == g.state.ended_by
        for seat, row in enumerate(stats["seats"]):
            assert row["workers_hired"] == hired[seat]
            assert row["closures"] == closed[seat]
            assert row["job_pay"] == pay[seat]
            assert row["money"] == ENGINE.outcome(g.state).scores[seat]
            assert row["jobs_won"] == len(g.state.companies[seat].jobs)


def test_places_follow_money_among_companies_in_business(games):
    for g in games:
        outcome = ENGINE.outcome(g.state)
        standing = [s for s, c in enumerate(g.state.companies) if c.status.in_game]
        for a in standing:
            for b in standing:
                if outcome.scores[a] > outcome.scores[b]:
                    assert outcome.places[a] < outcome.places[b]


def test_a_finished_game_view_shows_the_decks(games):
    view = ENGINE.view(games[0].state, None)
    assert "job_deck" in view and "event_deck" in view
    json.dumps(view)


def test_a_view_shows_deck_sizes_but_not_their_contents():
    state = new_game(3)
    view = ENGINE.view(state, 1)
    assert "job_deck" not in view and view["job_deck_size"] == len(state.job_deck)
    assert view["event_deck_size"] == len(state.event_deck) and view["you"] == 1
    assert view["companies"][0]["money"] == 30_000 and view["catalog"]["reconstruction"] is True
    json.dumps(view)


def _first_draw_game(seed: int):
    """A server-dealt game up to the moment the first Event card is to be drawn."""
    rng = random.Random(seed)
    cfg = config(3)
    state = ENGINE.initial_state(cfg)
    events = list(ENGINE.setup(cfg))
    for event in events:
        state = ENGINE.evolve(state, event)
    script = iter([{"type": "PassHiring", "seat": s} for s in (0, 1, 2)])
    while not (state.phase == "event" and ENGINE.chance(state) is not None):
        request = ENGINE.chance(state)
        command = deal(request, random.Random(0)) if request else next(script)
        state, more = apply(ENGINE, state, command)
        events += more
    request = ENGINE.chance(state)
    return state, events, deal(request, rng)


def test_games_differing_only_in_the_next_card_look_the_same_until_it_is_drawn():
    seeds = [s for s in range(50)]
    a = _first_draw_game(seeds[0])
    b = next(g for g in (_first_draw_game(s) for s in seeds[1:]) if g[2]["cards"] != a[2]["cards"])
    for seat in (None, 0, 1, 2):
        assert ENGINE.view(a[0], seat) == ENGINE.view(b[0], seat)
        assert ENGINE.legal_commands(a[0], seat) == ENGINE.legal_commands(b[0], seat)
        assert [ENGINE.redact(e, seat) for e in a[1]] == [ENGINE.redact(e, seat) for e in b[1]]


def test_luck_ranks_a_card_against_the_deck():
    state = new_game(2)
    state = state.with_(
        phase="event", event_deck=("event-heritage-grant", "event-property-tax", "event-quiet-day")
    )
    grant = ENGINE.luck(state, Event(ev.EVENT_REVEALED, {"card": "event-heritage-grant", "round": 1}))
    tax = ENGINE.luck(state, Event(ev.EVENT_REVEALED, {"card": "event-property-tax", "round": 1}))
    quiet = ENGINE.luck(state, Event(ev.EVENT_REVEALED, {"card": "event-quiet-day", "round": 1}))
    assert grant == {0: 5 / 6, 1: 5 / 6} and tax == {0: 1 / 6, 1: 1 / 6} and quiet == {0: 0.5, 1: 0.5}
    assert ENGINE.luck(state, Event(ev.JOB_DRAWN, {"card": "job-tub", "set_aside": False})) == {}
    assert ENGINE.luck(state, Event(ev.WORKER_HIRED, {"seat": 0, "worker": "mason", "next": 1})) == {}


def test_state_survives_a_json_snapshot(games):
    g = games[4]
    state = fold(ENGINE, g.config, g.events[: len(g.events) // 2])
    data = json.loads(json.dumps(ENGINE.dump_state(state)))
    assert "board" not in data
    assert ENGINE.load_state(data, g.config) == state
