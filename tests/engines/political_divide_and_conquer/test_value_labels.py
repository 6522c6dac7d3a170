"""The scorepad's words for one value of a command: a card or a group by the name
printed on it, a seat by its player's name, a stacked card with the group it goes
on, as the log words them; anything else is left for the pad to show as it is."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engines.political_divide_and_conquer import ENGINE
from engines.political_divide_and_conquer.state import PdcState
from tests.engine_contract import play_random_game, worded_values

from .builders import ANN, CY, card, catalog, config, events_of, my_turn, of, start

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
CARD_FIELDS = {"card", "cards", "team", "groups", "group"}
SEAT_FIELDS = {"seat", "to", "source", "seats"}
HACKS = card("Hackneyed Hollywood Hypocrites")


def _kind(field: str, value: Any) -> str | None:
    """What the value names: a card, a seat or a stacked card (None: nothing the pad can word)."""
    if field in CARD_FIELDS or (field == "target" and isinstance(value, str)):
        return "card"
    if (field in SEAT_FIELDS or field == "target") and isinstance(value, int) and not isinstance(value, bool):
        return "seat"
    return "stack" if field == "stacks" else None


def _check_labels(state: PdcState, seen: Counter) -> None:
    seen.update(worded_values(ENGINE, state, NAMES[: state.seats], _kind))


@pytest.mark.parametrize(("seats", "seed"), [(4, 1), (8, 2)])
def test_every_card_and_seat_a_whole_game_offers_reads_as_the_table_names_it(seats, seed):
    seen: Counter = Counter()
    play_random_game(
        ENGINE,
        config(seats, dealer="server"),
        seed,
        check_every=10_000,
        observe=lambda state: _check_labels(state, seen),
    )
    assert set(seen) == {
        *(("card", field) for field in [*CARD_FIELDS, "target"]),
        *(("seat", field) for field in [*SEAT_FIELDS, "target"]),
        ("stack", "stacks"),
    }


def test_a_card_is_named_as_printed_on_it():
    state = start()
    assert ENGINE.label_value(state, "card", HACKS, NAMES) == "Hackneyed Hollywood Hypocrites"
    assert ENGINE.label_value(state, "cards", HACKS, NAMES) == "Hackneyed Hollywood Hypocrites"


def test_a_group_is_named_as_the_log_names_it():
    state = my_turn(start(hands={ANN: [HACKS]}), ANN)
    rejected = events_of(state, {"type": "RejectGroup", "seat": ANN, "card": HACKS})[0]
    named = ENGINE.label_value(state, "group", HACKS, NAMES)
    assert ENGINE.describe(rejected, NAMES) == f"Ann rejects {named} to the unaffiliated groups."


def test_the_target_of_an_attack_is_a_group_and_the_target_of_an_event_a_player():
    state = start()
    assert ENGINE.label_value(state, "target", HACKS, NAMES) == "Hackneyed Hollywood Hypocrites"
    assert ENGINE.label_value(state, "target", CY, NAMES) == "Cy"


@pytest.mark.parametrize("field", ["seat", "to", "source", "seats", "target"])
def test_a_seat_is_named_by_its_player(field):
    assert ENGINE.label_value(start(), field, CY, NAMES) == NAMES[CY]


def test_a_stacked_card_is_named_with_the_group_it_goes_on():
    asset = of("asset", 3)
    stack = {"card": asset, "group": HACKS}
    named = ENGINE.label_value(start(), "stacks", stack, NAMES)
    assert named == f"{catalog().card(asset).name} on Hackneyed Hollywood Hypocrites"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("card", "no-such-card"),
        ("card", {"card": HACKS}),
        ("card", None),
        ("card", 3),
        ("target", 8),
        ("seat", True),
        ("seat", None),
        ("to", -1),
        ("stacks", {"card": "no-such-card", "group": HACKS}),
        ("stacks", [HACKS]),
        ("intent", "take-over"),
        ("return_to", "top"),
        ("dice", 6),
        ("type", "DeclareAttack"),
        ("no-such-field", HACKS),
    ],
)
def test_what_has_no_better_words_is_left_as_it_is(field, value):
    assert ENGINE.label_value(start(), field, value, NAMES[:4]) is None


@pytest.mark.parametrize(
    "value", [None, True, -1, 2.5, "", [], [HACKS], {}, {"card": [], "group": {}}, object()]
)
def test_whatever_a_field_holds_the_words_never_fail(value):
    state = start()
    for field in [*CARD_FIELDS, *SEAT_FIELDS, "target", "stacks", "intent", "dice", "", "no-such-field"]:
        label = ENGINE.label_value(state, field, value, NAMES)
        assert label is None or isinstance(label, str), (field, value, label)
