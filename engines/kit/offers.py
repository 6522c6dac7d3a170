"""Two-party agreements: an offer by one seat that takes effect only when another accepts.

Games where players trade freely ("no deals are binding") record only what
both parties confirmed. The kit keeps the open offers; the engine owns the
resources traded and checks, at acceptance, that both sides can still meet
the terms.

The life of an offer, exactly:

- ``OfferTrade`` by seat A names seat B and the terms: what A gives (an
  amount of the game's countable resource and named cards from A's hand) and
  what A asks (an amount and a *number* of cards: A cannot see B's hand, so B
  chooses which cards when accepting).
- It closes when B accepts (``AcceptTrade``: the only event that moves
  anything, the binding fact), B declines, A withdraws, or it **lapses**.
- Every open offer lapses when the turn it was made in ends, and when the game
  ends. The engine calls :func:`lapse` from the event that ends a turn, so an
  open offer never blocks the game: nobody ever has to answer one.
- A seat has at most one open offer to each other seat at a time.
- Accepting checks the terms against both hands as they are then; an offer
  that can no longer be met is refused (``offer-cannot-be-met``) and stays
  open until it lapses.

Redaction: the identities of the cards in an offer or a trade are seen only
by its two parties; everyone else sees how many cards changed hands and the
amounts (amounts are public, as blame is in Final Decrees).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engines.base import RuleViolation
from engines.kit.frozen import replace
from engines.kit.table import counted

OFFERED = "TradeOffered"
ACCEPTED = "TradeAccepted"
DECLINED = "TradeDeclined"
WITHDRAWN = "TradeWithdrawn"
OFFER_COMMANDS = ("OfferTrade", "AcceptTrade", "DeclineTrade", "WithdrawTrade")


@dataclass(frozen=True)
class Terms:
    give_amount: int = 0
    give_cards: tuple[str, ...] = ()
    ask_amount: int = 0
    ask_cards: int = 0  # how many cards; the accepting seat chooses which

    @property
    def empty(self) -> bool:
        return not (self.give_amount or self.give_cards or self.ask_amount or self.ask_cards)

    def to_json(self) -> dict[str, Any]:
        return {
            "give_amount": self.give_amount,
            "give_cards": list(self.give_cards),
            "ask_amount": self.ask_amount,
            "ask_cards": self.ask_cards,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Terms:
        return cls(data["give_amount"], tuple(data["give_cards"]), data["ask_amount"], data["ask_cards"])


@dataclass(frozen=True)
class Offer:
    id: int
    seat: int  # who offers
    to: int  # who may accept
    terms: Terms

    def to_json(self) -> dict[str, Any]:
        return {"offer": self.id, "seat": self.seat, "to": self.to, **self.terms.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Offer:
        return cls(data["offer"], data["seat"], data["to"], Terms.from_json(data))


@dataclass(frozen=True)
class OfferBook:
    """The open offers, oldest first, and the id the next offer will get."""

    open: tuple[Offer, ...] = ()
    next_id: int = 1

    def find(self, offer_id: Any) -> Offer:
        offer = next((o for o in self.open if o.id == offer_id), None)
        if offer is None:
            raise RuleViolation("no-such-offer", f"There is no open offer {offer_id!r}.", {"offer": offer_id})
        return offer

    def opened(self, data: Mapping[str, Any]) -> OfferBook:
        offer = Offer.from_json(data)
        return replace(self, open=(*self.open, offer), next_id=max(self.next_id, offer.id + 1))

    def closed(self, offer_id: int) -> OfferBook:
        return replace(self, open=tuple(o for o in self.open if o.id != offer_id))

    def lapsed(self) -> OfferBook:
        return replace(self, open=())

    def to_json(self) -> dict[str, Any]:
        return {"open": [o.to_json() for o in self.open], "next_id": self.next_id}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OfferBook:
        return cls(tuple(Offer.from_json(o) for o in data["open"]), data["next_id"])


def _count(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RuleViolation("bad-terms", f"{name} must be a whole number, 0 or more.", {name: value})
    return value


def read_terms(command: Mapping[str, Any]) -> Terms:
    """The terms of an ``OfferTrade`` command; refuses an offer of nothing for nothing."""
    cards = command.get("give_cards", [])
    if not isinstance(cards, list | tuple) or not all(isinstance(c, str) for c in cards):
        raise RuleViolation("bad-terms", "give_cards lists card ids.", {"give_cards": cards})
    terms = Terms(
        _count(command.get("give_amount", 0), "give_amount"),
        tuple(cards),
        _count(command.get("ask_amount", 0), "ask_amount"),
        _count(command.get("ask_cards", 0), "ask_cards"),
    )
    if terms.empty:
        raise RuleViolation("empty-offer", "An offer gives or asks something.")
    return terms


def make_offer(book: OfferBook, seat: int, to: Any, seats: int, terms: Terms) -> dict[str, Any]:
    """The data of a ``TradeOffered`` event, after the checks every game shares."""
    if isinstance(to, bool) or not isinstance(to, int) or not 0 <= to < seats:
        raise RuleViolation("no-such-seat", f"There is no seat {to!r}.", {"seat": to})
    if to == seat:
        raise RuleViolation("offer-to-self", "An offer is made to another player.")
    if any(o.seat == seat and o.to == to for o in book.open):
        raise RuleViolation(
            "offer-already-open", "You already have an open offer to that player.", {"to": to}
        )
    return Offer(book.next_id, seat, to, terms).to_json()


def answerable(book: OfferBook, offer_id: Any, seat: int, as_offerer: bool) -> Offer:
    """The open offer ``seat`` may answer (accept or decline; withdraw when ``as_offerer``)."""
    offer = book.find(offer_id)
    party = offer.seat if as_offerer else offer.to
    if party != seat:
        raise RuleViolation(
            "not-your-offer",
            "Only the player who made an offer withdraws it; only the one it is made to answers it.",
            {"offer": offer.id},
        )
    return offer


def can_give(amount_held: int, hand: Sequence[str], amount: int, cards: Sequence[str]) -> bool:
    """Whether a side holding ``amount_held`` and ``hand`` can hand over ``amount`` and ``cards``."""
    return amount <= amount_held and not Counter(cards) - Counter(hand)


def accepted_data(offer: Offer, chosen: Any) -> dict[str, Any]:
    """The data of the ``TradeAccepted`` event: the transfer both parties confirmed."""
    if not isinstance(chosen, list | tuple) or not all(isinstance(c, str) for c in chosen):
        raise RuleViolation("bad-terms", "cards lists card ids.", {"cards": chosen})
    if len(chosen) != offer.terms.ask_cards:
        raise RuleViolation(
            "wrong-card-count",
            f"The offer asks for {counted(offer.terms.ask_cards, 'cards')}.",
            {"ask_cards": offer.terms.ask_cards},
        )
    return {**offer.to_json(), "take_cards": list(chosen)}


def redact(event_type: str, data: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """An offer or trade event as ``seat`` sees it: card ids only for its two parties."""
    data = dict(data)
    if seat in (data.get("seat"), data.get("to")) or event_type not in (OFFERED, ACCEPTED):
        return data
    data["give_cards"] = len(data["give_cards"])
    if "take_cards" in data:
        data["take_cards"] = len(data["take_cards"])
    return data
