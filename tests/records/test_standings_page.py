"""The standings as members read them: place columns, the ranking rule in
one sentence, and what an unranked player still needs."""

from __future__ import annotations

from service.records.pages.standings_page import (
    more_games,
    place_columns,
    place_counts,
    place_name,
    ranking_rule,
)


def test_places_are_written_as_people_write_them():
    names = [place_name(p) for p in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101)]
    assert names == ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st"]


def test_one_column_per_place_up_to_the_worst_place_taken():
    columns = place_columns([{"1": 2, "3": 1}, {"2": 1}])
    assert [c["label"] for c in columns] == ["1st", "2nd", "3rd"]
    assert place_counts({"1": 2, "3": 1}, columns) == [2, 0, 1]


def test_places_past_the_fourth_share_the_last_column():
    columns = place_columns([{"1": 1, "6": 2, "4": 1, "5": 1}])
    assert [c["label"] for c in columns] == ["1st", "2nd", "3rd", "4th+"]
    assert place_counts({"1": 1, "6": 2, "4": 1, "5": 1}, columns) == [1, 0, 0, 4]


def test_a_league_with_no_game_has_a_first_place_column_only():
    assert [c["label"] for c in place_columns([])] == ["1st"]


def test_the_ranking_rule_is_one_sentence_with_the_league_s_points_and_minimum():
    assert ranking_rule([10, 6, 3, 1], 3) == (
        "Ranked by points (10 for 1st, 6 for 2nd, 3 for 3rd, 1 for 4th), then wins, rating, average score"
        " and fewer games played; a player is ranked after 3 games."
    )
    assert ranking_rule([2.5, 1], 1).endswith(
        "(2.5 for 1st, 1 for 2nd), then wins, rating, average score"
        " and fewer games played; a player is ranked after 1 game."
    )


def test_an_unranked_player_is_told_how_many_more_games_they_need():
    assert more_games(1, 3) == "2 more games to be ranked"
    assert more_games(2, 3) == "1 more game to be ranked"
