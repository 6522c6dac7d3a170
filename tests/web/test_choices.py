"""The scorepad's choices offer exactly the legal entries: each once, nothing else."""

from __future__ import annotations

import json
from itertools import combinations, permutations

from engines.base import ChanceRequest
from engines.kit.guards import check_chance
from service.records.scorepad.chance import chance_choice, dice_after
from service.records.scorepad.labels import engine_labels, engine_value_labels, plain_value
from service.records.scorepad.seats import FINAL_AT, seat_choice


def finals(choose, picks=()) -> list[dict]:
    """Every whole command reachable from ``picks`` by answering the questions."""
    choice = choose(list(picks))
    out = []
    for option in choice.options:
        out += [option.command] if option.command is not None else finals(choose, option.picks)
    return out


def key(command: dict) -> str:
    return json.dumps(command, sort_keys=True)


def test_a_seat_is_offered_each_legal_command_once_and_nothing_else():
    legal = [{"type": "DiscardDown", "seat": 2, "cards": list(c)} for c in combinations("abcdefgh", 2)]
    legal.append({"type": "Pass", "seat": 2, "abdicate": False})
    offered = finals(lambda p: seat_choice(2, legal, p))
    expected = [{k: v for k, v in c.items() if k != "seat"} for c in legal]
    assert sorted(map(key, offered)) == sorted(map(key, expected))
    assert len(seat_choice(2, legal, []).options) <= len(legal)


def test_a_few_commands_are_buttons_at_once():
    legal = [{"type": "ChooseCard", "seat": 0, "card": c} for c in "abcd"]
    choice = seat_choice(0, legal, [])
    assert len(choice.options) == 4 <= FINAL_AT
    assert all(o.command is not None for o in choice.options)


def test_a_seat_s_few_commands_of_several_kinds_are_buttons_grouped_by_kind():
    legal = [{"type": "PlayCard", "seat": 0, "card": c} for c in "ab"]
    legal += [{"type": "Pass", "seat": 0}, {"type": "PlayCard", "seat": 0, "card": "c"}]
    choice = seat_choice(0, legal, [])
    assert all(o.command is not None for o in choice.options)
    assert [(o.group, o.label) for o in choice.options] == [
        ("Play card", "Play card: a"),
        ("Play card", "Play card: b"),
        ("Play card", "Play card: c"),
        ("Pass", "Pass"),
    ]
    assert {o.group for o in seat_choice(0, legal[:2], []).options} == {""}  # one kind: no heading


def test_a_pair_of_dice_is_one_tap_among_all_36_rolls():
    request = ChanceRequest("RollDice", dice=2, fixed={"problem": 1})
    choice = chance_choice(request, [])
    assert choice.grid == 6 and all(o.command is not None for o in choice.options)
    assert choice.options[2].label == "1 and 3" and choice.options[2].command["dice"] == [1, 3]
    offered = finals(lambda p: chance_choice(request, p))
    assert len(offered) == 36 and len({key(c) for c in offered}) == 36
    for command in offered:
        check_chance(request, command)


def test_a_draw_offers_every_possible_hand_and_nothing_else():
    pool = ("ace", "ace", "bard", "cave", "desert")
    request = ChanceRequest("DrawCards", draw=3, pool=pool, fixed={"player": 0})
    offered = {tuple(c["cards"]) for c in finals(lambda p: chance_choice(request, p))}
    assert offered == {tuple(sorted(c)) for c in combinations(pool, 3)}
    for cards in offered:
        check_chance(request, {"type": "DrawCards", "seat": None, "player": 0, "cards": list(cards)})


def pick_in_order(request, cards, words_for=plain_value):
    """The set chosen by tapping each card's button in ``cards``' order: the
    pad before the last card, and the last card's button."""
    choice = chance_choice(request, [], words_for=words_for)
    for card in cards[:-1]:
        option = next(o for o in choice.options if o.label == words_for("cards", card))
        choice = chance_choice(request, list(option.picks), words_for=words_for)
    return choice, next(o for o in choice.options if o.label == words_for("cards", cards[-1]))


