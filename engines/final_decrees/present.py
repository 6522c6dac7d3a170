"""What players see and read: views, redaction, descriptions, luck and statistics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import Event
from engines.final_decrees import events as ev
from engines.final_decrees.departments import TITLES, below, chain_top
from engines.final_decrees.flow import chance
from engines.final_decrees.state import ASSIGN, BID, OVER, PLAY, FdState, dump_state
from engines.kit import offers
from engines.kit.labels import seat_name


# ---------------------------------------------------------------------- view
def to_act(state: FdState) -> list[int]:
    """Seats the game waits for (none while chance is pending)."""
    if state.phase == OVER or chance(state) is not None:
        return []
    if state.phase == BID:
        return [s for s in state.bidders if state.bids[s] is None]
    if state.phase == ASSIGN:
        return [state.posts.index("human-resources")]
    if state.awaiting is not None:
        return [state.awaiting.seat]
    return [] if state.active is None else [state.active]


def _offer_view(offer: offers.Offer, seat: int | None) -> dict[str, Any]:
    return offers.redact(offers.OFFERED, offer.to_json(), seat)


def view(state: FdState, seat: int | None) -> dict[str, Any]:
    """Hands and sealed bids are hidden; a finished game shows all."""
    if state.phase == OVER:
        return {**dump_state(state), "finished": True}
    deck = state.deck
    window = decline_window(state)
    data: dict[str, Any] = {
        "finished": False,
        "phase": state.phase,
        "turn": state.turn,
        "active": state.active,
        "actions_left": state.actions_left,
        "used": list(state.used),
        "to_act": to_act(state),
        "waiting_for_chance": chance(state) is not None,
        "bid_round": state.bid_round,
        "bidders": list(state.bidders),
        "bid_made": [state.bids[s] is not None for s in range(state.seats)],
        "personal": list(state.personal),
        "departments": {
            d: {
                "head": state.head(d),
                "blame": state.blame_of(d),
                "controller": next((a for a, b in state.arrows if b == d), None),
                "below": list(below(state.arrows, d)),
                "chain_top": chain_top(state.arrows, d),
                "decrees": [x.id for x in state.decrees_at(d)],
            }
            for d in state.departments
        },
        "empty_department": state.empty_department,
        "arrows": [list(a) for a in state.arrows],
        "decrees": [
            {"id": d.id, "steps": list(d.steps), "stamped": d.stamped, "at": d.at, "enacted": d.enacted}
            for d in state.decrees
        ],
        "enacted": state.enacted,
        "next_allowance": 10 * (state.enacted + 1),
        "deck_size": len(deck),
        "decline_in_deck": state.catalog.decline in deck.middle,
        "decline_window": None if window is None else list(window),
        "discards": list(state.discards),
        "hand_sizes": [len(h) for h in state.hands],
        "awaiting": None if state.awaiting is None else state.awaiting.to_json(),
        "offers": [_offer_view(o, seat) for o in state.offers.open],
    }
    if seat is not None:
        data["seat"] = seat
        data["hand"] = list(state.hands[seat])
        data["my_bid"] = state.bids[seat] if state.bids else None
    return data


def redact(event: Event, seat: int | None) -> Event:
    d = event.data
    if event.type == ev.BID_PLACED and seat != d["seat"]:
        return Event(event.type, {"seat": d["seat"], "round": d["round"]})
    if event.type == ev.HANDS_DEALT:
        cards = [c if s == seat else None for s, c in enumerate(d["cards"])]
        return Event(event.type, {"cards": cards})
    if event.type == ev.CARD_DRAWN and seat != d["player"] and not d["decline"]:
        return Event(event.type, {"player": d["player"], "card": None, "decline": False})
    if event.type in (ev.TRADE_OFFERED, ev.TRADE_ACCEPTED):
        return Event(event.type, offers.redact(event.type, d, seat))
    return event


# ------------------------------------------------------------------ describe
def _name(names: Sequence[str], seat: Any) -> str:
    name = seat_name(names, seat)
    return f"seat {seat}" if name is None else name


def _department(dept: Any) -> str | None:
    """A department's title, or None when ``dept`` names no department."""
    return TITLES.get(dept) if isinstance(dept, str) else None


