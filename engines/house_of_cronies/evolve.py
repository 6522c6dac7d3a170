"""Applying events to a state. Pure; never raises for an event ``decide`` made."""

from __future__ import annotations

from collections.abc import Callable

from engines.base import Event, RuleViolation
from engines.house_of_cronies import events as ev
from engines.house_of_cronies.catalog import CRONY_POSITIONS, FOREIGN_ALLY, HAWKS, POSITIONS
from engines.house_of_cronies.query import (
    add_cards,
    next_asker,
    order_from,
    owner_of,
    remove_cards,
    table_size,
)
from engines.house_of_cronies.state import (
    BETWEEN,
    LAYING,
    MOTION,
    OPENING,
    OVER,
    TURNS,
    Auction,
    Draw,
    HocState,
    PlayedTactic,
    SeatStats,
    Window,
)
from engines.kit.frozen import replace


def _pop_draw(state: HocState, drawn: int) -> tuple[Draw, ...]:
    first, rest = state.pending_draws[0], state.pending_draws[1:]
    if first.count > drawn:
        return (Draw(first.deck, first.to, first.count - drawn), *rest)
    return rest


def _game_started(state: HocState, d: dict) -> HocState:
    order = order_from(state, state.speaker)
    draws = [Draw("main", s, 6 if s == state.speaker else 7) for s in order]
    draws += [Draw("tactics", s, 2) for s in order]
    return state.with_(stage=OPENING, pending_draws=tuple(draws), stats=(SeatStats(),) * state.seats)


def _cards_drawn(state: HocState, d: dict) -> HocState:
    seat, cards = d["seat"], d["cards"]
    player = state.players[seat]
    if d["deck"] == "tactics":
        state = state.with_(tactic_deck=remove_cards(state.tactic_deck, cards))
        state = state.with_player(seat, tactics=add_cards(player.tactics, cards))
    else:
        money = [c for c in cards if state.card(c).is_money]
        gained = [c for c in cards if not state.card(c).is_money]
        state = state.with_(main_deck=remove_cards(state.main_deck, cards))
        state = state.with_player(
            seat, hand=add_cards(player.hand, money), to_place=player.to_place + tuple(gained)
        )
    return state.with_(pending_draws=_pop_draw(state, len(cards)))


def _cards_laid_out(state: HocState, d: dict) -> HocState:
    return state.with_(
        main_deck=remove_cards(state.main_deck, d["cards"]),
        table=tuple(d["cards"]),
        pending_draws=_pop_draw(state, len(d["cards"])),
        stage=MOTION,
        window=Window(MOTION),
    )


def _tactic_deck_reshuffled(state: HocState, d: dict) -> HocState:
    return state.with_(
        tactic_deck=add_cards(state.tactic_deck, d["cards"]),
        tactic_discard=remove_cards(state.tactic_discard, d["cards"]),
        tactic_reshuffles=state.tactic_reshuffles + 1,
    )


def _tactic_draw_forfeited(state: HocState, d: dict) -> HocState:
    return state.with_(pending_draws=state.pending_draws[1:])


def _crony_placed(state: HocState, d: dict) -> HocState:
    seat, card = d["seat"], d["card"]
    player = state.players[seat]
    cabinet = list(player.cabinet)
    cabinet[POSITIONS.index(d["position"])] = card
    state = state.with_player(seat, cabinet=tuple(cabinet), to_place=remove_cards(player.to_place, [card]))
    if d["free_tactics"]:
        state = state.with_(pending_draws=(*state.pending_draws, Draw("tactics", seat, d["free_tactics"])))
    return state


def _crony_discarded(state: HocState, d: dict) -> HocState:
    seat, card = d["seat"], d["card"]
    state = state.with_player(seat, to_place=remove_cards(state.players[seat].to_place, [card]))
    return state.with_(main_discard=add_cards(state.main_discard, [card]))


def _round_started(state: HocState, d: dict) -> HocState:
    state = state.with_(
        round=d["round"],
        final=d["final"],
        gained=(),
        censured=(),
        won=(),
        turns_done=0,
        turn=None,
        table=(),
        auction=None,
    )
    if d["final"]:
        return state.with_(stage=MOTION, window=Window(MOTION))
    draw = Draw("main", "table", table_size(state.seats))
    return state.with_(stage=LAYING, pending_draws=(*state.pending_draws, draw))