def test_a_hand_is_entered_in_any_order_and_its_last_card_records_it():
    pool = ("bard", "ace", "cave", "desert", "ace", "eel", "fox", "gull", "hart")
    request = ChanceRequest("DrawCards", draw=4, pool=pool, fixed={"player": 0})
    hand = ["eel", "ace", "cave", "ace"]
    for order in permutations(hand):
        choice, last = pick_in_order(request, order)
        assert all(o.command is not None and o.picks == () for o in choice.options)
        assert last.command == {"type": "DrawCards", "player": 0, "cards": sorted(hand)}


def test_a_complete_set_is_never_asked_to_be_confirmed():
    request = ChanceRequest("DrawCards", draw=2, pool=("ace", "bard", "cave", "desert"), fixed={"player": 0})
    every_card = ['card="ace"', 'card="bard"']
    choice = chance_choice(request, every_card)
    assert choice.chosen == [] and all(o.command is None for o in choice.options)


def test_identical_cards_are_one_button_with_a_count_and_the_set_grows_as_they_are_tapped():
    pool = ("ace", "ace", "ace", "bard", "cave", "desert")
    request = ChanceRequest("DrawCards", draw=3, pool=pool, fixed={"player": 0})
    first = chance_choice(request, [])
    assert [(o.label, o.count) for o in first.options] == [
        ("ace", 3),
        ("bard", 1),
        ("cave", 1),
        ("desert", 1),
    ]
    assert first.question == "Which cards? 0 of 3 chosen" and first.chosen == []
    second = chance_choice(request, list(first.options[0].picks))
    assert [(o.label, o.count) for o in second.options] == [
        ("ace", 2),
        ("bard", 1),
        ("cave", 1),
        ("desert", 1),
    ]
    assert [(o.label, o.count) for o in second.chosen] == [("ace", 1)]
    assert second.question == "Which cards? 1 of 3 chosen"


def test_a_card_chosen_is_taken_back_with_one_tap():
    pool = ("ace", "bard", "cave", "desert", "eel", "fox")
    request = ChanceRequest("DrawCards", draw=3, pool=pool, fixed={"player": 0})
    choice, _ = pick_in_order(request, ["cave", "ace", "bard"])
    ace = next(o for o in choice.chosen if o.label == "ace")
    changed = chance_choice(request, list(ace.picks))
    assert sorted(o.label for o in changed.chosen) == ["cave"]
    assert [o.label for o in changed.options] == ["ace", "bard", "desert", "eel", "fox"]
    assert all(o.command is None for o in changed.options)


def test_a_draw_of_most_of_the_pool_is_entered_by_the_cards_that_stay():
    pool = ("ace", "bard", "cave", "desert", "eel", "fox", "gull")
    request = ChanceRequest("DiscardFromDeck", draw=5, pool=pool)
    first = chance_choice(request, [])
    assert first.stays and first.question == "5 of 7 are drawn: which cards stay? 0 of 2 chosen"
    staying = next(o for o in first.options if o.label == "cave")
    second = chance_choice(request, list(staying.picks))
    assert [o.label for o in second.chosen] == ["cave"]
    last = next(o for o in second.options if o.label == "fox")
    assert last.command == {"type": "DiscardFromDeck", "cards": ["ace", "bard", "desert", "eel", "gull"]}
    for command in finals(lambda p: chance_choice(request, p)):
        check_chance(request, {**command, "seat": None})


def test_a_draw_of_the_whole_pool_is_one_button():
    request = ChanceRequest("DrawCards", draw=3, pool=("ace", "bard", "ace"), fixed={"to": "table"})
    choice = chance_choice(request, [])
    assert [(o.label, o.command["cards"]) for o in choice.options] == [
        ("All 3 cards", ["ace", "ace", "bard"])
    ]


