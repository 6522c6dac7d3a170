"""A tournament's points by place, scaled to the table's size, and its tie-breaks."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from service.records.competitions.tournament_points import standings, table_points


def test_the_winner_of_any_table_scores_one_and_its_last_nothing():
    assert table_points({"Ana": 1, "Ben": 2, "Cy": 3}) == {"Ana": 1, "Ben": Fraction(1, 2), "Cy": 0}
    assert table_points({"Ana": 1, "Ben": 2, "Cy": 3, "Dev": 4}) == {
        "Ana": 1,
        "Ben": Fraction(2, 3),
        "Cy": Fraction(1, 3),
        "Dev": 0,
    }


def test_a_tie_counts_half_an_opponent_beaten():
    assert table_points({"Ana": 1, "Ben": 1, "Cy": 3}) == {
        "Ana": Fraction(3, 4),
        "Ben": Fraction(3, 4),
        "Cy": 0,
    }


@given(st.lists(st.integers(1, 8), min_size=2, max_size=8))
def test_a_seat_is_worth_one_half_at_a_table_of_any_size(places):
    points = table_points({f"P{i}": place for i, place in enumerate(places)})
    assert sum(points.values()) == Fraction(len(places), 2)
    assert all(0 <= p <= 1 for p in points.values())


def test_players_rank_by_points():
    table = standings([{"Ana": 1, "Ben": 2, "Cy": 3}, {"Cy": 1, "Ana": 2, "Ben": 3}])
    assert [(s.rank, s.player, s.points) for s in table] == [
        (1, "Ana", Fraction(3, 2)),
        (2, "Cy", Fraction(1)),
        (3, "Ben", Fraction(1, 2)),
    ]


def test_equal_points_are_parted_by_the_opponents_points():
    # Ana and Dev both won a table; Ana's opponents went on to score more.
    tables = [
        {"Ana": 1, "Ben": 2, "Cy": 3},
        {"Dev": 1, "Eve": 2, "Fay": 3},
        {"Ben": 1, "Cy": 2, "Eve": 3},
    ]
    ranks = {s.player: s.rank for s in standings(tables)}
    assert ranks["Ben"] == 1  # 1.5 points
    assert ranks["Ana"] < ranks["Dev"]


def test_still_tied_players_are_parted_head_to_head():
    # Cy and Ana: one point each from two games, and 5 opponents' points each;
    # where they met, Cy finished ahead.
    tables = [{"Dev": 1, "Ana": 2, "Ben": 3}, {"Dev": 1, "Cy": 2}, {"Cy": 1, "Ana": 2, "Dev": 3}]
    table = standings(tables)
    assert [(s.rank, s.player, s.points, s.opponents_points) for s in table] == [
        (1, "Dev", 2, 4),
        (2, "Cy", 1, 5),
        (3, "Ana", 1, 5),
        (4, "Ben", 0, 3),
    ]


def test_players_tied_on_everything_share_a_rank():
    tables = [{"Ana": 1, "Ben": 2, "Cy": 3}, {"Ben": 1, "Cy": 2, "Ana": 3}, {"Cy": 1, "Ana": 2, "Ben": 3}]
    assert [s.rank for s in standings(tables)] == [1, 1, 1]


def test_a_player_who_has_not_played_yet_stands_with_nothing():
    table = standings([{"Ana": 1, "Ben": 2}], players=["Ana", "Ben", "Cy"])
    assert [(s.player, s.points, s.games) for s in table][-1] == ("Cy", 0, 0)


def test_players_tied_on_everything_are_listed_in_the_order_entered_whatever_their_ids():
    tables = [{"Ana": 1, "Ben": 2, "Cy": 3}, {"Ben": 1, "Cy": 2, "Ana": 3}, {"Cy": 1, "Ana": 2, "Ben": 3}]
    for entered in (["Cy", "Ana", "Ben"], ["Ben", "Cy", "Ana"]):
        assert [s.player for s in standings(tables, players=entered)] == entered
    table = standings([{"Ana": 1, "Ben": 2}], players=["Ana", "Ben", "Dev", "Cy"])
    assert [s.player for s in table][2:] == ["Dev", "Cy"]