def _title(dept: str | None) -> str:
    return _department(dept) or "no department"


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def _cards(n: int) -> str:
    return "a card" if n == 1 else f"{n} cards"


def describe(event: Event, names: Sequence[str]) -> str:
    d, t = event.data, event.type
    who = _name(names, d.get("seat"))
    if t == ev.GAME_STARTED:
        return f"A game of Final Decrees begins with {d['seats']} players and five decrees on the Executive Branch."
    if t == ev.BID_PLACED:
        amount = f" {d['amount']} blame" if "amount" in d else ""
        return f"{who} bids{amount} in secret (round {d['round']})."
    if t == ev.BIDS_REVEALED:
        bids = ", ".join(f"{_name(names, s)} {b}" for s, b in enumerate(d["bids"]) if b is not None)
        tail = (
            f"{_name(names, d['head'])} heads Human Resources"
            if d["head"] is not None
            else "the tied highest bid again"
        )
        return f"Bids revealed: {bids}; {tail}."
    if t == ev.DEPARTMENTS_ASSIGNED:
        posts = ", ".join(f"{_name(names, s)} {_title(p)}" for s, p in enumerate(d["posts"]))
        return f"{who} assigns the departments: {posts}."
    if t == ev.HANDS_DEALT:
        return (
            "Each player is dealt a card and the deck is stacked with Stagnation and Decline in its middle."
        )
    if t == ev.TURN_STARTED:
        return f"Turn {d['turn']}: {_name(names, d['seat'])}'s turn; {_title(d['department'])} gains 1 blame."
    if t == ev.CARD_DRAWN:
        player = _name(names, d["player"])
        if d.get("decline"):
            return f"{player} draws Stagnation and Decline and plays it at once."
        return f"{player} draws a card." if d.get("card") is None else f"{player} draws {d['card']}."
    if t == ev.CARDS_DISCARDED:
        return (
            f"{_cap(_cards(len(d['cards'])))} from the deck go to the discard pile: {', '.join(d['cards'])}."
        )
    if t == ev.DECLINE_PLAYED:
        moved = "; ".join(f"{_name(names, s)} takes {n} from {_title(dept)}" for dept, s, n in d["blame"])
        tail = "it goes back into the deck" if d["reshuffled"] else "the deck is exhausted"
        return f"Departmental blame goes to the heads ({moved or 'none'}); {tail}."
    if t == ev.DRAW_ACTION_TAKEN:
        return f"{who} spends an action to draw a card."
    if t == ev.CARD_PLAYED:
        target = ""
        if d.get("target_seat") is not None:
            target += f" on {_name(names, d['target_seat'])}"
        if d.get("target_department"):
            target += f" on {_title(d['target_department'])}"
        return f"{who} plays {d['name']}{target}."
    if t == ev.BLAME_SPREAD:
        moves = "; ".join(_move(m) for m in d["moves"])
        return f"{who} spreads the blame: {moves}."
    if t == ev.DECREE_FORWARDED:
        relief = " and loses 1 blame" if d["relief"] else ""
        return f"{who} forwards {d['decree']} to {_title(d['to'])}{relief}."
    if t == ev.PLAYER_MOVED:
        return f"{who} moves {_name(names, d['player'])} to {_title(d['to'])}."
    if t == ev.DECREE_STAMPED:
        relief = " and loses 1 blame" if d["relief"] else ""
        return f"{who} stamps step {d['step']} of {d['decree']}{relief}."
    if t == ev.DECREE_ENACTED:
        chooser = (
            f"{_name(names, d['chooser'])}, head of {_title(d['top'])}, may remove {d['allowance']} blame"
            if d["chooser"] is not None
            else f"{_title(d['top'])} has no head, so no extra blame is removed"
        )
        return f"{d['decree']} is enacted (decree {d['ordinal']}); {chooser}."
    if t == ev.BLAME_REMOVED:
        parts = [f"{n} from {_name(names, s)}" for s, n in enumerate(d["players"]) if n]
        parts += [f"{n} from {_title(dept)}" for dept, n in d["departments"].items()]
        return f"{who} removes blame: {', '.join(parts) or 'none'}."
    if t == ev.ACTIONS_GAINED:
        return f"{who} uses the Treasury to gain {d['amount']} actions."
    if t == ev.DEPARTMENT_INVESTIGATED:
        return f"{who} investigates {_title(d['department'])}: {_name(names, d['head'])} takes its {d['amount']} blame."
    if t == ev.MANEUVERS_HELD:
        return f"{who} goes on maneuvers: {d['personal']} personal and {d['departmental']} Admiralty blame removed."
    if t == ev.PLAYERS_REASSIGNED:
        posts = ", ".join(f"{_name(names, s)} {_title(p)}" for s, p in enumerate(d["posts"]))
        return f"{who} reassigns the players: {posts}."
    if t == ev.CONTROL_RESTRUCTURED:
        a, b = d["arrow"]
        return f"{who} restructures: {d['change']} the arrow from {_title(a)} to {_title(b)}."
    if t == ev.TURN_ENDED:
        return f"{who}'s turn ends; {_title(d['department'])} gains {d['decrees']} blame for its decrees."
    if t == ev.TRADE_OFFERED:
        return f"{who} offers {_name(names, d['to'])} a trade: {_terms(d)}."
    if t == ev.TRADE_ACCEPTED:
        return f"{_name(names, d['to'])} accepts {who}'s trade: {_terms(d)}."
    if t == ev.TRADE_DECLINED:
        return f"{_name(names, d['to'])} declines {who}'s offer."
    if t == ev.TRADE_WITHDRAWN:
        return f"{who} withdraws their offer to {_name(names, d['to'])}."
    if t == ev.GAME_DECIDED:
        how = "the deck is exhausted" if d["ended_by"] == "deck-exhausted" else "all five decrees are enacted"
        winners = [_name(names, s) for s, p in enumerate(d["places"]) if p == 1]
        return f"The game ends: {how}; {' and '.join(winners)} carry the least blame."
    return f"{t}."