def test_a_single_card_is_entered_with_one_tap():
    request = ChanceRequest("DrawCards", draw=1, pool=("ace", "bard"), fixed={"player": 0})
    choice = chance_choice(request, [])
    assert [o.command["cards"] for o in choice.options] == [["ace"], ["bard"]]


def test_picks_that_no_longer_fit_start_the_question_over():
    request = ChanceRequest("DrawCards", draw=1, pool=("ace",), fixed={"player": 0})
    choice = chance_choice(request, ['card="zebra"', 'card="ace"'])
    assert [o.command["cards"] for o in choice.options] == [["ace"]]
    assert choice.chosen == []


def test_a_die_is_asked_by_the_name_of_the_player_it_is_rolled_for():
    names = ["Ana", "Ben"]
    assert chance_choice(ChanceRequest("ResolveRoll", dice=1, seat=1), [], names=names).question == (
        "Ben's die?"
    )
    three = ChanceRequest("RollForFirst", dice=3, fixed={"seats": [1, 0, 2]})
    first = chance_choice(three, [], names=names + ["Cat"])
    assert first.question == "Ben's die?"
    second = chance_choice(three, list(first.options[4].picks), names=names + ["Cat"])
    assert second.question == "Ana's die?" and second.picked == ["Ben's die: 5"]
    both = ChanceRequest("RollForFirst", dice=2, fixed={"seats": [1, 0]})
    assert chance_choice(both, [], names=names).question == "Ben's die and Ana's die?"
    assert chance_choice(ChanceRequest("RollDice", dice=2), [], names=names).question == "Die 1 and Die 2?"


def test_a_large_deck_offers_its_kinds_to_filter_by():
    pool = ("crony-01", "crony-02", "influence-01", "influence-02", "tactic-bribe-03")
    request = ChanceRequest("DrawCards", draw=2, pool=pool, fixed={"to": 0})
    choice = chance_choice(request, [])
    assert choice.kinds == [("crony", "Crony"), ("influence", "Influence"), ("tactic", "Tactic")]
    assert {o.kind for o in choice.options} == {"crony", "influence", "tactic"}
    named = ChanceRequest("DrawCard", draw=1, pool=("scapegoat", "cover-up"), fixed={"player": 0})
    assert chance_choice(named, []).kinds == []


def test_a_seat_s_buttons_read_as_its_engine_labels_them():
    legal = [{"type": "PlayCard", "seat": 1, "card": c} for c in ("scapegoat-3", "leak-1")]
    choice = seat_choice(1, legal, [], label=lambda c: f"Bob plays {c['card'].split('-')[0]}")
    assert [o.label for o in choice.options] == ["Bob plays scapegoat", "Bob plays leak"]
    assert [o.command for o in choice.options] == [{k: v for k, v in c.items() if k != "seat"} for c in legal]


def test_two_buttons_that_read_alike_say_what_sets_them_apart():
    legal = [
        {"type": "PlayCard", "seat": 0, "card": c, "target_seat": 1} for c in ("scapegoat-3", "scapegoat-6")
    ]
    choice = seat_choice(0, legal, [], label=lambda c: "Ann plays Scapegoat on Bob")
    assert [o.label for o in choice.options] == [
        "Ann plays Scapegoat on Bob (scapegoat-3)",
        "Ann plays Scapegoat on Bob (scapegoat-6)",
    ]


def test_an_engine_without_a_label_hook_gets_the_command_s_type_and_fields():
    class Bare:
        pass

    label = engine_labels(Bare(), None, ["Ann"])
    assert label({"type": "ChooseCard", "seat": 0, "card": "author"}) == "Choose card: author"


