"""The engine contract: random legal play, replay, snapshots, views, luck, descriptions, schemas."""

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import Engine, Event, fold
from engines.chancellors import ENGINE
from engines.chancellors import events as ev
from engines.chancellors.cards import ABOUT, DECKTET, RANK_ORDER
from engines.chancellors.present import percentile
from engines.chancellors.schemas import COMMANDS, OPTIONS
from engines.chancellors.state import CHOOSE
from tests.engine_contract import apply, play_random_game

from .builders import act, acts, choose, config, draw, solve, table

REFERENCE = Path(__file__).resolve().parents[3] / ".." / "shared" / "reference" / "decktet.json"
DECKS = [{}, {"extended_deck": True}]


def test_the_engine_implements_the_contract():
    assert isinstance(ENGINE, Engine)
    assert (ENGINE.id, ENGINE.version, ENGINE.catalog_kind) == ("chancellors", "1", None)


@pytest.mark.skipif(not REFERENCE.exists(), reason="the shared reference is not checked out")
def test_the_cards_are_the_shared_reference_decktet():
    reference = json.loads(REFERENCE.read_text())
    cards = [
        {"name": name, "rank": rank, "value": value, "suits": list(suits), "deck": deck}
        for name, rank, value, suits, deck in DECKTET
    ]
    assert {"about": ABOUT, "rank_order": list(RANK_ORDER), "cards": cards} == reference


# ----------------------------------------------------------- random play
@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("deck", range(len(DECKS)))
@pytest.mark.parametrize("seed", range(20))
def test_random_server_dealt_games_end_and_replay_equals_the_live_state(seats, deck, seed):
    cfg = config(seats, **DECKS[deck])
    game = play_random_game(ENGINE, cfg, seed, check_every=17)
    outcome = ENGINE.outcome(game.state)
    assert outcome.finished and outcome.ended_by in ("target-score", "catastrophe")
    assert 1 in outcome.places
    assert ENGINE.load_state(json.loads(json.dumps(ENGINE.dump_state(game.state))), cfg) == game.state


def play_table_game(cfg, seed, check_every=13, max_steps=5000):
    """Random play where the recorder also picks the chance from the dealer's legal commands."""
    rng = random.Random(seed)
    state = ENGINE.initial_state(cfg)
    events = list(ENGINE.setup(cfg))
    for event in events:
        state = ENGINE.evolve(state, event)
    steps = 0
    while not ENGINE.outcome(state).finished:
        assert steps < max_steps, "game did not end"
        if ENGINE.chance(state) is not None:
            options = ENGINE.legal_commands(state, None)
            assert all(ENGINE.legal_commands(state, seat) == [] for seat in range(cfg.seats))
        else:
            options = [c for seat in range(cfg.seats) for c in ENGINE.legal_commands(state, seat)]
            assert ENGINE.legal_commands(state, None) == []
        assert options, "nobody can act in an unfinished game"
        state, new = apply(ENGINE, state, rng.choice(options))
        events.extend(new)
        steps += 1
        if steps % check_every == 0:
            assert fold(ENGINE, cfg, events) == state
    assert fold(ENGINE, cfg, events) == state
    return state, events


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", range(12))
def test_random_table_recorded_games_end_and_replay_equals_the_live_state(seats, seed):
    cfg = config(seats, dealer="table", **DECKS[seed % 2])
    state, _ = play_table_game(cfg, seed)
    assert ENGINE.outcome(state).finished


def test_random_games_reach_both_endings():
    endings = {
        ENGINE.outcome(
            play_random_game(ENGINE, config(seats, target=40), seed, check_every=1000).state
        ).ended_by
        for seats in (2, 3, 4)
        for seed in range(10)
    }
    assert endings == {"target-score", "catastrophe"}


def test_every_listed_command_is_accepted_and_well_formed():
    """At every step of a few games, every legal command passes the schema and ``decide``."""
    for seed in range(3):
        cfg = config(3, extended_deck=True)
        rng = random.Random(seed)
        state = ENGINE.initial_state(cfg)
        for event in ENGINE.setup(cfg):
            state = ENGINE.evolve(state, event)
        while not ENGINE.outcome(state).finished:
            seats = [None] if ENGINE.chance(state) else range(3)
            options = [c for seat in seats for c in ENGINE.legal_commands(state, seat)]
            for command in options:
                ENGINE.decide(state, command)
                fields = {k: v for k, v in command.items() if k not in ("type", "seat")}
                COMMANDS[command["type"]]().load(fields)
            state, _ = apply(ENGINE, state, rng.choice(options))


# ------------------------------------------------------------- snapshots
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    seats=st.integers(2, 4),
    extended=st.booleans(),
    cut=st.floats(0, 1),
)
def test_a_snapshot_round_trips_to_an_equal_state(seed, seats, extended, cut):
    cfg = config(seats, extended_deck=extended)
    game = play_random_game(ENGINE, cfg, seed, check_every=10_000)
    state = fold(ENGINE, cfg, game.events[: int(len(game.events) * cut)])
    dumped = ENGINE.dump_state(state)
    assert ENGINE.load_state(json.loads(json.dumps(dumped)), cfg) == state


