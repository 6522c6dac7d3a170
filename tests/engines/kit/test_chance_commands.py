"""The representative chance commands a table's recorder may post."""

from engines.base import ChanceRequest
from engines.kit.chance_commands import table_chance_commands
from engines.kit.guards import check_chance


def _each_answers(request: ChanceRequest, commands: list[dict]) -> None:
    """Raises the guard's RuleViolation for any command that does not answer ``request``."""
    for command in commands:
        check_chance(request, command)


def test_one_die_lists_every_face():
    commands = table_chance_commands(ChanceRequest("ResolveRoll", dice=1))
    assert commands == [{"type": "ResolveRoll", "seat": None, "dice": [v]} for v in range(1, 7)]


def test_two_dice_list_every_combination_of_faces_with_the_fixed_fields():
    request = ChanceRequest("RollDice", dice=2, fixed={"problem": 3})
    commands = table_chance_commands(request)
    assert len(commands) == 36
    assert commands[0] == {"type": "RollDice", "seat": None, "problem": 3, "dice": [1, 1]}
    assert commands[-1]["dice"] == [6, 6]
    _each_answers(request, commands)


def test_more_dice_than_listed_in_full_give_each_rotation_and_each_double():
    commands = table_chance_commands(ChanceRequest("RollForFirst", dice=3))
    throws = [c["dice"] for c in commands]
    assert throws[:6] == [[1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 6], [5, 6, 1], [6, 1, 2]]
    assert throws[6:] == [[k, k, k] for k in range(1, 7)]


def test_the_limit_of_full_listing_is_a_parameter():
    assert len(table_chance_commands(ChanceRequest("Roll", dice=3), every_face_up_to=3)) == 216
    assert len(table_chance_commands(ChanceRequest("Roll", dice=2), every_face_up_to=1)) == 12


def test_a_draw_lists_one_run_of_the_sorted_pool_from_each_card():
    request = ChanceRequest("DrawCards", draw=2, pool=("c", "a", "b"), fixed={"to": 1})
    commands = table_chance_commands(request)
    assert [c["cards"] for c in commands] == [["a", "b"], ["b", "c"], ["c", "a"]]
    assert all(c["type"] == "DrawCards" and c["seat"] is None and c["to"] == 1 for c in commands)
    _each_answers(request, commands)


def test_a_single_card_draw_lists_each_distinct_card_once():
    commands = table_chance_commands(ChanceRequest("DrawCard", draw=1, pool=("b", "a", "b")))
    assert [c["cards"] for c in commands] == [["a"], ["b"]]


def test_runs_of_a_pool_holding_a_card_twice_may_draw_it_twice():
    request = ChanceRequest("DrawCards", draw=2, pool=("a", "a", "b"))
    commands = table_chance_commands(request)
    assert [c["cards"] for c in commands] == [["a", "a"], ["a", "b"], ["b", "a"]]
    _each_answers(request, commands)


def test_an_empty_pool_lists_nothing():
    assert table_chance_commands(ChanceRequest("DrawCards", draw=1, pool=())) == []


def test_a_spread_draw_takes_cards_evenly_apart_and_at_most_the_limit():
    pool = tuple(f"c{n:02}" for n in range(20))
    request = ChanceRequest("DrawCards", draw=2, pool=pool)
    commands = table_chance_commands(request, spread=8)
    assert [c["cards"] for c in commands] == [[f"c{k:02}", f"c{k + 10:02}"] for k in range(8)]
    _each_answers(request, commands)


def test_a_spread_draw_of_the_whole_pool_lists_it_from_each_card():
    commands = table_chance_commands(ChanceRequest("DrawCards", draw=3, pool=("c", "b", "a")), spread=8)
    assert [c["cards"] for c in commands] == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]


def test_a_spread_draw_lists_no_selection_twice():
    pool = ("a", "a", "a", "a")
    commands = table_chance_commands(ChanceRequest("DrawCards", draw=2, pool=pool), spread=8)
    assert [c["cards"] for c in commands] == [["a", "a"]]
