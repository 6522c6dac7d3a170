"""The card-effect vocabulary: what a catalog card may ask the engine to do.

A card's ``effect`` is a list of operations run in order when it is played.
Every operation is built from the engine's own rules, and nothing else can be
expressed: the catalog schema (``engines/final_decrees/catalog_schema.py``) refuses
a card using anything outside :data:`OPS`, so a club's catalog fails at
registration, never in the middle of a game.

=====================  =================================================  =====================
op                     does                                               parameters
=====================  =================================================  =====================
gain-actions           the player has more actions this turn              amount 1..3
personal-blame         personal blame gained (+) or removed (-)           who, amount -10..10
departmental-blame     departmental blame gained (+) or removed (-)       department, amount
draw                   the player draws cards (the decline card is        amount 1..3
                       played at once, FD-19)
investigate            as the Secret Service's power (FD-29)              department
move-to-empty          a pawn moves to the empty department (FD-26)       who
=====================  =================================================  =====================

``who`` is ``self``, ``target-player`` (another player, named when the card is
played), ``others`` or ``everyone``; ``department`` is ``own`` (the player's
department when the operation runs), ``target-department`` (named when the
card is played) or ``every``. Blame never goes below 0 (reading 8).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.base import RuleViolation

WHO = ("self", "target-player", "others", "everyone")
DEPARTMENT = ("own", "target-department", "every")
OPS: dict[str, dict[str, Any]] = {
    "gain-actions": {"amount": (1, 3)},
    "personal-blame": {"who": WHO, "amount": (-10, 10)},
    "departmental-blame": {"department": DEPARTMENT, "amount": (-10, 10)},
    "draw": {"amount": (1, 3)},
    "investigate": {"department": ("target-department",)},
    "move-to-empty": {"who": ("self", "target-player")},
}


def check_effect(effect: Sequence[Mapping[str, Any]]) -> str | None:
    """Why the engine cannot run ``effect``, or None when it can."""
    for op in effect:
        spec = OPS.get(op.get("op"))
        if spec is None:
            return f"the engine has no operation {op.get('op')!r}"
        for name, allowed in spec.items():
            value = op.get(name)
            if isinstance(allowed, tuple) and allowed and isinstance(allowed[0], int):
                low, high = allowed
                if (
                    isinstance(value, bool)
                    or not isinstance(value, int)
                    or not low <= value <= high
                    or not value
                ):
                    return f"{op['op']}: {name} is a whole number from {low} to {high}, not 0"
            elif value not in allowed:
                return f"{op['op']}: {name} is one of {', '.join(allowed)}"
        extra = set(op) - set(spec) - {"op"}
        if extra:
            return f"{op['op']} takes no {', '.join(sorted(extra))}"
    return None


def needs_player(effect: Sequence[Mapping[str, Any]]) -> bool:
    return any(op.get("who") == "target-player" for op in effect)


def needs_department(effect: Sequence[Mapping[str, Any]]) -> bool:
    return any(op.get("department") == "target-department" for op in effect)


def run(
    state: Any, seat: int, effect: Sequence[Mapping[str, Any]], target_seat: Any, target_dept: Any
) -> dict:
    """The changes a card makes, worked out in order on copies of the state's figures.

    Returns ``personal`` and ``departmental`` deltas, ``actions`` and ``draws``
    gained, and the new ``posts`` when a pawn moved.
    """
    personal = list(state.personal)
    blame = dict(zip(state.departments, state.dept_blame, strict=True))
    posts = list(state.posts)
    actions = draws = 0
    for op in effect:
        kind = op["op"]
        if kind == "gain-actions":
            actions += op["amount"]
        elif kind == "draw":
            draws += op["amount"]
        elif kind == "personal-blame":
            who = {
                "self": [seat],
                "target-player": [target_seat],
                "others": [s for s in range(state.seats) if s != seat],
                "everyone": list(range(state.seats)),
            }[op["who"]]
            for s in who:
                personal[s] = max(0, personal[s] + op["amount"])
        elif kind == "departmental-blame":
            depts = {
                "own": [posts[seat]],
                "target-department": [target_dept],
                "every": list(state.departments),
            }[op["department"]]
            for d in depts:
                blame[d] = max(0, blame[d] + op["amount"])
        elif kind == "investigate":
            head = posts.index(target_dept) if target_dept in posts else None
            if head is None or target_dept == posts[seat]:
                raise RuleViolation(
                    "cannot-investigate",
                    "Only another department with a head can be investigated.",
                    {"department": target_dept},
                )
            personal[head] += blame[target_dept]
            blame[target_dept] = 0
        elif kind == "move-to-empty":
            mover = seat if op["who"] == "self" else target_seat
            posts[mover] = next(d for d in state.departments if d not in posts)
    return {
        "personal": [after - before for after, before in zip(personal, state.personal, strict=True)],
        "departmental": {
            d: blame[d] - state.blame_of(d) for d in state.departments if blame[d] != state.blame_of(d)
        },
        "actions": actions,
        "draws": draws,
        "posts": posts if posts != list(state.posts) else None,
    }