# ------------------------------------------------------ views and redaction
def test_a_player_sees_only_their_own_hand():
    state = table(hands=[["merchant", "author"], ["windfall"], ["cave", "sea"]], discards=["pact"])
    mine = ENGINE.view(state, 0)
    assert mine["hand"] == ["author", "merchant"]
    assert mine["hand_sizes"] == [2, 1, 2]
    text = json.dumps(mine)
    assert "windfall" not in text and "cave" not in text


def test_spectators_see_scores_problems_services_discards_and_hand_sizes_only():
    state = table(hands=[["merchant"], ["windfall"], ["cave"]], discards=["pact"], services={"army": 1})
    seen = ENGINE.view(state, None)
    assert "hand" not in seen
    assert seen["scores"] == [0, 0, 0] and seen["discards"] == ["pact"]
    assert seen["services"] == {"diplomatic-corps": None, "army": 1, "navy": None}
    assert seen["hand_sizes"] == [1, 1, 1] and len(seen["problems"]) == 4
    text = json.dumps(seen)
    assert not any(card in text for card in ("merchant", "windfall", "cave"))


def test_a_finished_game_shows_everything():
    game = play_random_game(ENGINE, config(2), 1, check_every=10_000)
    seen = ENGINE.view(game.state, None)
    assert seen["finished"] and seen["hands"] == [list(h) for h in game.state.hands]


def test_cards_drawn_are_seen_only_by_their_player():
    event = Event(ev.CARDS_DRAWN, {"player": 1, "cards": ["pact", "excuse", "sea"]})
    assert ENGINE.redact(event, 1) == event
    for other in (0, None):
        assert ENGINE.redact(event, other).data == {"player": 1, "count": 3, "excuse": True}
    assert ENGINE.describe(ENGINE.redact(event, 0), ["A", "Bo"]) == (
        "Bo draws three cards and puts the Excuse in front of them."
    )


# ------------------------------------------------------------ descriptions
def test_every_event_of_a_game_is_described_in_words():
    names = ["Selia", "Shar", "Henri", "Tarrant"]
    seen = set()
    for seed in range(6):
        game = play_random_game(ENGINE, config(4, extended_deck=True), seed, check_every=10_000)
        for event in game.events:
            text = ENGINE.describe(event, names)
            assert text.endswith(".") and text != event.type
            seen.add(event.type)
    assert {ev.CARDS_REVEALED, ev.SERVICE_TAKEN, ev.PROBLEMS_ESCALATED, ev.GAME_DECIDED} <= seen


# -------------------------------------------------------------------- luck
def test_luck_ranks_a_draw_among_every_draw_from_the_pool():
    assert percentile([1, 2, 3, 4], [4]) == pytest.approx(0.875)
    assert percentile([1, 2, 3, 4], [1]) == pytest.approx(0.125)
    assert percentile([5, 5, 5], [5, 5]) == pytest.approx(0.5)


def test_drawing_crowns_is_lucky_and_aces_unlucky():
    state = table(2, phase=CHOOSE)
    crowns = Event(ev.CARDS_DRAWN, {"player": 1, "cards": ["sea", "end", "bard"]})
    aces = Event(ev.CARDS_DRAWN, {"player": 0, "cards": ["ace-of-moons", "ace-of-suns", "ace-of-waves"]})
    assert ENGINE.luck(state, crowns)[1] > 0.99
    assert ENGINE.luck(state, aces)[0] < 0.01
    assert ENGINE.luck(state, Event(ev.CARD_CHOSEN, {"seat": 0, "card": "sea"})) == {}


def test_luck_of_a_live_draw_uses_the_state_before_it():
    state = table(2, phase=CHOOSE, pile=["ace-of-moons", "sea"])
    state = state.with_(phase="draw", queue=(0,), owed=1)
    command = draw(state, "sea")
    event = ENGINE.decide(state, command)[0]
    assert event.type == ev.CARDS_DRAWN
    assert ENGINE.luck(state, event) == {0: 0.75}


# --------------------------------------------------------------- statistics
def test_statistics_count_problems_solved_whole_and_in_part_and_services():
    state = table(
        hands=[["pact", "mountain"], ["betrayal", "ace-of-knots"], ["cave"]],
        problems=[(3, 4), (2, 2), (2, 3), (4, 4)],
    )
    state, _ = acts(state, choose(0, "pact"), choose(1, "ace-of-knots"), choose(2, "cave"))
    state, _ = act(state, solve(0, 1, "mountain"))
    stats = ENGINE.statistics(state)
    assert stats["turns"] == 1
    selia, shar, henri = stats["seats"]
    assert selia["solved_whole"] == 1 and selia["score"] == 4
    assert selia["services_held"] == ["diplomatic-corps"]
    assert henri["services_won"] == 2 and shar["services_won"] == 0  # the 7 beats the Ace for the Army


# ------------------------------------------------------------------ schemas
def test_the_options_default_to_the_basic_deck_and_100_points():
    assert OPTIONS().load({}) == {
        "target": 100,
        "extended_deck": False,
        "pawns": None,
        "courts": None,
        "excuse": None,
    }
    state = ENGINE.initial_state(config(2, **OPTIONS().load({"extended_deck": True, "courts": False})))
    assert (state.pawns, state.courts, state.excuse) == (True, False, True)