def test_an_engine_s_label_hook_words_the_whole_command_seat_included():
    class Worded:
        def label(self, state, command, names):
            return f"{names[command['seat']]} chooses the {command['card'].capitalize()}"

    label = engine_labels(Worded(), None, ["Ann", "Bob"])
    choice = seat_choice(1, [{"type": "ChooseCard", "seat": 1, "card": "author"}], [], label)
    assert choice.options[0].label == "Bob chooses the Author"


NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo"]
CARD_NAMES = {"P1": "Scapegoat", "P1b": "Scapegoat", "P2": "Leak", "P3": "Filibuster", "P4": "Recount"}


class Named:
    """An engine whose cards and seats have names (its ``label_value`` hook)."""

    def label_value(self, state, field, value, names):
        if field in ("card", "cards"):
            return CARD_NAMES.get(value)
        if field == "target" and isinstance(value, int):
            return names[value]
        return None


def test_a_narrowing_question_names_each_card_and_player_as_the_engine_words_them():
    legal = [
        {"type": "PlayCard", "seat": 0, "card": card, "target": target}
        for card in ("P1", "P2", "P3")
        for target in range(1, 10)
    ]
    words_for = engine_value_labels(Named(), None, NAMES)
    choice = seat_choice(0, legal, [], words_for=words_for)
    leads = [o for o in choice.options if o.command is None]
    assert len(legal) > FINAL_AT and [o.label for o in leads] == ["Filibuster"]
    assert leads[0].picks == ('card="P3"',)  # the pick is still the card's id
    narrowed = seat_choice(0, legal, list(leads[0].picks), words_for=words_for)
    assert narrowed.picked == ["Card: Filibuster"]
    assert sorted(o.command["target"] for o in narrowed.options) == list(range(1, 10))


def test_a_long_choice_puts_as_many_entries_one_tap_away_as_the_pad_holds():
    legal = [
        {"type": "PlayCard", "seat": 0, "card": card, "target": target}
        for card in ("P1", "P2", "P3")
        for target in range(1, 10)
    ]
    choice = seat_choice(0, legal, [])
    finals = [o.command for o in choice.options if o.command is not None]
    assert len(choice.options) <= FINAL_AT
    assert len(finals) == 18 and {c["card"] for c in finals} == {"P1", "P2"}


def test_a_choice_too_long_for_the_pad_asks_its_first_question_first():
    legal = [{"type": "PlayCard", "seat": 0, "card": f"P{n}", "target": t} for n in range(30) for t in (1, 2)]
    choice = seat_choice(0, legal, [])
    assert choice.question == "Card?" and len(choice.options) == 30
    assert all(o.command is None for o in choice.options)


def test_the_tables_draw_offers_each_card_by_its_name_in_the_order_of_the_names():
    request = ChanceRequest("DrawCards", draw=2, pool=("P1", "P2", "P3", "P4"), fixed={"player": 0})
    words_for = engine_value_labels(Named(), None, ["Ann"])
    first = chance_choice(request, [], words_for=words_for)
    assert [o.label for o in first.options] == ["Filibuster", "Leak", "Recount", "Scapegoat"]
    second = chance_choice(request, list(first.options[1].picks), words_for=words_for)
    assert [o.label for o in second.chosen] == ["Leak"]
    assert [o.label for o in second.options] == ["Filibuster", "Recount", "Scapegoat"]


def test_a_value_the_engine_has_no_words_for_shows_as_it_is():
    words_for = engine_value_labels(Named(), None, ["Ann", "Bob"])
    assert words_for("card", "P9") == "P9"
    assert words_for("amount", 3) == "3"
    assert words_for("cards", ["P1", "P9"]) == "Scapegoat, P9"
    assert engine_value_labels(object(), None, ["Ann"])("card", "P1") == "P1"