def _move(move: dict[str, Any]) -> str:
    """Blame moved from one department to another."""
    return f"{move['amount']} from {_title(move['from'])} to {_title(move['to'])}"


def _terms(d: Any) -> str:
    def cards(value: Any) -> str:
        if isinstance(value, int):
            return _cards(value) if value else ""
        return ", ".join(value)

    give = [x for x in (f"{d['give_amount']} blame" if d["give_amount"] else "", cards(d["give_cards"])) if x]
    asks = [
        x
        for x in (
            f"{d['ask_amount']} blame" if d["ask_amount"] else "",
            _cards(d["ask_cards"]) if d["ask_cards"] else "",
        )
        if x
    ]
    return f"gives {' and '.join(give) or 'nothing'} for {' and '.join(asks) or 'nothing'}"


# ---------------------------------------------------------------------- luck
def decline_window(state: FdState) -> tuple[int, int] | None:
    """Where the decline card may be, counted from the top (1 is the next card); None: not in the deck."""
    deck, decline = state.deck, state.catalog.decline
    if decline not in deck.middle:
        return None
    if not deck.runs:
        return (1, len(deck.middle))
    before = 0
    for run in deck.runs:
        if decline in run.holds:
            return (before + 1, before + run.count)
        before += run.count
    raise ValueError("the decline card is in the deck but in no run")


