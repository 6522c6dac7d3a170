"""The kit's two-party agreements: terms, the offer book, answering, redaction."""

import pytest

from engines.base import RuleViolation
from engines.kit import offers
from engines.kit.offers import OfferBook, Terms


def code(fn, *args, **kw):
    with pytest.raises(RuleViolation) as info:
        fn(*args, **kw)
    return info.value.code


def test_terms_are_read_from_a_command_and_an_offer_of_nothing_is_refused():
    terms = offers.read_terms({"give_amount": 2, "give_cards": ["a"], "ask_cards": 1})
    assert terms == Terms(2, ("a",), 0, 1)
    assert code(offers.read_terms, {}) == "empty-offer"
    assert code(offers.read_terms, {"give_amount": -1}) == "bad-terms"
    assert code(offers.read_terms, {"give_cards": "a"}) == "bad-terms"


def test_an_offer_goes_to_another_seat_one_open_offer_per_pair():
    book = OfferBook()
    data = offers.make_offer(book, 0, 2, 3, Terms(give_amount=1))
    assert data == {
        "offer": 1,
        "seat": 0,
        "to": 2,
        "give_amount": 1,
        "give_cards": [],
        "ask_amount": 0,
        "ask_cards": 0,
    }
    book = book.opened(data)
    assert book.next_id == 2
    assert code(offers.make_offer, book, 0, 2, 3, Terms(give_amount=1)) == "offer-already-open"
    assert code(offers.make_offer, book, 0, 0, 3, Terms(give_amount=1)) == "offer-to-self"
    assert code(offers.make_offer, book, 0, 3, 3, Terms(give_amount=1)) == "no-such-seat"
    assert offers.make_offer(book, 2, 0, 3, Terms(ask_amount=1))["offer"] == 2


def test_only_the_named_seat_answers_and_only_the_offerer_withdraws():
    book = OfferBook().opened(offers.make_offer(OfferBook(), 0, 1, 3, Terms(give_amount=1)))
    assert offers.answerable(book, 1, 1, as_offerer=False).seat == 0
    assert offers.answerable(book, 1, 0, as_offerer=True).to == 1
    assert code(offers.answerable, book, 1, 2, as_offerer=False) == "not-your-offer"
    assert code(offers.answerable, book, 1, 1, as_offerer=True) == "not-your-offer"
    assert code(offers.answerable, book, 9, 1, as_offerer=False) == "no-such-offer"


def test_closing_and_lapsing_empty_the_book_but_ids_are_never_reused():
    book = OfferBook().opened(offers.make_offer(OfferBook(), 0, 1, 3, Terms(give_amount=1)))
    assert book.closed(1).open == () and book.lapsed().open == ()
    assert offers.make_offer(book.lapsed(), 0, 1, 3, Terms(give_amount=1))["offer"] == 2
    assert OfferBook.from_json(book.to_json()) == book


def test_the_accepting_seat_names_as_many_cards_as_asked():
    offer = offers.Offer(1, 0, 1, Terms(ask_cards=2))
    assert offers.accepted_data(offer, ["x", "y"])["take_cards"] == ["x", "y"]
    assert code(offers.accepted_data, offer, ["x"]) == "wrong-card-count"


def test_can_give_counts_cards_as_a_multiset():
    assert offers.can_give(3, ["a", "a", "b"], 3, ["a", "a"])
    assert not offers.can_give(3, ["a", "b"], 0, ["a", "a"])
    assert not offers.can_give(2, [], 3, [])


def test_card_identities_are_redacted_for_everyone_but_the_two_parties():
    data = {**offers.Offer(1, 0, 1, Terms(give_cards=("a", "b"), ask_cards=1)).to_json(), "take_cards": ["c"]}
    assert offers.redact(offers.ACCEPTED, data, 1) == data
    other = offers.redact(offers.ACCEPTED, data, 2)
    assert other["give_cards"] == 2 and other["take_cards"] == 1
    assert offers.redact(offers.OFFERED, data, None)["give_cards"] == 2
    assert offers.redact(offers.DECLINED, {"offer": 1, "seat": 0, "to": 1}, 2) == {
        "offer": 1,
        "seat": 0,
        "to": 1,
    }
