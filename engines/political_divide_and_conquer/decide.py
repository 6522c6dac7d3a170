"""Judging commands: each handler checks what is particular to its command.

The guards every engine shares (game over, unknown command, dealer-only
chance, no such seat, chance pending) run first, in ``engines.kit``; the
settle loop then adds what the game does by itself (``flow.automatic``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engines.base import Command, Event, RuleViolation
from engines.kit import windows
from engines.kit.guards import check_chance, expect_turn, is_int
from engines.political_divide_and_conquer import events as ev
from engines.political_divide_and_conquer.catalog import CONSPIRACY_THEORIST, EVENT, GROUP
from engines.political_divide_and_conquer.flow import chance
from engines.political_divide_and_conquer.scoring import influence, is_closed
from engines.political_divide_and_conquer.state import (
    ANTE,
    CHOOSING,
    DESTROY,
    KEEPING,
    PRE_ROLL,
    RAISE,
    TAKE_OVER,
    TURNS,
    PdcState,
)

# --- chance ------------------------------------------------------------------


def draw_cards(state: PdcState, command: Command) -> list[Event]:
    _, cards = check_chance(chance(state), command)
    draw = state.pending[0]
    return [
        Event(ev.CARDS_DRAWN, {"seat": draw.seat, "cards": cards, "place": "middle", "reason": draw.reason})
    ]


def turn_up_card(state: PdcState, command: Command) -> list[Event]:
    _, (card,) = check_chance(chance(state), command)
    return [
        Event(
            ev.CARD_TURNED_UP,
            {"card": card, "name": state.card(card).name, "group": state.card(card).type == GROUP},
        )
    ]


def roll_for_first(state: PdcState, command: Command) -> list[Event]:
    dice, _ = check_chance(chance(state), command)
    top = max(dice)
    leaders = [s for s, v in zip(state.contenders, dice, strict=True) if v == top]
    first = leaders[0] if len(leaders) == 1 else None
    return [Event(ev.FIRST_PLAYER_ROLLED, {"seats": list(state.contenders), "dice": dice, "first": first})]


def attack_totals(state: PdcState) -> tuple[int, int]:
    """(attack power, defence power) before the dice (PDC-22, PDC-27)."""
    a = state.attack
    attack = sum(influence(state, g) for g in (*a.team, *a.from_base)) + a.attack_bonus
    defence = influence(state, a.target) + sum(influence(state, g) for g in a.defence) + a.defence_bonus
    return attack, defence


def roll_attack(state: PdcState, command: Command) -> list[Event]:
    dice, _ = check_chance(chance(state), command)
    a = state.attack
    attack, defence = attack_totals(state)
    won = attack + dice[0] > defence + dice[1]  # ties go to the defender (PDC-29)
    own = a.defender == a.attacker
    if not won:
        result = "failed"
    elif a.intent == DESTROY or own:
        result = "destroyed"
    else:
        result = "taken-over"
    data = {
        "seat": a.attacker,
        "target": a.target,
        "target_name": state.card(a.target).name,
        "intent": a.intent,
        "defender": a.defender,
        "dice": dice,
        "attack": attack,
        "defence": defence,
        "result": result,
    }
    return [Event(ev.ATTACK_ROLLED, data)]


def take_random_cards(state: PdcState, command: Command) -> list[Event]:
    _, cards = check_chance(chance(state), command)
    pick = state.pending[0]
    return [Event(ev.CARDS_TAKEN, {"source": pick.source, "to": pick.to, "cards": cards, "by": pick.by})]


# --- checks ------------------------------------------------------------------


def _in_turns(state: PdcState) -> None:
    if state.stage != TURNS:
        raise RuleViolation("setup", "The game has not started: the setup is dealt first.")


def _my_step(state: PdcState, seat: int, step: str) -> None:
    _in_turns(state)
    expect_turn(seat, state.turn)
    if state.step == step:
        return
    if state.step == KEEPING:
        raise RuleViolation("keep-a-card-first", "Keep one drawn card and return the other first (PDC-9).")
    if step == KEEPING:
        raise RuleViolation("nothing-to-keep", "There are no drawn cards waiting to be kept.")
    raise RuleViolation("one-choice-per-turn", "This turn's choice is already made (PDC-11).")


def _card(state: PdcState, value: Any) -> str:
    if not state.catalog.has(value):
        raise RuleViolation("unknown-card", f"There is no card {value!r}.", {"card": value})
    return value


def _from_hand(state: PdcState, seat: int, cards: list[str]) -> None:
    if Counter(cards) - Counter(state.players[seat].hand):
        raise RuleViolation("not-in-hand", "Those cards are not all in your hand.", {"cards": cards})


def on_table(state: PdcState) -> list[str]:
    """Every face-up group: the unaffiliated area and every base."""
    return [*state.unaffiliated, *(g for p in state.players for g in p.base)]


def owner(state: PdcState, group: str) -> int | None:
    for seat, player in enumerate(state.players):
        if group in player.base:
            return seat
    return None


def _stackable(state: PdcState, card: Any) -> str:
    card = _card(state, card)
    if not state.card(card).stackable:
        raise RuleViolation(
            "not-an-asset-or-deficit", f"{state.card(card).name} is not an asset or a deficit."
        )
    return card


def _check_stacks(state: PdcState, stacks: Any, allowed: list[str], used: list[str]) -> list[dict]:
    """Stacks ``[{card, group}]`` in order: each an asset or deficit, onto an allowed group
    that no power asset closes (PDC-17), the newest on top (PDC-15)."""
    if not isinstance(stacks, list):
        raise RuleViolation("bad-stacks", "Stacks are a list of {card, group}.")
    closed: dict[str, bool] = {}
    out = []
    for s in stacks:
        if not isinstance(s, Mapping):
            raise RuleViolation("bad-stacks", "Stacks are a list of {card, group}.")
        card = _stackable(state, s.get("card"))
        group = s.get("group")
        if group not in allowed:
            raise RuleViolation(
                "not-in-this-attack", "Stack only onto the groups this attack involves.", {"group": group}
            )
        if closed.get(group, is_closed(state, group)):
            raise RuleViolation(
                "stack-closed", "Nothing may be stacked atop a power asset (PDC-17).", {"group": group}
            )
        closed[group] = state.card(card).power is not None
        out.append({"card": card, "group": group})
    cards = [*used, *(s["card"] for s in out)]
    if len(set(cards)) != len(cards):
        raise RuleViolation("card-used-twice", "Each card is laid once.")
    return out


def _groups(state: PdcState, groups: Any) -> list[str]:
    if not isinstance(groups, list):
        raise RuleViolation("bad-groups", "Groups are a list of card ids.")
    for g in groups:
        if not state.catalog.is_a(g, GROUP):
            raise RuleViolation("not-a-group", f"{g!r} is not a group.", {"card": g})
    if len(set(groups)) != len(groups):
        raise RuleViolation("card-used-twice", "Each card is laid once.")
    return groups


# --- a turn: draw, keep, choose ---------------------------------------------------


def keep_card(state: PdcState, command: Command) -> list[Event]:
    seat = command["seat"]
    _my_step(state, seat, KEEPING)
    card = command.get("card")
    if card not in state.drawn:
        raise RuleViolation("not-drawn", "Keep one of the two cards you drew.", {"drawn": list(state.drawn)})
    to = command.get("return_to")
    if to not in ("top", "bottom"):
        raise RuleViolation("return-top-or-bottom", "Return the other card to the top or the bottom (PDC-9).")
    returned = state.drawn[1] if state.drawn[0] == card else state.drawn[0]
    return [Event(ev.CARD_KEPT, {"seat": seat, "card": card, "returned": returned, "to": to})]


def keep_both(state: PdcState, command: Command) -> list[Event]:
    seat = command["seat"]
    _my_step(state, seat, KEEPING)
    if not state.hand_was_empty:
        raise RuleViolation(
            "keep-both-only-from-an-empty-hand",
            "Both cards may be kept only when your hand was empty (PDC-10).",
        )
    return [Event(ev.BOTH_KEPT, {"seat": seat})]


def _group_from_hand(state: PdcState, seat: int, card: Any) -> str:
    if not state.catalog.is_a(card, GROUP):
        raise RuleViolation("not-a-group", f"{card!r} is not a group.", {"card": card})
    _from_hand(state, seat, [card])
    return card


def reject_group(state: PdcState, command: Command) -> list[Event]:
    seat = command["seat"]
    _my_step(state, seat, CHOOSING)
    card = _group_from_hand(state, seat, command.get("card"))
    return [
        Event(ev.GROUP_REJECTED, {"seat": seat, "card": card, "name": state.card(card).name}),
        Event(ev.TURN_ENDED, {"seat": seat, "took": "reject"}),
    ]


def add_to_base(state: PdcState, command: Command) -> list[Event]:
    seat = command["seat"]
    _my_step(state, seat, CHOOSING)
    card = _group_from_hand(state, seat, command.get("card"))
    return [
        Event(ev.GROUP_ADDED, {"seat": seat, "card": card, "name": state.card(card).name}),
        Event(ev.TURN_ENDED, {"seat": seat, "took": "base"}),
    ]


def stack_card(state: PdcState, command: Command) -> list[Event]:
    seat = command["seat"]
    _my_step(state, seat, CHOOSING)
    card = _stackable(state, command.get("card"))
    _from_hand(state, seat, [card])
    group = command.get("group")
    if group not in on_table(state):
        raise RuleViolation(
            "not-on-the-table", "Stack onto a face-up group on the table (PDC-14).", {"group": group}
        )
    if is_closed(state, group):
        raise RuleViolation(
            "stack-closed", "Nothing may be stacked atop a power asset (PDC-17).", {"group": group}
        )
    data = {
        "seat": seat,
        "card": card,
        "name": state.card(card).name,
        "group": group,
        "group_name": state.card(group).name,
    }
    return [Event(ev.CARD_STACKED, data), Event(ev.TURN_ENDED, {"seat": seat, "took": "stack"})]


def can_attack_from_base(state: PdcState, group: str) -> bool:
    """A group carrying Conspiracy Theorist may attack from its owner's base (PDC-19)."""
    return any(state.card(c).power == CONSPIRACY_THEORIST for c in state.stack(group))


