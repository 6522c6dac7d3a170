"""A legal command reads as the log line it would write: it names the player
who makes it, and the cards, seats and departments that tell it apart from
the others, in the words the game's log uses for them.

Walked through seeded games of every engine (server-dealt chance, random
legal commands), checking every seat's legal commands at every step."""

from __future__ import annotations

import random

import pytest

from engines import registry
from engines.base import Event
from engines.chance import deal
from engines.chancellors.cards import label as chancellors_card
from engines.chancellors.events import CARDS_REVEALED, PROBLEM_ROLLED
from engines.final_decrees.present import _title as department
from engines.kit import log_label
from tests.engine_contract import trial_config

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]


def _positions(engine_id: str, steps: int = 250):
    """Each position of a seeded game: its state, the chance it awaits (or
    None) and, when none, its legal (seat, command) pairs."""
    engine = registry.get(engine_id)
    config = trial_config(registry.game(engine_id))
    seats = config.seats
    state = engine.initial_state(config)
    for event in engine.setup(config):
        state = engine.evolve(state, event)
    rng = random.Random(3)
    for _ in range(steps):
        if engine.outcome(state).finished:
            return
        request = engine.chance(state)
        legal = [] if request else [(s, c) for s in range(seats) for c in engine.legal_commands(state, s)]
        yield state, request, legal
        command = deal(request, rng) if request else rng.choice(legal)[1]
        for event in engine.decide(state, command):
            state = engine.evolve(state, event)


def _walk(engine_id: str, steps: int = 250):
    """Each (state, seat, legal command) along a seeded game."""
    for state, _, legal in _positions(engine_id, steps):
        yield from ((state, s, c) for s, c in legal)


@pytest.mark.parametrize("engine_id", registry.available())
def test_every_legal_command_reads_as_a_line_naming_its_player(engine_id):
    engine = registry.get(engine_id)
    seen = 0
    for state, seat, command in _walk(engine_id):
        text = engine.label(state, command, NAMES)
        assert NAMES[seat] in text, (text, command)
        assert not text.endswith("."), text
        seen += 1
    assert seen > 20


def test_pig_words_a_command_exactly_as_its_log_line():
    engine = registry.get("pig")
    for state, _seat, command in _walk("pig"):
        line = engine.describe(engine.decide(state, command)[0], NAMES)
        assert engine.label(state, command, NAMES) + "." == line


def test_a_chancellors_card_chosen_face_down_is_named_as_the_log_names_it_when_revealed():
    engine = registry.get("chancellors")
    choices = [(state, s, c) for state, s, c in _walk("chancellors") if c["type"] == "ChooseCard"]
    assert choices
    for state, seat, command in choices:
        revealed = [None] * state.seats
        revealed[seat] = command["card"]
        line = engine.describe(Event(CARDS_REVEALED, {"cards": revealed}), NAMES)
        named = chancellors_card(command["card"])
        assert f"{NAMES[seat]} plays {named}" in line
        assert engine.label(state, command, NAMES) == f"{NAMES[seat]} chooses {named} face down"


def test_a_political_divide_and_conquer_keep_names_the_card_kept_and_a_fight_names_what_joins_it():
    engine = registry.get("political-divide-and-conquer")
    kinds = set()
    for state, _seat, command in _walk("political-divide-and-conquer", steps=400):
        t = command["type"]
        if t == "KeepCard":
            kinds.add(t)
            assert state.card(command["card"]).name in engine.label(state, command, NAMES)
        if t in ("DeclareAttack", "RaiseDefence", "UpTheAnte"):
            kinds.add(t)
            text = engine.label(state, command, NAMES)
            for card in [*command.get("team", []), *command.get("groups", [])]:
                assert state.card(card).name in text
            for stack in command.get("stacks", []):
                assert f"{state.card(stack['card']).name} on {state.card(stack['group']).name}" in text
    assert {"KeepCard", "DeclareAttack"} <= kinds


def test_a_final_decrees_arrow_moved_says_where_it_runs_to():
    engine = registry.get("final-decrees")
    moves = [
        (state, c)
        for state, _s, c in _walk("final-decrees", steps=600)
        if c["type"] == "Restructure" and c["change"] == "move"
    ]
    assert moves
    for state, command in moves:
        a, b = command["to"]
        assert engine.label(state, command, NAMES).endswith(f"to run from {department(a)} to {department(b)}")


def test_a_house_of_cronies_purchase_names_the_cards_it_is_paid_with():
    engine = registry.get("house-of-cronies")
    purchases = [(state, c) for state, _s, c in _walk("house-of-cronies") if c["type"] == "BuyTactics"]
    assert purchases
    for state, command in purchases:
        text = engine.label(state, command, NAMES)
        assert text.startswith(log_label(engine, state, command, NAMES))
        for card in command["cards"]:
            assert state.card(card).label() in text


def _awaited(engine_id: str):
    """Each chance awaited along a seeded game, as the command without its dice or cards."""
    for state, request, _ in _positions(engine_id):
        if request is not None:
            yield state, request, {"type": request.command, "seat": None, **request.fixed}


@pytest.mark.parametrize("engine_id", registry.available())
def test_the_chance_a_table_is_about_to_enter_reads_in_plain_words(engine_id):
    engine = registry.get(engine_id)
    seen = 0
    for state, request, awaited in _awaited(engine_id):
        text = engine.label(state, awaited, NAMES)
        assert text and text[0].isupper() and not text.endswith("."), text
        for key, value in request.fixed.items():  # no field shown as it is stored ("problem 0")
            assert f"{key.replace('_', ' ')} {value}" not in text, text
        if request.seat is not None:  # the seat the chance falls to
            assert NAMES[request.seat] in text, text
        seen += 1
    assert seen > 0


def test_a_chancellors_problem_awaiting_its_dice_is_named_as_the_log_names_it():
    engine = registry.get("chancellors")
    rolls = [(s, a) for s, _r, a in _awaited("chancellors") if a["type"] == "RollDice"]
    assert rolls
    for state, awaited in rolls:
        line = engine.describe(Event(PROBLEM_ROLLED, {**awaited, "dice": [3, 4], "reason": "opening"}), NAMES)
        assert line.startswith(engine.label(state, awaited, NAMES))
