"""The scorepad's words for one value of a command: a card by its catalog name
("Tenderpreneur", "3 influence", "Cabinet reshuffle"), a seat by its player's
name, the table, a cabinet position and a reshuffled cabinet as the log words
them; None for what has no better words (amounts, decks, unknown cards), so the
pad shows the value as it is."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engines.house_of_cronies import ENGINE
from engines.house_of_cronies.catalog import RESHUFFLE
from engines.house_of_cronies.state import HocState
from tests.engine_contract import play_random_game, worded_values

from .builders import PRAVIN, THULI, build, config, crony, inf, tactic

NAMES = ["Baleka", "Thuli", "Pravin", "Jacob"]
CARD_FIELDS = ("card", "cards", "crony")
SEAT_FIELDS = ("seat", "to", "target")


def _named(field: str, value: Any) -> str | None:
    """A card, or a seat (a number in a seat's field)."""
    if field in CARD_FIELDS:
        return "card"
    return "seat" if field in SEAT_FIELDS and isinstance(value, int) else None


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_every_card_and_seat_a_seeded_game_offers_has_words_and_nothing_raises(seats, seed):
    named: Counter[str] = Counter()

    def check(state: HocState) -> None:
        worded = worded_values(ENGINE, state, NAMES[:seats], _named)
        named.update(field for _, field in worded)

    play_random_game(
        ENGINE, config(seats, first_speaker=seed % seats), seed, check_every=10_000, observe=check
    )
    assert {"card", "cards", "seat", "to", "target"} <= set(named)


def test_a_card_is_named_as_the_catalog_prints_it():
    state = build()
    assert ENGINE.label_value(state, "card", crony("Tenderpreneur"), NAMES) == "Tenderpreneur"
    assert ENGINE.label_value(state, "cards", inf(3), NAMES) == "3 influence"
    assert ENGINE.label_value(state, "card", tactic(RESHUFFLE), NAMES) == "Cabinet reshuffle"
    assert ENGINE.label_value(state, "crony", crony("Tenderpreneur"), NAMES) == "Tenderpreneur"


def test_a_seat_is_named_by_its_player():
    state = build()
    assert ENGINE.label_value(state, "target", THULI, NAMES) == "Thuli"
    assert ENGINE.label_value(state, "to", PRAVIN, NAMES) == "Pravin"


def test_cards_laid_out_go_to_the_table():
    assert ENGINE.label_value(build(), "to", "table", NAMES) == "The table"


def test_a_position_is_named_as_the_log_words_it_whatever_its_spelling():
    state = build()
    assert ENGINE.label_value(state, "position", "vice-president", NAMES) == "Vice president"
    assert ENGINE.label_value(state, "position", "social-services", NAMES) == "Service delivery"


def test_a_reshuffled_cabinet_names_each_crony_and_their_position():
    cabinet = {"president": None, "vice-president": crony("Tenderpreneur"), "finance": None}
    assert ENGINE.label_value(build(), "cabinet", cabinet, NAMES) == "Tenderpreneur as vice president"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("card", "crony-99"),
        ("cards", {"card": "crony-01"}),
        ("crony", None),
        ("card", ["crony-01"]),
        ("target", 4),
        ("target", -1),
        ("target", None),
        ("to", True),
        ("to", "Baleka"),
        ("position", "chief-whip"),
        ("position", None),
        ("cabinet", {"president": "crony-99"}),
        ("cabinet", {"chief-whip": "crony-01"}),
        ("cabinet", {"president": None}),
        ("cabinet", None),
        ("count", 2),
        ("deck", "main"),
        ("type", "PlaceBid"),
        ("nonsense", "crony-01"),
    ],
)
def test_what_has_no_better_words_is_left_as_it_is(field, value):
    assert ENGINE.label_value(build(), field, value, NAMES) is None


def test_a_seat_beyond_the_names_given_is_left_as_it_is():
    assert ENGINE.label_value(build(), "target", 3, NAMES[:3]) is None