def declare_attack(state: PdcState, command: Command) -> list[Event]:
    seat = command["seat"]
    _my_step(state, seat, CHOOSING)
    target = command.get("target")
    if target not in on_table(state):
        raise RuleViolation(
            "no-such-target", "Attack a face-up group on the table (PDC-20).", {"target": target}
        )
    intent = command.get("intent")
    if intent not in (TAKE_OVER, DESTROY):
        raise RuleViolation("declare-take-over-or-destroy", "Declare take-over or destroy (PDC-20).")
    defender = owner(state, target)
    if defender == seat and intent == TAKE_OVER:
        raise RuleViolation(
            "own-group-is-destroyed", "An attack on your own group can only destroy it (PDC-31)."
        )
    team = _groups(state, command.get("team"))
    if not team:
        raise RuleViolation("team-needs-a-group", "An attack team has at least one group.")
    if target in team:
        raise RuleViolation("target-in-team", "A group cannot attack itself.")
    base = state.players[seat].base
    from_base = [g for g in team if g in base]
    for g in from_base:
        if not can_attack_from_base(state, g):
            raise RuleViolation(
                "base-groups-do-not-attack",
                "Groups in your base cannot attack, unless they carry Conspiracy Theorist (PDC-21).",
                {"group": g},
            )
    from_hand = [g for g in team if g not in base]
    _from_hand(state, seat, from_hand)
    stacks = _check_stacks(state, command.get("stacks", []), [*team, target], team)
    _from_hand(state, seat, [*from_hand, *(s["card"] for s in stacks)])
    data = {
        "seat": seat,
        "target": target,
        "target_name": state.card(target).name,
        "intent": intent,
        "defender": defender,
        "team": from_hand,
        "from_base": from_base,
        "stacks": stacks,
    }
    return [Event(ev.ATTACK_DECLARED, data)]


