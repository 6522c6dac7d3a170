"""The deck with known segments: chance only from where the next card comes from."""

import random
from collections import Counter

from engines.chance import deal
from engines.kit.deck import BOTTOM, MIDDLE, TOP, Deck, Run, deck_of


def test_a_shuffled_deck_draws_from_the_middle_by_chance():
    deck = deck_of(["c", "a", "b"])
    assert deck.next_place() == MIDDLE
    request = deck.request("DrawCards", 2, seat=1, fixed={"to": 1})
    assert (request.draw, request.pool, request.seat, dict(request.fixed)) == (
        2,
        ("a", "b", "c"),
        1,
        {"to": 1},
    )


def test_a_card_put_on_top_is_drawn_next_without_chance():
    deck = deck_of(["a", "b"]).put_top("x", [2])
    assert deck.next_place() == TOP and deck.request("DrawCards", 2) is None
    known, rest = deck.take_known()
    assert known.card == "x" and known.seats == (2,)
    assert rest == deck_of(["a", "b"])


def test_the_top_is_last_in_first_out_and_the_bottom_first_in_first_out():
    deck = Deck().put_top("t1", [0]).put_top("t2", [1]).put_bottom("b1", [0]).put_bottom("b2", [1])
    order = []
    while deck.next_place() is not None:
        known, deck = deck.take_known()
        order.append(known.card)
    assert order == ["t2", "t1", "b1", "b2"]


def test_the_bottom_waits_until_the_middle_is_used_up():
    deck = deck_of(["a"]).put_bottom("z", [0])
    assert deck.next_place() == MIDDLE
    deck = deck.take_drawn(["a"])
    assert deck.next_place() == BOTTOM and deck.request("DrawCards", 1) is None


def test_a_seat_sees_only_the_known_cards_it_knows():
    deck = deck_of(["a", "b"]).put_top("x", [2]).put_bottom("y", [0])
    assert deck.view(2) == {"size": 4, "top": ["x"], "middle_size": 2, "runs": [], "bottom": [None]}
    assert deck.view(0)["top"] == [None] and deck.view(0)["bottom"] == ["y"]
    assert deck.view(None)["top"] == [None] and deck.view(None)["bottom"] == [None]
    assert deck.tell(1, TOP, 0).view(1)["top"] == ["x"]


def test_a_draw_stops_at_the_end_of_a_run():
    deck = deck_of(list("abcdefg")).split([Run(2), Run(5)])
    assert deck.request("DrawCards", 4).draw == 2
    deck = deck.take_drawn(["a", "b"])
    assert deck.runs == (Run(5),) and deck.request("DrawCards", 4).draw == 4


def test_a_held_card_is_never_drawn_from_a_run_that_does_not_hold_it():
    # Final Decrees: the special card is never among the first five cards nor the last twenty.
    cards = [f"c{i}" for i in range(54)] + ["special"]
    deck = deck_of(cards).split([Run(5), Run(30, ("special",)), Run(20)])
    assert "special" not in deck.request("DrawCards", 5).pool
    rng = random.Random(1)
    for _ in range(5):
        deck = deck.take_drawn(deal(deck.request("DrawCards", 1), rng)["cards"])
    drawn = []
    while deck.runs and len(deck.runs) > 1:
        card = deal(deck.request("DrawCards", 1), rng)["cards"]
        drawn.extend(card)
        deck = deck.take_drawn(card)
    assert "special" in drawn and deck.runs == (Run(20),)
    assert "special" not in deck.request("DrawCards", 1).pool


def test_a_held_card_comes_up_with_its_true_chance():
    deck = deck_of(["a", "b", "c", "special"]).split([Run(2, ("special",)), Run(2)])
    pool = Counter(deck.request("DrawCards", 2).pool)
    # one free place among 3 free cards: special 1/2, each free card 1/6
    total = sum(pool.values())
    assert pool["special"] / total == 1 / 2 and pool["a"] / total == 1 / 6


def test_a_run_whose_places_are_all_held_deals_its_held_cards():
    deck = deck_of(["a", "special"]).split([Run(1), Run(1, ("special",))])
    deck = deck.take_drawn(["a"])
    assert deck.request("DrawCards", 1).pool == ("special",)


def test_shuffling_cards_in_makes_the_middle_one_run_again():
    deck = deck_of(["a", "b", "c"]).split([Run(1), Run(2)]).shuffle_in(["d"])
    assert deck.runs == () and deck.middle == ("a", "b", "c", "d")


def test_the_deck_survives_plain_json():
    deck = deck_of(list("abcd")).split([Run(1), Run(3, ("c",))]).put_top("x", [1, 0]).put_bottom("y", [3])
    assert Deck.load(deck.dump()) == deck
