"""The scorepad's words for one value of a command: a recorder holding the
physical cards and board picks a job, Event or Haunt card by the name printed
on it, a room or a location by its title, a space by its place in its
location, and a player by name; workers, resources and amounts are shown as
they are."""

from __future__ import annotations

from typing import Any

import pytest

from engines.maccreedys_mansion import ENGINE
from engines.maccreedys_mansion.state import MmState
from tests.engine_contract import play_random_game, worded_values

from .builders import NAMES, config, new_game

NAMED_FIELDS = ("cards", "seat", "space", "room", "location", "target")


def _worded(field: str, value: Any) -> bool:
    """A value the scorepad words: the table's draws carry the seat None, no player."""
    return field in NAMED_FIELDS and not (field == "seat" and value is None)


def _check_every_value(state: MmState, seen: set[str]) -> None:
    kind = lambda field, value: field if _worded(field, value) else None  # noqa: E731
    seen.update(field for _, field in worded_values(ENGINE, state, NAMES, kind))


@pytest.mark.parametrize("seed", range(3))
def test_every_card_space_room_location_target_and_seat_of_a_whole_game_has_words(seed):
    seen: set[str] = set()
    cfg = config(3, max_rounds=6, first_player=seed % 3)
    play_random_game(ENGINE, cfg, seed, check_every=1000, observe=lambda s: _check_every_value(s, seen))
    assert seen == set(NAMED_FIELDS)  # closed companies haunted too


def test_a_job_card_is_named_as_printed():
    assert ENGINE.label_value(new_game(), "cards", "job-front-door", NAMES) == "Restore the front door"


def test_an_event_and_a_haunt_card_are_named_as_printed():
    state = new_game()
    assert ENGINE.label_value(state, "cards", "event-storm", NAMES) == "Storm"
    assert ENGINE.label_value(state, "cards", "haunt-grey-lady", NAMES) == "The Grey Lady"


def test_a_seat_is_its_players_name():
    state = new_game(3)
    assert [ENGINE.label_value(state, "seat", s, NAMES) for s in range(3)] == ["Ada", "Bram", "Cleo"]


def test_a_room_and_a_location_go_by_their_titles():
    state = new_game()
    assert ENGINE.label_value(state, "room", "master-bedroom", NAMES) == "Master bedroom"
    assert ENGINE.label_value(state, "location", "front-door", NAMES) == "Front door"


def test_a_space_is_named_by_its_location_and_its_place_there():
    state = new_game()
    assert ENGINE.label_value(state, "space", "staircase-3", NAMES) == "Staircase, space 3"


def test_a_haunt_of_the_inspector_reads_as_the_log_words_it():
    state = new_game()
    assert ENGINE.label_value(state, "target", "inspector", NAMES) == "the Inspector"
    assert ENGINE.label_value(state, "target", "worker", NAMES) == "a worker"


@pytest.mark.parametrize(
    ("field", "value"),
    [("worker", "carpenter"), ("resource", "stone"), ("item", "mason"), ("deck", "job"), ("count", 1)],
)
def test_workers_resources_debt_items_decks_and_amounts_are_words_already(field, value):
    assert ENGINE.label_value(new_game(), field, value, NAMES) is None


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("cards", "job-in-no-catalog"),
        ("cards", {"id": "job-front-door"}),
        ("cards", None),
        ("space", "front-door-99"),
        ("room", ["foyer"]),
        ("location", 3),
        ("target", "ghost"),
        ("seat", 7),
        ("seat", -1),
        ("seat", True),
        ("seat", "1"),
        ("seat", None),
        ({"not": "a field"}, "foyer"),
        ("type", "Haunt"),
    ],
)
def test_an_unknown_value_has_no_words(field, value):
    assert ENGINE.label_value(new_game(), field, value, NAMES) is None