def turn_choices(state: PdcState, seat: int) -> bool:
    """Has ``seat`` any of the choices A to D open (PDC-11)?"""
    hand = state.players[seat].hand
    if any(state.card(c).type == GROUP for c in hand):
        return True
    table = on_table(state)
    if any(state.card(c).stackable for c in hand) and any(not is_closed(state, g) for g in table):
        return True
    return any(can_attack_from_base(state, g) and len(table) > 1 for g in state.players[seat].base)


# --- the attack: raise or call, up the ante ----------------------------------------


def _attack_step(state: PdcState, seat: int, step: str) -> None:
    a = state.attack
    if a is None:
        raise RuleViolation("no-attack", "No attack is under way.")
    who = a.defender if step == RAISE else a.attacker
    if a.step != step:
        code = "defender-raises-once" if step == RAISE else "no-ante-now"
        raise RuleViolation(code, "That step of the attack is not now (PDC-25, PDC-26).", {"step": a.step})
    if seat != who:
        raise RuleViolation(
            "not-your-attack-step", f"Seat {who} answers this step of the attack.", {"seat": who}
        )


def _add_to_fight(state: PdcState, command: Command, step: str) -> dict[str, Any]:
    seat = command["seat"]
    _attack_step(state, seat, step)
    groups = _groups(state, command.get("groups", []))
    _from_hand(state, seat, groups)
    stacks = _check_stacks(state, command.get("stacks", []), [*state.attack.groups, *groups], groups)
    _from_hand(state, seat, [*groups, *(s["card"] for s in stacks)])
    if not groups and not stacks:
        raise RuleViolation("nothing-added", "Add at least one group, asset or deficit, or call (PDC-25).")
    return {"seat": seat, "groups": groups, "stacks": stacks}


