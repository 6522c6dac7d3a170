"""Applying events to the state. Never raises for an event ``decide`` produced."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engines.base import Event
from engines.kit import windows
from engines.kit.deck import MIDDLE, deck_of
from engines.kit.frozen import replace
from engines.political_divide_and_conquer import events as ev
from engines.political_divide_and_conquer.state import (
    ANTE,
    ATTACKING,
    CHOOSING,
    DONE,
    DRAWING,
    KEEPING,
    OVER,
    PRE_ROLL,
    RAISE,
    ROLL,
    SETUP,
    TURNS,
    Attack,
    Draw,
    PdcState,
    Pick,
    Player,
    SeatStats,
)

ROLL_WINDOW = "attack-roll"


def _minus(cards: Iterable[str], gone: Iterable[str]) -> tuple[str, ...]:
    left = Counter(cards)
    left.subtract(gone)
    return tuple(sorted(left.elements()))


def _without(cards: tuple[str, ...], gone: Iterable[str]) -> tuple[str, ...]:
    """``cards`` in order, less ``gone``."""
    gone = set(gone)
    return tuple(c for c in cards if c not in gone)


def _to_hand(state: PdcState, seat: int, cards: Iterable[str]) -> PdcState:
    return state.with_player(seat, hand=tuple(sorted((*state.players[seat].hand, *cards))))


def _apply_stacks(state: PdcState, stacks: Iterable[dict]) -> PdcState:
    for s in stacks:
        state = state.with_stack(s["group"], (*state.stack(s["group"]), s["card"]))
    return state


def _lay(state: PdcState, seat: int, groups: list[str], stacks: list[dict]) -> PdcState:
    """Cards from ``seat``'s hand onto the table: groups laid, stacks stacked."""
    hand = _minus(state.players[seat].hand, [*groups, *(s["card"] for s in stacks)])
    return _apply_stacks(state.with_player(seat, hand=hand), stacks)


def _remove_group(state: PdcState, group: str) -> PdcState:
    if group in state.unaffiliated:
        return state.with_(unaffiliated=_without(state.unaffiliated, [group]))
    for seat, player in enumerate(state.players):
        if group in player.base:
            return state.with_player(seat, base=_without(player.base, [group]))
    return state


def _end_attack(state: PdcState, attack: Attack) -> PdcState:
    """The attack team joins the attacker's base; defenders from the hand join the defender's."""
    base = state.players[attack.attacker].base
    state = state.with_player(attack.attacker, base=(*base, *attack.team))
    if attack.defence and attack.defender is not None:
        state = state.with_player(
            attack.defender, base=(*state.players[attack.defender].base, *attack.defence)
        )
    return state.with_(attack=None, window=None, step=DONE)


def _queue_draw(state: PdcState, seat: int, count: int) -> PdcState:
    if count <= 0 or not len(state.deck):
        return state
    return state.with_(pending=(*state.pending, Draw(seat, count, "event")))


def _event_played(state: PdcState, d: dict) -> PdcState:
    seat, card = d["seat"], d["card"]
    state = state.with_player(seat, hand=_minus(state.players[seat].hand, [card]))
    state = state.with_(discard=(*state.discard, card)).with_stat(seat, "events_played")
    if state.window is not None:
        state = state.with_(window=state.window.reopened(seat))
    for effect in state.card(card).effect:
        if effect.op == "draw":
            state = _queue_draw(state, seat, effect.n)
        elif effect.op == "refill-hand":
            state = _queue_draw(state, seat, effect.n - len(state.players[seat].hand))
        elif effect.op == "everyone-draws":
            for i in range(state.seats):
                state = _queue_draw(state, (seat + i) % state.seats, effect.n)
        elif effect.op in ("discard-random", "steal-random"):
            target = d["target"]
            count = min(effect.n, len(state.players[target].hand))
            to = seat if effect.op == "steal-random" else None
            if count:
                state = state.with_(pending=(*state.pending, Pick(target, to, count, seat)))
        elif effect.op == "attack-bonus" and state.attack is not None:
            state = state.with_(
                attack=replace(state.attack, attack_bonus=state.attack.attack_bonus + effect.n)
            )
        elif effect.op == "defence-bonus" and state.attack is not None:
            state = state.with_(
                attack=replace(state.attack, defence_bonus=state.attack.defence_bonus + effect.n)
            )
    return state