def _reactions_closed(state: HocState, d: dict) -> HocState:
    if d["kind"] == MOTION:
        return state.with_(window=None, stage=TURNS, turn=None, turns_done=0)
    return state.with_(window=None)


def _turn_started(state: HocState, d: dict) -> HocState:
    return state.with_(turn=d["seat"])


def _card_picked_up(state: HocState, d: dict) -> HocState:
    seat, card = d["seat"], d["card"]
    state = state.with_player(seat, hand=add_cards(state.players[seat].hand, [card]))
    state = state.with_(table=remove_cards(state.table, [card]), gained=(*state.gained, seat))
    return state.with_stat(seat, "cards_picked_up")


def _bid_placed(state: HocState, d: dict) -> HocState:
    seat = d["seat"]
    old = state.auction
    bids = tuple((s, c) for s, c in (old.bids if old else ()) if s != seat) + ((seat, tuple(d["cards"])),)
    auction = Auction(
        card=d["card"],
        opener=old.opener if old else seat,
        high=seat,
        bids=bids,
        value=d["value"],
        asking=None,
    )
    state = state.with_(auction=auction)
    state = state.with_(auction=replace(auction, asking=next_asker(state, seat, seat)))
    return state.with_stat(seat, "bids_placed")


def _bid_passed(state: HocState, d: dict) -> HocState:
    auction = state.auction
    assert auction is not None
    asking = next_asker(state, d["seat"], auction.high)
    return state.with_(auction=replace(auction, asking=asking))


def _bid_won(state: HocState, d: dict) -> HocState:
    seat, card, cards = d["seat"], d["card"], d["cards"]
    player = state.players[seat]
    state = state.with_player(seat, hand=remove_cards(player.hand, cards), to_place=(*player.to_place, card))
    state = state.with_(
        main_discard=add_cards(state.main_discard, cards),
        table=remove_cards(state.table, [card]),
        gained=(*state.gained, seat),
        won=(*state.won, (seat, card)),
        auction=None,
    )
    if d["corruption"]:
        state = state.with_(window=Window("hawks", target=seat, exclude=card))
    stats = list(state.stats)
    stats[seat] = replace(stats[seat], won_cards=(*stats[seat].won_cards, card))
    return state.with_(stats=tuple(stats)).with_stat(seat, "cronies_won")


def _tactic_bought(state: HocState, d: dict) -> HocState:
    seat, cards = d["seat"], d["cards"]
    state = state.with_player(seat, hand=remove_cards(state.players[seat].hand, cards))
    state = state.with_(
        main_discard=add_cards(state.main_discard, cards),
        pending_draws=(*state.pending_draws, Draw("tactics", seat, d["count"])),
    )
    if d["corruption"]:
        exclude = next((card for s, card in state.won if s == seat), None)
        state = state.with_(window=Window("hawks", target=seat, exclude=exclude))
    return state.with_stat(seat, "tactics_bought", d["count"])


def _tactic_played(state: HocState, d: dict) -> HocState:
    seat, card = d["seat"], d["card"]
    state = state.with_player(seat, tactics=remove_cards(state.players[seat].tactics, [card]))
    played = PlayedTactic(
        seat=seat,
        card=card,
        kind=d["kind"],
        target=d["target"],
        position=d["position"],
        crony=d["crony"],
        cabinet=None if d["cabinet"] is None else tuple(d["cabinet"]),
    )
    state = state.with_(chain=(*state.chain, played), chain_passed=())
    if d["kind"] == HAWKS:
        state = state.with_(window=None)  # one investigation per corrupt payment
    return state.with_stat(seat, "tactics_played")


def _reaction_passed(state: HocState, d: dict) -> HocState:
    if state.chain:
        return state.with_(chain_passed=(*state.chain_passed, d["seat"]))
    window = state.window
    assert window is not None
    return state.with_(window=Window(window.kind, (*window.passed, d["seat"]), window.target, window.exclude))


def _tactic_cancelled(state: HocState, d: dict) -> HocState:
    return state.with_stat(d["seat"], "tactics_cancelled")


def _remove_from_cabinet(state: HocState, card: str) -> HocState:
    owner = owner_of(state, card)
    if owner is None:
        return state
    cabinet = tuple(None if c == card else c for c in state.players[owner].cabinet)
    state = state.with_player(owner, cabinet=cabinet)
    return state.with_(main_discard=add_cards(state.main_discard, [card])).with_stat(owner, "cronies_lost")


