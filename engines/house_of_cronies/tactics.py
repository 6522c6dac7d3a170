"""Tactics: when each may be played, what it targets, and how a chain of
Points of order resolves.

Reaction windows: a played tactic opens a Point of order window (the *chain*)
and the tactic resolves once every other player has passed on it. Motion of
no confidence has a round-start window (``Window("motion")``) and Hawks
investigation a window opened by a bid won, or tactics bought, with a
corruption card (``Window("hawks")``); both wait for every player.

A window waits for every seat the rules allow to answer it, *whatever its
hand*: each such seat may pass, and only a seat holding a suitable tactic may
also answer. Waiting only for the holders would tell everyone, through the
passes and through a window closing at once, who holds which tactic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Event, RuleViolation
from engines.house_of_cronies import events as ev
from engines.house_of_cronies.catalog import (
    CRONY_POSITIONS,
    DIPLOMATIC_INCIDENT,
    FLOOR_CROSSING,
    FOREIGN_ALLY,
    HAWKS,
    NO_CONFIDENCE,
    POINT_OF_ORDER,
    POSITIONS,
    RESHUFFLE,
    SHEBEEN,
    TACTIC_NAMES,
    normalize_position,
)
from engines.house_of_cronies.query import (
    allowed_positions,
    cronies_of,
    is_protected,
    owner_of,
    tactic_card,
)
from engines.house_of_cronies.state import MOTION, TURNS, HocState, PlayedTactic


def name(kind: str) -> str:
    return TACTIC_NAMES.get(kind, kind)


# --- who is waited for -----------------------------------------------------


def point_of_order_seats(state: HocState) -> list[int]:
    """Seats the Point of order window still waits for: every player but the one
    whose tactic is on top of the chain, until they answer or pass, whatever
    their hand."""
    if not state.chain:
        return []
    top = state.chain[-1]
    return [s for s in range(state.seats) if s != top.seat and s not in state.chain_passed]


def hawks_targets(state: HocState) -> list[str]:
    """Cronies the open Hawks window may remove: not protected, not the one just won."""
    window = state.window
    if window is None or window.kind != "hawks" or window.target is None:
        return []
    return [c for c in cronies_of(state, window.target) if c != window.exclude and not is_protected(state, c)]


def window_seats(state: HocState) -> list[int]:
    """Seats the open motion or hawks window still waits for: every player who has
    not passed, whatever their hand. A Hawks window with nothing it could remove
    (public knowledge) waits for no one."""
    window = state.window
    if window is None:
        return []
    if window.kind != MOTION and not hawks_targets(state):
        return []
    return [s for s in range(state.seats) if s not in window.passed]


def waiting_seats(state: HocState) -> list[int]:
    """The seats the open window (the chain first) still waits for."""
    return point_of_order_seats(state) if state.chain else window_seats(state)


def answer_card(state: HocState, seat: int) -> str | None:
    """The tactic ``seat`` could answer the open window with, if it is waited for
    and holds one: a Point of order for the chain, else a Motion of no
    confidence or a Hawks investigation."""
    if seat not in waiting_seats(state):
        return None
    if state.chain:
        return tactic_card(state, seat, POINT_OF_ORDER)
    assert state.window is not None
    return tactic_card(state, seat, NO_CONFIDENCE if state.window.kind == MOTION else HAWKS)


# --- judging a play ---------------------------------------------------------


def _seat_arg(state: HocState, command: Mapping[str, Any]) -> int:
    target = command.get("target")
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < state.seats:
        raise RuleViolation("no-such-seat", "Name the target player's seat.", {"target": target})
    return target


def _played(seat: int, card: str, kind: str, **args: Any) -> Event:
    data = {"seat": seat, "card": card, "kind": kind, "target": None, "position": None, "crony": None}
    data["cabinet"] = None
    data["answering"] = None
    data.update(args)
    return Event(ev.TACTIC_PLAYED, data)


def _check_removable(state: HocState, crony: str) -> None:
    if is_protected(state, crony):
        raise RuleViolation(
            "crony-protected",
            f"{state.card(crony).label()} sits on a Saxonwold shebeen: it can never be removed or traded.",
        )


def _reshuffle(state: HocState, seat: int, card: str, command: Mapping[str, Any]) -> Event:
    raw = command.get("cabinet")
    if not isinstance(raw, Mapping):
        raise RuleViolation(
            "invalid-cabinet", "A Cabinet reshuffle names the new cabinet: position -> crony."
        )
    current = cronies_of(state, seat)
    if not current:
        raise RuleViolation("no-target", "There are no cronies in your cabinet to reshuffle.")
    arrangement: dict[str, str | None] = {p: None for p in CRONY_POSITIONS}
    named: set[str] = set()
    for key, crony in raw.items():
        position = normalize_position(key)
        if position is None:
            raise RuleViolation("unknown-position", f"There is no cabinet position {key!r}.")
        if position == FOREIGN_ALLY:
            raise RuleViolation(
                "ally-not-reshuffled", "A Cabinet reshuffle cannot move or remove the foreign ally."
            )
        if position in named:
            raise RuleViolation(
                "invalid-cabinet",
                f"The {position} position is named twice (Social services is Service delivery).",
                {"position": position},
            )
        named.add(position)
        if crony is None:
            continue
        if crony not in current:
            raise RuleViolation("not-in-cabinet", f"{crony!r} is not a crony in your cabinet.")
        if crony in arrangement.values():
            raise RuleViolation("invalid-cabinet", "Each crony takes one position.")
        if position not in allowed_positions(state, crony):
            raise RuleViolation(
                "not-a-specialist", f"{state.card(crony).label()} is not a {position} specialist."
            )
        arrangement[position] = crony
    removed = [c for c in current if c not in arrangement.values()]
    for crony in removed:
        _check_removable(state, crony)
    return _played(seat, card, RESHUFFLE, cabinet=[arrangement[p] for p in CRONY_POSITIONS])


def _floor_crossing(state: HocState, seat: int, card: str, command: Mapping[str, Any]) -> Event:
    target = _seat_arg(state, command)
    if target == seat:
        raise RuleViolation("target-self", "Floor crossing swaps a crony with another player's.")
    position = normalize_position(command.get("position"))
    if position is None:
        raise RuleViolation("unknown-position", "Name the position to trade, e.g. justice.")
    if position == FOREIGN_ALLY:
        raise RuleViolation("foreign-allies-not-traded", "A Floor crossing does not trade foreign allies.")
    index = POSITIONS.index(position)
    mine, theirs = state.players[seat].cabinet[index], state.players[target].cabinet[index]
    if mine is None or theirs is None:
        raise RuleViolation(
            "position-empty", f"Both players need a crony in {position}: cronies trade position for position."
        )
    _check_removable(state, mine)
    _check_removable(state, theirs)
    return _played(seat, card, FLOOR_CROSSING, target=target, position=position)


def _diplomatic_incident(state: HocState, seat: int, card: str, command: Mapping[str, Any]) -> Event:
    target = _seat_arg(state, command)
    if state.players[target].at(FOREIGN_ALLY) is None:
        raise RuleViolation("no-foreign-ally", "That player has no foreign ally.")
    return _played(seat, card, DIPLOMATIC_INCIDENT, target=target)


def _shebeen(state: HocState, seat: int, card: str, command: Mapping[str, Any]) -> Event:
    crony = command.get("crony")
    owner = owner_of(state, crony) if isinstance(crony, str) else None
    if owner is None:
        raise RuleViolation("not-in-cabinet", "Name a crony sitting in a cabinet.", {"crony": crony})
    if state.card(crony).type != "crony":
        raise RuleViolation("not-a-crony", "A Saxonwold shebeen cannot be used on a foreign ally.")
    if is_protected(state, crony):
        raise RuleViolation(
            "already-protected", f"{state.card(crony).label()} already has a Saxonwold shebeen."
        )
    return _played(seat, card, SHEBEEN, target=owner, crony=crony)


def _turn_tactic(state: HocState, seat: int, card: str, kind: str, command: Mapping[str, Any]) -> Event:
    if state.stage != TURNS or state.turn != seat:
        raise RuleViolation("not-your-turn", f"A {name(kind)} is played during your own turn.")
    if state.auction is not None:
        raise RuleViolation(
            "auction-open", "Tactics are played before or after bidding, not during an auction."
        )
    if kind == RESHUFFLE:
        return _reshuffle(state, seat, card, command)
    if kind == FLOOR_CROSSING:
        return _floor_crossing(state, seat, card, command)
    if kind == DIPLOMATIC_INCIDENT:
        return _diplomatic_incident(state, seat, card, command)
    return _shebeen(state, seat, card, command)


def decide_play(state: HocState, seat: int, command: Mapping[str, Any], placer: int | None) -> list[Event]:
    card = command.get("card")
    if not isinstance(card, str) or card not in state.players[seat].tactics:
        raise RuleViolation("not-your-tactic", "That tactic is not in your hand.", {"card": card})
    kind = state.card(card).tactic

    if state.chain:
        top = state.chain[-1]
        if kind != POINT_OF_ORDER:
            raise RuleViolation(
                "reaction-pending", f"Only a Point of order may answer the {name(top.kind)} just played."
            )
        if seat == top.seat:
            raise RuleViolation(
                "cannot-answer-own-tactic", "A Point of order answers another player's tactic."
            )
        if seat in state.chain_passed:
            raise RuleViolation("already-passed", "You passed on this tactic.")
        return [_played(seat, card, kind, answering=top.card)]
    if kind == POINT_OF_ORDER:
        raise RuleViolation(
            "point-of-order-only-after-a-tactic",
            "A Point of order is played only immediately after another player's tactic.",
        )
    if placer is not None:
        raise RuleViolation("placement-pending", "A gained crony must be placed first.")

    window = state.window
    if window is not None:
        if seat in window.passed:
            raise RuleViolation("already-passed", "You passed in this window.")
        if window.kind == MOTION:
            if kind != NO_CONFIDENCE:
                raise RuleViolation(
                    "reaction-pending",
                    "Before the Speaker's turn only a Motion of no confidence may be played.",
                )
            target = _seat_arg(state, command)
            if target == seat:
                raise RuleViolation("target-self", "A Motion of no confidence designates another player.")
            return [_played(seat, card, kind, target=target)]
        if kind != HAWKS:
            raise RuleViolation(
                "reaction-pending", "Only a Hawks investigation may answer this use of corruption."
            )
        crony = command.get("crony")
        if crony is not None and crony == window.exclude:
            raise RuleViolation(
                "crony-just-won", "A Hawks investigation cannot take the crony won by this round's bid."
            )
        if crony not in cronies_of(state, window.target):
            raise RuleViolation(
                "not-in-cabinet", "Name a crony in the investigated player's cabinet.", {"crony": crony}
            )
        _check_removable(state, crony)
        return [_played(seat, card, kind, target=window.target, crony=crony)]

    if kind == NO_CONFIDENCE:
        raise RuleViolation(
            "motion-only-at-round-start",
            "A Motion of no confidence is played only at the start of a round, before the Speaker's turn.",
        )
    if kind == HAWKS:
        raise RuleViolation(
            "hawks-only-after-corruption",
            "A Hawks investigation is played only right after a bid won, or tactics bought, with corruption.",
        )
    return [_turn_tactic(state, seat, card, kind, command)]


def decide_pass(state: HocState, seat: int, placer: int | None) -> list[Event]:
    if state.chain:
        if seat == state.chain[-1].seat:
            raise RuleViolation("cannot-answer-own-tactic", "Other players answer your tactic.")
        if seat in state.chain_passed:
            raise RuleViolation("already-passed", "You already passed on this tactic.")
        return [Event(ev.REACTION_PASSED, {"seat": seat, "window": POINT_OF_ORDER})]
    if state.window is None or placer is not None:
        raise RuleViolation("window-closed", "No reaction window is open.")
    if seat in state.window.passed:
        raise RuleViolation("already-passed", "You already passed in this window.")
    return [Event(ev.REACTION_PASSED, {"seat": seat, "window": state.window.kind})]


# --- resolving ------------------------------------------------------------


def _effect(state: HocState, t: PlayedTactic) -> Event:
    if t.kind == RESHUFFLE:
        assert t.cabinet is not None
        removed = [c for c in cronies_of(state, t.seat) if c not in t.cabinet]
        return Event(
            ev.CABINET_RESHUFFLED,
            {
                "seat": t.seat,
                "cabinet": dict(zip(CRONY_POSITIONS, t.cabinet, strict=True)),
                "removed": removed,
                "removed_names": [state.card(c).label() for c in removed],
            },
        )
    if t.kind == FLOOR_CROSSING:
        assert t.target is not None and t.position is not None
        index = POSITIONS.index(t.position)
        gave = state.players[t.seat].cabinet[index]
        took = state.players[t.target].cabinet[index]
        return Event(
            ev.FLOOR_CROSSED,
            {
                "seat": t.seat,
                "target": t.target,
                "position": t.position,
                "gave": gave,
                "took": took,
                "gave_name": state.card(gave).label() if gave else "",
                "took_name": state.card(took).label() if took else "",
            },
        )
    if t.kind == DIPLOMATIC_INCIDENT:
        assert t.target is not None
        ally = state.players[t.target].at(FOREIGN_ALLY)
        return Event(
            ev.ALLY_EXPELLED,
            {
                "seat": t.seat,
                "target": t.target,
                "card": ally,
                "name": state.card(ally).label() if ally else "",
            },
        )
    if t.kind == SHEBEEN:
        return Event(
            ev.CRONY_PROTECTED,
            {
                "seat": t.seat,
                "target": t.target,
                "card": t.crony,
                "name": state.card(t.crony).label() if t.crony else "",
                "tactic": t.card,
            },
        )
    if t.kind == NO_CONFIDENCE:
        return Event(ev.MOTION_CARRIED, {"seat": t.seat, "target": t.target})
    return Event(
        ev.CRONY_INVESTIGATED,
        {
            "seat": t.seat,
            "target": t.target,
            "card": t.crony,
            "name": state.card(t.crony).label() if t.crony else "",
        },
    )


def resolve_chain(state: HocState) -> list[Event]:
    """The chain's events once no Point of order is left to answer its top.

    The top tactic takes effect; each Point of order that takes effect cancels
    the tactic under it, so the first tactic carries through exactly when an
    even number of Points of order answered it.
    """
    chain = state.chain
    effective = [True] * len(chain)
    for i in range(len(chain) - 2, -1, -1):
        effective[i] = not effective[i + 1]
    events: list[Event] = []
    for i in range(len(chain) - 1):
        if not effective[i]:
            t, by = chain[i], chain[i + 1]
            events.append(
                Event(
                    ev.TACTIC_CANCELLED,
                    {"seat": t.seat, "card": t.card, "kind": t.kind, "by_seat": by.seat, "by_card": by.card},
                )
            )
    base = chain[0]
    kept: str | None = None
    if effective[0]:
        events.append(_effect(state, base))
        if base.kind == SHEBEEN:
            kept = base.card  # it stays under the crony
    events.append(Event(ev.TACTICS_DISCARDED, {"cards": [t.card for t in chain if t.card != kept]}))
    return events
