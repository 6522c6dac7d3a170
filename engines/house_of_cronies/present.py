"""What players see: views, redacted events, plain-English lines, luck, statistics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import Event
from engines.house_of_cronies import events as ev
from engines.house_of_cronies.catalog import CRONY_POSITIONS, POSITIONS, TACTIC_NAMES, normalize_position
from engines.house_of_cronies.query import votes
from engines.house_of_cronies.state import OPENING, OVER, HocState, dump_state
from engines.house_of_cronies.tactics import answer_card, point_of_order_seats, window_seats
from engines.kit.labels import is_index
from engines.kit.table import counted


def view(state: HocState, seat: int | None) -> dict[str, Any]:
    """Other hands and the decks are hidden (a window waits for every seat that
    may answer, whatever its hand, so who it waits for is public); a finished
    game shows everything."""
    if state.stage == OVER:
        return {**dump_state(state), "catalog": {"id": state.catalog.id, "version": state.catalog.version}}
    totals, penalties = votes(state)
    players = []
    for s, p in enumerate(state.players):
        mine = s == seat
        entry: dict[str, Any] = {
            "seat": s,
            "cabinet": dict(zip(POSITIONS, p.cabinet, strict=True)),
            "hand_size": len(p.hand),
            "tactics_size": len(p.tactics),
            "votes": totals[s],
            "penalty": penalties[s],
        }
        if mine:
            entry["hand"] = list(p.hand)
            entry["tactics"] = list(p.tactics)
        if mine or state.stage != OPENING:
            entry["to_place"] = list(p.to_place)
        else:
            entry["to_place_size"] = len(p.to_place)
        players.append(entry)
    auction = None
    if state.auction is not None:
        a = state.auction
        auction = {
            "card": a.card,
            "opener": a.opener,
            "high": a.high,
            "value": a.value,
            "asking": a.asking,
            "bids": {str(s): list(cards) for s, cards in a.bids},
        }
    # Who a window waits for does not depend on anyone's hand; ``you_may_answer``
    # tells a seat whether its own hand holds an answer (spectators: False).
    window = None
    answer = seat is not None and answer_card(state, seat) is not None
    if state.chain:
        window = {
            "kind": "point-of-order",
            "answering": state.chain[-1].card,
            "waiting_for": point_of_order_seats(state),
            "you_may_answer": answer,
        }
    elif state.window is not None:
        window = {
            "kind": state.window.kind,
            "target": state.window.target,
            "exclude": state.window.exclude,
            "waiting_for": window_seats(state),
            "you_may_answer": answer,
        }
    return {
        "catalog": {"id": state.catalog.id, "version": state.catalog.version},
        "seats": state.seats,
        "you": seat,
        "speaker": state.speaker,
        "stage": state.stage,
        "round": state.round,
        "final": state.final,
        "turn": state.turn,
        "main_deck_size": len(state.main_deck),
        "tactic_deck_size": len(state.tactic_deck),
        "main_discard": list(state.main_discard),
        "tactic_discard": list(state.tactic_discard),
        "table": list(state.table),
        "players": players,
        "gained": list(state.gained),
        "censured": list(state.censured),
        "auction": auction,
        "window": window,
        "chain": [
            {
                "seat": t.seat,
                "card": t.card,
                "kind": t.kind,
                "target": t.target,
                "position": t.position,
                "crony": t.crony,
                "cabinet": None if t.cabinet is None else dict(zip(CRONY_POSITIONS, t.cabinet, strict=True)),
            }
            for t in state.chain
        ],
        "protected": {crony: tactic for crony, tactic in state.shebeens},
        "waiting_for_draw": bool(state.pending_draws),
    }


def redact(event: Event, seat: int | None) -> Event:
    """Cards drawn into another player's hand are shown only as a count."""
    if event.type == ev.CARDS_DRAWN and event.data.get("seat") != seat:
        data = {k: v for k, v in event.data.items() if k != "cards"}
        data["count"] = len(event.data.get("cards", ()))
        return Event(event.type, data)
    return event


