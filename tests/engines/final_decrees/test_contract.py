"""The engine contract: random legal play in both dealer modes, replay, snapshots, views, lines, luck, statistics."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import Engine, Event, fold
from engines.final_decrees import ENGINE
from engines.final_decrees import events as ev
from engines.final_decrees.schemas import COMMANDS, OPTIONS
from tests.engine_contract import apply, play_random_game

from .builders import DECLINE, act, cmd, config, draw, table


def test_the_engine_implements_the_contract():
    assert isinstance(ENGINE, Engine)
    assert (ENGINE.id, ENGINE.catalog_kind, ENGINE.min_seats, ENGINE.max_seats) == (
        "final-decrees",
        "final-decrees",
        4,
        5,
    )


def test_the_options_default_to_five_discards():
    assert OPTIONS().load({}) == {"decline_discards": 5}


# ----------------------------------------------------------- random play
@pytest.mark.parametrize("seats", [4, 5])
@pytest.mark.parametrize("seed", range(6))
def test_random_server_dealt_games_end_and_replay_equals_the_live_state(seats, seed):
    cfg = config(seats)
    game = play_random_game(ENGINE, cfg, seed, check_every=41)
    outcome = ENGINE.outcome(game.state)
    assert outcome.finished and outcome.ended_by in ("deck-exhausted", "all-decrees-enacted")
    assert 1 in outcome.places


def play_table_game(cfg, seed, choose=None, max_steps=5000):
    """Random play where the recorder also picks the chance among the dealer's legal commands."""
    rng = random.Random(seed)
    choose = choose or (lambda options, state: rng.choice(options))
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
        state, new = apply(ENGINE, state, choose(options, state))
        events.extend(new)
        steps += 1
    assert fold(ENGINE, cfg, events) == state
    return state, events


@pytest.mark.parametrize("seats", [4, 5])
@pytest.mark.parametrize("seed", range(4))
def test_random_table_recorded_games_end_and_replay_equals_the_live_state(seats, seed):
    state, events = play_table_game(config(seats, "table"), seed)
    assert ENGINE.outcome(state).finished
    drawn = [e.data["card"] for e in events if e.type == ev.CARD_DRAWN]
    assert DECLINE not in drawn[:5] or any(e.type == ev.DECLINE_PLAYED for e in events)


def eager(rng):
    """A policy that stamps and forwards decrees to their next department whenever it can."""

    def choose(options, state):
        stamps = [c for c in options if c["type"] in ("StampDecree", "RemoveBlame")]
        forwards = [
            c
            for c in options
            if c["type"] == "ForwardDecree" and state.decree(c["decree"]).next_step == c["to"]
        ]
        moves = [c for c in options if c["type"] == "MovePlayer" and c["player"] == c["seat"]]
        for group in (stamps, forwards, moves if rng.random() < 0.3 else []):
            if group:
                return rng.choice(group)
        return rng.choice([c for c in options if not c["type"].endswith("Trade")] or options)

    return choose


@pytest.mark.parametrize("seats", [4, 5])
def test_games_reach_both_endings(seats):
    """Aimless play runs the deck out; players who push decrees along enact all five."""
    aimless, _ = play_table_game(config(seats, "table"), 1)
    assert ENGINE.outcome(aimless).ended_by == "deck-exhausted"
    for seed in range(3):
        state, events = play_table_game(config(seats, "table"), seed, choose=eager(random.Random(seed)))
        assert ENGINE.outcome(state).ended_by == "all-decrees-enacted"
        assert sum(1 for e in events if e.type == ev.DECREE_ENACTED) == 5


def test_every_listed_command_is_accepted_and_well_formed():
    """At every step of a five-seat table game that enacts decrees, each listed command passes schema and rules."""
    cfg = config(5, "table")
    rng = random.Random(5)
    choose = eager(rng)
    state = ENGINE.initial_state(cfg)
    for event in ENGINE.setup(cfg):
        state = ENGINE.evolve(state, event)
    while not ENGINE.outcome(state).finished:
        dealing = ENGINE.chance(state) is not None
        options = [
            c for seat in ([None] if dealing else range(5)) for c in ENGINE.legal_commands(state, seat)
        ]
        for command in options:
            ENGINE.decide(state, command)
            COMMANDS[command["type"]]().load({k: v for k, v in command.items() if k not in ("type", "seat")})
        state, _ = apply(ENGINE, state, rng.choice(options) if dealing else choose(options, state))


# ------------------------------------------------------------- snapshots
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    seats=st.sampled_from([4, 5]),
    dealer=st.sampled_from(["server", "table"]),
    cut=st.floats(0, 1),
)
def test_a_snapshot_round_trips_to_an_equal_state(seed, seats, dealer, cut):
    cfg = config(seats, dealer)
    game = play_random_game(ENGINE, cfg, seed, check_every=10_000)
    state = fold(ENGINE, cfg, game.events[: int(len(game.events) * cut)])
    assert ENGINE.load_state(json.loads(json.dumps(ENGINE.dump_state(state))), cfg) == state