def decline_chance(state: FdState) -> float:
    """The chance the next card is the decline card: 1 / the size of its run, once it is the next run."""
    window = decline_window(state)
    return 1 / window[1] if window is not None and window[0] == 1 else 0.0


def luck(state: FdState, event: Event) -> dict[int, float]:
    """Drawing Stagnation and Decline is the unlucky draw; every other card counts the same.

    The chance of the decline card coming next is what the table knows (see
    ``decline_chance``), the same in both dealer modes. The percentile is the
    share of outcomes the draw was at least as good as, counting ties half.
    """
    if event.type != ev.CARD_DRAWN:
        return {}
    bad = decline_chance(state)
    if event.data["decline"]:
        return {event.data["player"]: bad / 2}
    return {event.data["player"]: bad + (1 - bad) / 2}


# ---------------------------------------------------------------- statistics
def statistics(state: FdState) -> dict[str, Any]:
    return {
        "turns": state.turn,
        "decrees_enacted": state.enacted,
        "ended_by": state.ended_by,
        "seats": [
            {
                "personal_blame": state.personal[s],
                "opening_bid": state.first_bid[s],
                "steps_stamped": state.stamps[s],
                "decrees_enacted": state.enactments[s],
                "blame_removed": state.removed[s],
                "declines_drawn": state.declines[s],
                "trades": state.trades[s],
                "department": state.posts[s] if state.phase in (PLAY, OVER) else None,
                "departments_headed": list(state.headed[s]),
            }
            for s in range(state.seats)
        ],
    }


# -------------------------------------------------------------------- label
def label_command(state: FdState, command: dict[str, Any], names: Sequence[str], logged: str) -> str:
    """A legal command in the log's words (``logged``), saying where a moved arrow goes."""
    if command["type"] == "Restructure" and command["change"] == "move":
        a, b = command["to"]
        return f"{logged}, to run from {_title(a)} to {_title(b)}"
    return logged


def awaited_label(state: FdState, command: dict[str, Any], names: Sequence[str]) -> str:
    """The chance the table is about to enter, in the log's words."""
    t = command["type"]
    if t == "DealHands":
        return "Each player is dealt a card"
    if t == "DiscardFromDeck":
        return "Cards from the deck go to the discard pile"
    return f"{_name(names, command['player'])} draws a card"


# -------------------------------------------------------------- label_value
CARD_FIELDS = frozenset({"card", "cards", "give_cards"})
# to: the seat a trade is offered to. Not players: RemoveBlame lists the blame taken from each seat there.
SEAT_FIELDS = frozenset({"seat", "player", "target_seat", "to"})
# to: where a decree goes, or where a moved arrow runs (an item)
DEPARTMENT_FIELDS = frozenset({"department", "target_department", "posts", "arrow", "from", "to"})


def _card_name(state: FdState, card: Any) -> str | None:
    found = state.catalog.by_id.get(card) if isinstance(card, str) else None
    return None if found is None else found.name


def _decree_name(state: FdState, decree: Any) -> str | None:
    return next((d.name for d in state.catalog.decrees if d.id == decree), None)


def _move_label(move: Any) -> str | None:
    if not isinstance(move, dict) or not all(_department(move.get(k)) for k in ("from", "to")):
        return None
    amount = move.get("amount")
    return _move(move) if isinstance(amount, int) and not isinstance(amount, bool) else None


def label_value(state: FdState, field: str, value: Any, names: Sequence[str]) -> str | None:
    """One value of a command's field in the table's words: a card by its name, a
    seat by its player's name, a department by its title, a decree by its name and
    a move of blame as the log words it; None for anything else (the scorepad then
    shows the value as it is)."""
    if field in CARD_FIELDS:
        return _card_name(state, value)
    if field == "decree":
        return _decree_name(state, value)
    if field == "moves":
        return _move_label(value)
    if isinstance(value, str) and field in DEPARTMENT_FIELDS:
        return _department(value)
    if field in SEAT_FIELDS:
        return seat_name(names, value)
    return None