def raise_defence(state: PdcState, command: Command) -> list[Event]:
    return [Event(ev.DEFENCE_RAISED, _add_to_fight(state, command, RAISE))]


def call_attack(state: PdcState, command: Command) -> list[Event]:
    _attack_step(state, command["seat"], RAISE)
    return [Event(ev.ATTACK_CALLED, {"seat": command["seat"]})]


def up_the_ante(state: PdcState, command: Command) -> list[Event]:
    return [Event(ev.ANTE_UPPED, _add_to_fight(state, command, ANTE))]


def stand(state: PdcState, command: Command) -> list[Event]:
    _attack_step(state, command["seat"], ANTE)
    return [Event(ev.ATTACK_STANDS, {"seat": command["seat"]})]


# --- any time: events, passing the pre-roll window -----------------------------------


def event_playable(state: PdcState, card: str) -> bool:
    """An event needing an attack is played during one, before its dice (PDC-32)."""
    if state.card(card).when != "attack":
        return True
    return state.attack is not None and state.attack.step in (RAISE, ANTE, PRE_ROLL)


def play_event(state: PdcState, command: Command) -> list[Event]:
    seat = command["seat"]
    _in_turns(state)
    card = command.get("card")
    if not state.catalog.is_a(card, EVENT):
        raise RuleViolation("not-an-event", f"{card!r} is not an event card.", {"card": card})
    _from_hand(state, seat, [card])
    definition = state.card(card)
    if not event_playable(state, card):
        raise RuleViolation(
            "event-needs-an-attack", f"{definition.name} is played during an attack, before the roll."
        )
    target = command.get("target")
    if definition.affects == "opponent":
        if not is_int(target) or not 0 <= target < state.seats or target == seat:
            raise RuleViolation(
                "name-an-opponent", f"{definition.name} names an opponent.", {"target": target}
            )
    elif target is not None:
        raise RuleViolation("no-target", f"{definition.name} names no opponent.")
    events = [Event(ev.EVENT_PLAYED, {"seat": seat, "card": card, "name": definition.name, "target": target})]
    if definition.has_op("cancel-attack"):
        events.append(Event(ev.ATTACK_CANCELLED, {"seat": state.attack.attacker, "by": seat, "card": card}))
    return events


def pass_window(state: PdcState, command: Command) -> list[Event]:
    return windows.decide_pass(state.window, command["seat"])


def end_turn(state: PdcState, command: Command) -> list[Event]:
    """A turn with no choice A to D left ends without one (reading 6)."""
    seat = command["seat"]
    _my_step(state, seat, CHOOSING)
    if turn_choices(state, seat):
        raise RuleViolation("must-choose", "Take one of the choices A to D while any is open (PDC-11).")
    return [Event(ev.TURN_ENDED, {"seat": seat, "took": "none"})]


COMMANDS = {
    "KeepCard": keep_card,
    "KeepBoth": keep_both,
    "RejectGroup": reject_group,
    "AddToBase": add_to_base,
    "StackCard": stack_card,
    "DeclareAttack": declare_attack,
    "RaiseDefence": raise_defence,
    "CallAttack": call_attack,
    "UpTheAnte": up_the_ante,
    "Stand": stand,
    "PlayEvent": play_event,
    "PassWindow": pass_window,
    "EndTurn": end_turn,
}
CHANCE_COMMANDS = {
    "DrawCards": draw_cards,
    "TurnUpCard": turn_up_card,
    "RollForFirst": roll_for_first,
    "RollAttack": roll_attack,
    "TakeRandomCards": take_random_cards,
}