# ------------------------------------------------------------------ views
def test_a_player_sees_their_own_hand_and_only_counts_of_the_others():
    state = table(hands=[["overtime-1"], ["cover-up-1", "scapegoat-1"], [], [], []])
    mine = ENGINE.view(state, 1)
    assert mine["hand"] == ["cover-up-1", "scapegoat-1"] and mine["hand_sizes"] == [1, 2, 0, 0, 0]
    assert "overtime-1" not in json.dumps(mine)
    spectator = ENGINE.view(state, None)
    assert "hand" not in spectator and "cover-up-1" not in json.dumps(spectator)
    assert spectator["personal"] == [10] * 5  # personal blame is public (FD-44)
    assert spectator["departments"]["admiralty"] == {
        "head": 4,
        "blame": 0,
        "controller": "executive",
        "below": ["secret-service"],
        "chain_top": "reform",
        "decrees": [],
    }


def test_a_drawn_card_is_seen_by_its_drawer_and_the_decline_card_by_everyone():
    state = table(window=(1, 3), deck=["overtime-1", "overtime-2"])
    state, _ = act(state, cmd("TakeDrawAction", 0))
    _, events = draw(state, "overtime-1")
    assert ENGINE.redact(events[0], 0) == events[0]
    assert ENGINE.redact(events[0], 3).data == {"player": 0, "card": None, "decline": False}
    _, events = draw(state, DECLINE)
    assert ENGINE.redact(events[0], 3) == events[0]


def test_a_finished_game_shows_everything():
    game = play_random_game(ENGINE, config(4), 1, check_every=10_000)
    seen = ENGINE.view(game.state, None)
    assert seen["finished"] and seen["hands"] == [list(h) for h in game.state.hands]


# ------------------------------------------------------------ descriptions
def test_every_event_of_a_game_is_described_in_words():
    names = ["Ada", "Bo", "Cy", "Di", "Ed"]
    seen = set()
    for seed in range(4):
        for dealer in ("server", "table"):
            cfg = config(5, dealer)
            policy = eager(random.Random(seed)) if seed % 2 else None
            state, events = play_table_game(cfg, seed, choose=policy)
            for event in events:
                for viewer in (None, 0):
                    text = ENGINE.describe(ENGINE.redact(event, viewer), names)
                    assert text.endswith(".") and text != f"{event.type}."
                seen.add(event.type)
    assert {
        ev.BIDS_REVEALED,
        ev.DECREE_ENACTED,
        ev.DECLINE_PLAYED,
        ev.TRADE_ACCEPTED,
        ev.GAME_DECIDED,
    } <= seen


def test_lines_read_plainly():
    names = list("ABCDE")
    line = ENGINE.describe(
        Event(
            ev.DECREE_ENACTED,
            {
                "seat": 1,
                "decree": "granary-decree",
                "ordinal": 2,
                "allowance": 20,
                "department": "human-resources",
                "top": "executive",
                "chooser": 0,
            },
        ),
        names,
    )
    assert (
        line == "granary-decree is enacted (decree 2); A, head of the Executive Branch, may remove 20 blame."
    )


# -------------------------------------------------------------------- luck
def test_drawing_the_decline_card_is_unlucky():
    state = table(window=(1, 4), deck=["overtime-1", "overtime-2", "overtime-3"])
    state, _ = act(state, cmd("TakeDrawAction", 0))
    bad = Event(ev.CARD_DRAWN, {"player": 0, "card": DECLINE, "decline": True})
    good = Event(ev.CARD_DRAWN, {"player": 0, "card": "overtime-1", "decline": False})
    assert ENGINE.luck(state, bad) == {0: pytest.approx(0.125)}
    assert ENGINE.luck(state, good) == {0: pytest.approx(0.625)}
    assert ENGINE.luck(state, Event(ev.TURN_ENDED, {})) == {}
    early = table(window=(3, 9))
    assert ENGINE.luck(early, good) == {0: pytest.approx(0.5)}  # it cannot come yet: every draw is alike


def test_luck_is_the_same_in_both_dealer_modes():
    good = Event(ev.CARD_DRAWN, {"player": 0, "card": "overtime-1", "decline": False})
    for dealer in ("server", "table"):
        state = table(dealer=dealer, window=(1, 4), deck=["overtime-1", "overtime-2", "overtime-3"])
        assert ENGINE.luck(state, good) == {0: pytest.approx(0.625)}


# --------------------------------------------------------------- statistics
def test_statistics_count_stamps_enactments_removals_and_declines():
    state = table(active=2, decrees={"frontier-decree": ("treasury", 3)}, personal=[4, 4, 4, 4, 4])
    state, _ = act(state, cmd("StampDecree", 2, decree="frontier-decree"))
    state, _ = act(state, cmd("RemoveBlame", 2, players=[0, 0, 3, 0, 0], departments={}))
    stats = ENGINE.statistics(state)
    assert stats["decrees_enacted"] == 1
    seat = stats["seats"][2]
    assert seat["steps_stamped"] == 1 and seat["decrees_enacted"] == 1 and seat["blame_removed"] == 3
    assert seat["personal_blame"] == 0 and seat["department"] == "treasury"
    state, _ = act(state, cmd("EndTurn", 2))
    assert ENGINE.statistics(state)["seats"][3]["departments_headed"] == ["secret-service"]