def _cards_drawn(state: PdcState, d: dict) -> PdcState:
    seat, cards = d["seat"], d["cards"]
    deck = state.deck
    if d["place"] == MIDDLE:
        deck = deck.take_drawn(cards)
    else:
        for _ in cards:
            _, deck = deck.take_known()
    state = state.with_(deck=deck)
    if d["reason"] != "turn":
        state = _to_hand(state, seat, cards)
    first = state.pending[0]
    rest = state.pending[1:]
    if first.count > len(cards):
        rest = (replace(first, count=first.count - len(cards)), *rest)
    if not len(deck):
        # nothing is left to draw: the draws still waiting draw nothing
        rest = tuple(p for p in rest if not isinstance(p, Draw))
        if state.stage == TURNS and state.ending is None:
            state = state.with_(ending=seat)
    state = state.with_(pending=rest)
    if d["reason"] == "turn":
        drawn = (*state.drawn, *cards)
        state = state.with_(drawn=drawn)
        if not any(isinstance(p, Draw) and p.reason == "turn" for p in rest):
            if len(drawn) == 2:
                return state.with_(step=KEEPING)
            # one card left to draw: it is kept, with nothing to return (reading 4)
            return _to_hand(state, seat, drawn).with_(step=CHOOSING)
    return state


def evolve(state: PdcState, event: Event) -> PdcState:
    d = event.data
    t = event.type
    if t == ev.GAME_STARTED:
        seats = state.seats
        first = d["first_player"]
        return state.with_(
            stage=SETUP,
            deck=deck_of(state.catalog.deck),
            players=(Player(),) * seats,
            stats=(SeatStats(),) * seats,
            pending=tuple(Draw(s, 6, "deal") for s in range(seats)),
            contenders=tuple(range(seats)) if first is None else (first,),
        )
    if t == ev.CARDS_DRAWN:
        return _cards_drawn(state, d)
    if t == ev.CARD_TURNED_UP:
        state = state.with_(deck=state.deck.take_drawn([d["card"]]))
        if d["group"]:
            return state.with_(unaffiliated=(*state.unaffiliated, d["card"]))
        return state.with_(turned_up=(*state.turned_up, d["card"]))
    if t == ev.CARDS_SHUFFLED_IN:
        return state.with_(deck=state.deck.shuffle_in(d["cards"]), turned_up=())
    if t == ev.FIRST_PLAYER_ROLLED:
        top = max(d["dice"])
        return state.with_(
            contenders=tuple(s for s, v in zip(d["seats"], d["dice"], strict=True) if v == top)
        )
    if t == ev.TURN_STARTED:
        seat = d["seat"]
        count = min(2, len(state.deck))
        return state.with_(
            stage=TURNS,
            contenders=(),
            turn=seat,
            step=DRAWING if count else CHOOSING,
            drawn=(),
            hand_was_empty=not state.players[seat].hand,
            pending=(Draw(seat, count, "turn"),) if count else (),
            turns=state.turns + 1,
        )
    if t == ev.CARD_KEPT:
        seat = d["seat"]
        put = state.deck.put_top if d["to"] == "top" else state.deck.put_bottom
        state = _to_hand(state, seat, [d["card"]]).with_stat(seat, f"cards_returned_{d['to']}")
        return state.with_(deck=put(d["returned"], [seat]), step=CHOOSING, drawn=())
    if t == ev.BOTH_KEPT:
        return _to_hand(state, d["seat"], state.drawn).with_(step=CHOOSING, drawn=())
    if t == ev.GROUP_REJECTED:
        state = state.with_player(d["seat"], hand=_minus(state.players[d["seat"]].hand, [d["card"]]))
        return state.with_(unaffiliated=(*state.unaffiliated, d["card"]), step=DONE)
    if t == ev.GROUP_ADDED:
        p = state.players[d["seat"]]
        return state.with_player(
            d["seat"], hand=_minus(p.hand, [d["card"]]), base=(*p.base, d["card"])
        ).with_(step=DONE)
    if t == ev.CARD_STACKED:
        state = _lay(state, d["seat"], [], [{"card": d["card"], "group": d["group"]}])
        return state.with_(step=DONE)
    if t == ev.ATTACK_DECLARED:
        seat = d["seat"]
        defender = d["defender"]
        attack = Attack(
            attacker=seat,
            target=d["target"],
            intent=d["intent"],
            defender=defender,
            team=tuple(d["team"]),
            from_base=tuple(d["from_base"]),
            step=RAISE if defender is not None and defender != seat else PRE_ROLL,
        )
        state = _lay(state, seat, d["team"], d["stacks"])
        return state.with_(attack=attack, step=ATTACKING).with_stat(seat, "attacks")
    if t == ev.DEFENCE_RAISED:
        a = state.attack
        state = _lay(state, d["seat"], d["groups"], d["stacks"]).with_stat(d["seat"], "defences_raised")
        return state.with_(attack=replace(a, defence=(*a.defence, *d["groups"]), step=ANTE))
    if t == ev.ATTACK_CALLED or t == ev.ATTACK_STANDS:
        return state.with_(attack=replace(state.attack, step=PRE_ROLL))
    if t == ev.ANTE_UPPED:
        a = state.attack
        state = _lay(state, d["seat"], d["groups"], d["stacks"])
        return state.with_(attack=replace(a, team=(*a.team, *d["groups"]), step=PRE_ROLL))
    if t in windows.WINDOW_EVENTS:
        state = state.with_(window=windows.evolve_window(state.window, event))
        if t == windows.WINDOW_CLOSED and d["kind"] == ROLL_WINDOW:
            state = state.with_(attack=replace(state.attack, step=ROLL))
        return state
    if t == ev.ATTACK_ROLLED:
        attack = state.attack
        result = d["result"]
        if result != "failed":
            state = _remove_group(state, attack.target)
            owner = attack.defender
            if owner is not None and owner != attack.attacker:
                state = state.with_stat(owner, "groups_lost")
            state = state.with_stat(attack.attacker, "attacks_won")
        if result == "taken-over":
            base = state.players[attack.attacker].base
            state = state.with_player(attack.attacker, base=(*base, attack.target))
            state = state.with_stat(attack.attacker, "groups_taken_over")
        elif result == "destroyed":
            state = state.with_(discard=(*state.discard, attack.target, *state.stack(attack.target)))
            state = state.with_stack(attack.target, ()).with_stat(attack.attacker, "groups_destroyed")
        return _end_attack(state, attack)
    if t == ev.ATTACK_CANCELLED:
        return _end_attack(state, state.attack)
    if t == ev.EVENT_PLAYED:
        return _event_played(state, d)
    if t == ev.CARDS_TAKEN:
        source = d["source"]
        state = state.with_player(source, hand=_minus(state.players[source].hand, d["cards"]))
        if d["to"] is None:
            state = state.with_(discard=(*state.discard, *d["cards"]))
        else:
            state = _to_hand(state, d["to"], d["cards"])
        return state.with_(pending=state.pending[1:])
    if t == ev.TURN_ENDED:
        return state.with_(step=None, drawn=())
    if t in (ev.GAME_DECIDED, ev.INFLUENCE_COUNTED):
        discarded = [c for p in state.players for c in p.hand]
        players = tuple(replace(p, hand=()) for p in state.players)
        return state.with_(
            stage=OVER,
            players=players,
            discard=(*state.discard, *discarded),
            scores=tuple(d["scores"]),
            turn=None,
        )
    return state