def _who(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"Seat {seat}"


def _position(position: str) -> str:
    """A cabinet position as the log words it: "vice president"."""
    return position.replace("-", " ")


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def describe(event: Event, names: Sequence[str]) -> str:
    d = event.data
    who = _who(names, d.get("seat"))
    target = _who(names, d.get("target"))
    kind = TACTIC_NAMES.get(d.get("kind", ""), d.get("kind", ""))
    t = event.type
    if t == ev.GAME_STARTED:
        return f"A game of House of Cronies starts with {d['seats']} players; {_who(names, d['speaker'])} is the Speaker."
    if t == ev.CARDS_DRAWN:
        n = len(d["cards"]) if "cards" in d else d.get("count", 0)
        deck = "tactic" if d.get("deck") == "tactics" else "main-deck"
        return f"{who} draws {n} {deck} card{'s' if n != 1 else ''}."
    if t == ev.CARDS_LAID_OUT:
        return f"{_cards(len(d['cards'])).capitalize()} are laid out on the table."
    if t == ev.TACTIC_DECK_RESHUFFLED:
        return "The tactic discards are shuffled into a new tactic deck."
    if t == ev.TACTIC_DRAW_FORFEITED:
        return f"No tactics are left: {who} draws nothing."
    if t == ev.CRONY_PLACED:
        extra = f" and draws {counted(d['free_tactics'], 'free tactics')}" if d.get("free_tactics") else ""
        return f"{who} places {d['name']} as {_position(d['position'])}{extra}."
    if t == ev.CRONY_DISCARDED:
        return f"{who} has no position for {d['name']} and discards it."
    if t == ev.ROUND_STARTED:
        if d["final"]:
            return f"The final round begins; {_who(names, d['speaker'])} is the Speaker."
        return f"Round {d['round']} begins; {_who(names, d['speaker'])} is the Speaker."
    if t == ev.REACTIONS_CLOSED:
        return "The Speaker's turn begins." if d["kind"] == "motion" else "No Hawks investigation follows."
    if t == ev.TURN_STARTED:
        return f"It is {who}'s turn."
    if t == ev.CARD_PICKED_UP:
        return f"{who} picks up a {d['value']} {d['kind']} card."
    if t == ev.BID_PLACED:
        return f"{who} bids {d['value']} for {d['name']}."
    if t == ev.BID_PASSED:
        return f"{who} does not raise."
    if t == ev.BID_WON:
        article = "" if d["name"].startswith("The ") else "the "
        return f"{who} wins {article}{d['name']} with a bid of {d['value']}."
    if t == ev.TACTIC_BOUGHT:
        return f"{who} buys {d['count']} tactic{'s' if d['count'] != 1 else ''} for {d['value']}."
    if t == ev.TACTIC_PLAYED:
        if d.get("answering"):
            return f"{who} raises a Point of order."
        on = f" against {target}" if d.get("target") is not None and d.get("target") != d.get("seat") else ""
        return f"{who} plays {kind}{on}."
    if t == ev.REACTION_PASSED:
        return f"{who} lets it pass."
    if t == ev.TACTIC_CANCELLED:
        return f"{who}'s {kind} is cancelled by {_who(names, d['by_seat'])}'s Point of order."
    if t == ev.CABINET_RESHUFFLED:
        gone = f", removing {', '.join(d['removed_names'])}" if d["removed"] else ""
        return f"{who} reshuffles their cabinet{gone}."
    if t == ev.FLOOR_CROSSED:
        return f"{who} swaps {d['gave_name']} for {target}'s {d['took_name']} ({_position(d['position'])})."
    if t == ev.ALLY_EXPELLED:
        return f"A diplomatic incident sends {target}'s {d['name']} home."
    if t == ev.CRONY_PROTECTED:
        return f"{d['name']} ({target}) is safe at the Saxonwold shebeen for the rest of the game."
    if t == ev.MOTION_CARRIED:
        return f"{target} may not bid or buy tactics this round."
    if t == ev.CRONY_INVESTIGATED:
        return f"The Hawks remove {target}'s {d['name']}."
    if t == ev.TACTICS_DISCARDED:
        return f"{_cards(len(d['cards'])).capitalize()} go to the tactic discard pile."
    if t == ev.TURN_ENDED:
        return f"{who} ends their turn{' without a card' if d['took_nothing'] else ''}."
    if t == ev.ROUND_ENDED:
        return f"Round {d['round']} ends; the Speaker token passes to {_who(names, d['next_speaker'])}."
    if t in (ev.GAME_DECIDED, ev.VOTES_COUNTED):
        winners = [_who(names, s) for s, p in enumerate(d["places"]) if p == 1]
        tally = ", ".join(f"{_who(names, s)} {v}" for s, v in enumerate(d["totals"]))
        return (
            f"The votes are counted ({tally}); {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}."
        )
    return t


def worth(state: HocState, card_id: str) -> int:
    """A main-deck card's worth for luck: face value of money, votes of cronies and allies."""
    card = state.card(card_id)
    return card.value if card.is_money else card.votes


def _percentile(values: list[int], k: int, drawn: int) -> float:
    """Mid-rank percentile of ``drawn`` among the sums of every ``k``-subset of ``values``."""
    offset = -min(0, min(values)) * k
    size = max(0, max(values)) * k + offset + 1
    ways = [[0] * size for _ in range(k + 1)]
    ways[0][offset] = 1
    for v in values:
        for j in range(k, 0, -1):
            row, prev = ways[j], ways[j - 1]
            for s in range(size):
                if prev[s]:
                    row[s + v] += prev[s]
    counts = ways[k]
    total = sum(counts)
    below = sum(counts[: drawn + offset])
    equal = counts[drawn + offset]
    return (below + equal / 2) / total


def luck(state: HocState, event: Event) -> dict[int, float]:
    """For a draw into a hand: where the drawn cards' total worth falls among
    every draw of as many cards from the same pool (0 worst, 1 best, ties at
    mid-rank). Tactics are all counted alike (0.5); the cards laid out on the
    table are everyone's, so they score no one."""
    if event.type != ev.CARDS_DRAWN:
        return {}
    seat, cards = event.data["seat"], list(event.data.get("cards", ()))
    if not cards:
        return {}
    if event.data["deck"] == "tactics":
        return {seat: 0.5}
    pool = list(state.main_deck)
    if not all(c in pool for c in cards):
        pool += cards  # the state given is the one after the draw
    values = [worth(state, c) for c in pool]
    return {seat: _percentile(values, len(cards), sum(worth(state, c) for c in cards))}


def statistics(state: HocState) -> dict[str, Any]:
    totals, penalties = votes(state)
    seats = []
    for s, stats in enumerate(state.stats):
        row = {k: v for k, v in stats.__dict__.items() if k != "won_cards"}
        row["cronies_won_names"] = [state.card(c).name for c in stats.won_cards]
        row["votes"] = totals[s]
        row["penalty"] = penalties[s]
        row["cabinet_size"] = sum(1 for c in state.players[s].cabinet if c is not None)
        seats.append(row)
    return {
        "rounds": state.round,
        "tactic_deck_reshuffles": state.tactic_reshuffles,
        "protected_cronies": len(state.shebeens),
        "seats": seats,
    }


# -------------------------------------------------------------------- label
def label_command(state: HocState, command: dict[str, Any], names: Sequence[str], logged: str) -> str:
    """A legal command in the log's words (``logged``), naming what the log
    keeps out: the cards a purchase is paid with, a tactic's crony or new cabinet."""
    t = command["type"]
    if t == "BuyTactics":
        paid = ", ".join(state.card(c).label() for c in command["cards"])
        return f"{logged}, paying {paid}"
    if t == "PlayTactic" and command.get("crony"):
        return f"{logged}: {state.card(command['crony']).label()}"
    if t == "PlayTactic" and command.get("cabinet"):
        return f"{logged}: {_cabinet(state, command['cabinet'])}"
    return logged


def _cabinet(state: HocState, cabinet: dict[str, str | None]) -> str:
    """A new cabinet, crony by crony: "Tenderpreneur as finance, ..."."""
    return ", ".join(f"{state.card(c).label()} as {_position(p)}" for p, c in cabinet.items() if c)


def awaited_label(state: HocState, command: dict[str, Any], names: Sequence[str]) -> str:
    """The draw the table is about to enter, in the log's words."""
    deck = "tactic" if command["deck"] == "tactics" else "main-deck"
    if isinstance(command["to"], int):
        return f"{_who(names, command['to'])} draws {deck} cards"
    return f"{deck.capitalize()} cards are laid out on the table"


# -------------------------------------------------------------- value labels
_CARD_FIELDS = ("card", "cards", "crony")
_SEAT_FIELDS = ("seat", "to", "target")
_TABLE = "table"


def _is_cabinet(state: HocState, value: Any) -> bool:
    """Whether ``value`` seats catalog cards (or no one) in positions, with someone seated."""
    return (
        isinstance(value, dict)
        and all(normalize_position(p) and (c is None or state.catalog.has(c)) for p, c in value.items())
        and any(value.values())
    )


def label_value(state: HocState, field: str, value: Any, names: Sequence[str]) -> str | None:
    """One value of a command's field for the scorepad: a card by its catalog
    name, a seat by its player's name, the table, a position, or a new cabinet
    in the log's words; None for anything else (amounts, decks, unknown cards)."""
    if field in _CARD_FIELDS and state.catalog.has(value):
        return state.card(value).label()
    if field in _SEAT_FIELDS and is_index(value, min(state.seats, len(names))):
        return names[value]
    if field == "to" and value == _TABLE:
        return "The table"
    if field == "position" and normalize_position(value):
        return _position(normalize_position(value)).capitalize()
    if field == "cabinet" and _is_cabinet(state, value):
        return _cabinet(state, value)
    return None