def _cabinet_reshuffled(state: HocState, d: dict) -> HocState:
    seat = d["seat"]
    cabinet = [d["cabinet"][p] for p in CRONY_POSITIONS] + [state.players[seat].at(FOREIGN_ALLY)]
    state = state.with_player(seat, cabinet=tuple(cabinet))
    return state.with_(main_discard=add_cards(state.main_discard, d["removed"]))


def _floor_crossed(state: HocState, d: dict) -> HocState:
    index = POSITIONS.index(d["position"])
    mine = list(state.players[d["seat"]].cabinet)
    theirs = list(state.players[d["target"]].cabinet)
    mine[index], theirs[index] = d["took"], d["gave"]
    return state.with_player(d["seat"], cabinet=tuple(mine)).with_player(d["target"], cabinet=tuple(theirs))


def _ally_expelled(state: HocState, d: dict) -> HocState:
    return _remove_from_cabinet(state, d["card"])


def _crony_protected(state: HocState, d: dict) -> HocState:
    return state.with_(shebeens=(*state.shebeens, (d["card"], d["tactic"])))


def _motion_carried(state: HocState, d: dict) -> HocState:
    return state.with_(censured=(*state.censured, d["target"]))


def _crony_investigated(state: HocState, d: dict) -> HocState:
    return _remove_from_cabinet(state, d["card"])


def _tactics_discarded(state: HocState, d: dict) -> HocState:
    return state.with_(tactic_discard=add_cards(state.tactic_discard, d["cards"]), chain=(), chain_passed=())


def _turn_ended(state: HocState, d: dict) -> HocState:
    if d["took_nothing"]:
        state = state.with_stat(d["seat"], "turns_without_a_card")
    return state.with_(turn=None, turns_done=state.turns_done + 1)


def _round_ended(state: HocState, d: dict) -> HocState:
    return state.with_(
        table=(),
        main_discard=add_cards(state.main_discard, d["discarded"]),
        speaker=d["next_speaker"],
        stage=BETWEEN,
        turn=None,
    )


def _votes_counted(state: HocState, d: dict) -> HocState:
    return state.with_(votes=tuple(d["totals"]), stage=OVER, turn=None)


_HANDLERS: dict[str, Callable[[HocState, dict], HocState]] = {
    ev.GAME_STARTED: _game_started,
    ev.CARDS_DRAWN: _cards_drawn,
    ev.CARDS_LAID_OUT: _cards_laid_out,
    ev.TACTIC_DECK_RESHUFFLED: _tactic_deck_reshuffled,
    ev.TACTIC_DRAW_FORFEITED: _tactic_draw_forfeited,
    ev.CRONY_PLACED: _crony_placed,
    ev.CRONY_DISCARDED: _crony_discarded,
    ev.ROUND_STARTED: _round_started,
    ev.REACTIONS_CLOSED: _reactions_closed,
    ev.TURN_STARTED: _turn_started,
    ev.CARD_PICKED_UP: _card_picked_up,
    ev.BID_PLACED: _bid_placed,
    ev.BID_PASSED: _bid_passed,
    ev.BID_WON: _bid_won,
    ev.TACTIC_BOUGHT: _tactic_bought,
    ev.TACTIC_PLAYED: _tactic_played,
    ev.REACTION_PASSED: _reaction_passed,
    ev.TACTIC_CANCELLED: _tactic_cancelled,
    ev.CABINET_RESHUFFLED: _cabinet_reshuffled,
    ev.FLOOR_CROSSED: _floor_crossed,
    ev.ALLY_EXPELLED: _ally_expelled,
    ev.CRONY_PROTECTED: _crony_protected,
    ev.MOTION_CARRIED: _motion_carried,
    ev.CRONY_INVESTIGATED: _crony_investigated,
    ev.TACTICS_DISCARDED: _tactics_discarded,
    ev.TURN_ENDED: _turn_ended,
    ev.ROUND_ENDED: _round_ended,
    ev.GAME_DECIDED: _votes_counted,
    ev.VOTES_COUNTED: _votes_counted,
}


def evolve(state: HocState, event: Event) -> HocState:
    handler = _HANDLERS.get(event.type)
    if handler is None:
        raise RuleViolation("unknown-event", f"House of Cronies has no event {event.type!r}.")
    return handler(state, dict(event.data))