def test_two_copies_of_one_card_are_one_button_and_two_targets_are_told_apart_by_name():
    copies = [{"type": "PlayCard", "seat": 0, "card": c, "target": 1} for c in ("P1", "P1b")]
    names = ["Ann", "Bob", "Cat"]
    words_for = engine_value_labels(Named(), None, names)
    same = seat_choice(0, copies, [], label=lambda c: "Ann plays a card", words_for=words_for)
    assert [(o.label, o.command["card"]) for o in same.options] == [("Ann plays a card", "P1")]
    targets = [{"type": "PlayCard", "seat": 0, "card": "P1", "target": t} for t in (1, 2)]
    apart = seat_choice(0, targets, [], label=lambda c: "Ann plays Scapegoat", words_for=words_for)
    assert [o.label for o in apart.options] == ["Ann plays Scapegoat (Bob)", "Ann plays Scapegoat (Cat)"]


def test_two_cards_of_one_name_are_one_answer():
    legal = [
        {"type": "PlayCard", "seat": 0, "card": c, "target": t}
        for c in ("P1", "P1b", "P2")
        for t in range(25)  # too many targets for any card's entries to fit on the pad
    ]
    words_for = engine_value_labels(Named(), None, NAMES)
    choice = seat_choice(0, legal, [], words_for=words_for)
    assert [o.label for o in choice.options] == ["Scapegoat", "Leak"]
    request = ChanceRequest("DrawCards", draw=1, pool=("P1", "P1b", "P2"), fixed={"player": 0})
    draw = chance_choice(request, [], words_for=words_for)  # at the table, two cards of one name are alike
    assert [(o.label, o.count) for o in draw.options] == [("Leak", 1), ("Scapegoat", 2)]


def test_a_command_that_rolls_one_die_is_six_buttons_each_entering_the_roll_too():
    legal = [{"type": "Roll", "seat": 1}, {"type": "Hold", "seat": 1}]

    def then(command):
        return ChanceRequest("ResolveRoll", dice=1, seat=1) if command["type"] == "Roll" else None

    choice = seat_choice(1, legal, [], then=then, names=["Ana", "Ben"])
    rolls = [o for o in choice.options if o.then is not None]
    assert [o.label for o in rolls] == ["1", "2", "3", "4", "5", "6"]
    assert {o.group for o in rolls} == {"Roll, then Ben's die"}
    assert [o.then for o in rolls] == [{"type": "ResolveRoll", "dice": [v]} for v in range(1, 7)]
    assert all(o.command == {"type": "Roll"} for o in rolls)
    assert [o.command for o in choice.options if o.then is None] == [{"type": "Hold"}]


def test_a_command_after_which_a_card_is_drawn_is_one_button_and_the_card_is_asked_next():
    """One way, whatever the deck holds: the command alone, its card then asked as a draw."""
    legal = [{"type": "BuyTactics", "seat": 0}, {"type": "EndTurn", "seat": 0}]
    words_for = engine_value_labels(Named(), None, NAMES)
    for pool in (("P1", "P1b", "P2", "P3"), ("P1",), tuple(f"P{n}" for n in range(1, 4)) * 5):

        def then(command, pool=pool):
            if command["type"] != "BuyTactics":
                return None
            return ChanceRequest("DrawCards", draw=1, pool=pool, fixed={"to": 0}, dealt_to=0)

        choice = seat_choice(0, legal, [], then=then, words_for=words_for, names=NAMES)
        assert [(o.command, o.then) for o in choice.options] == [
            ({"type": "BuyTactics"}, None),
            ({"type": "EndTurn"}, None),
        ]


def test_a_pass_window_s_dice_are_one_tap_each_roll():
    pair = dice_after(ChanceRequest("RollAttack", dice=2, fixed={"seats": [1, 0]}), ["Ann", "Bob"])
    assert pair["question"] == "Bob's die and Ann's die?" and pair["grid"] == 6
    assert [o.then["dice"] for o in pair["options"]][:2] == [[1, 1], [1, 2]] and len(pair["options"]) == 36
    assert dice_after(ChanceRequest("DrawCards", draw=1, pool=("P1",)), ["Ann"]) is None
