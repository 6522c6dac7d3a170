"""The six departments and the control structure between them.

Control arrows point from the controller to the controlled. The engine keeps
the structure a forest (every department has at most one controller), so "the
chain of control up" from any department is a single path: see the readings
in docs/rules/final-decrees.md (FD-32, reading 7).
"""

from __future__ import annotations

from collections.abc import Iterable

REFORM = "reform"
EXECUTIVE = "executive"
HUMAN_RESOURCES = "human-resources"
TREASURY = "treasury"
SECRET_SERVICE = "secret-service"
ADMIRALTY = "admiralty"

ALL_DEPARTMENTS = (REFORM, EXECUTIVE, HUMAN_RESOURCES, TREASURY, SECRET_SERVICE, ADMIRALTY)
TITLES = {
    REFORM: "the Department of Reform",
    EXECUTIVE: "the Executive Branch",
    HUMAN_RESOURCES: "Human Resources",
    TREASURY: "the Treasury",
    SECRET_SERVICE: "the Secret Service",
    ADMIRALTY: "the Admiralty",
}
INITIAL_ARROWS = (
    (REFORM, EXECUTIVE),
    (EXECUTIVE, HUMAN_RESOURCES),
    (EXECUTIVE, ADMIRALTY),
    (ADMIRALTY, SECRET_SERVICE),
)

Arrow = tuple[str, str]


def in_play(seats: int) -> tuple[str, ...]:
    """FD-1: five players use all six departments; four leave out Reform."""
    return ALL_DEPARTMENTS if seats == 5 else ALL_DEPARTMENTS[1:]


def initial_arrows(departments: Iterable[str]) -> tuple[Arrow, ...]:
    present = set(departments)
    return tuple(a for a in INITIAL_ARROWS if a[0] in present and a[1] in present)


def controller(arrows: Iterable[Arrow], department: str) -> str | None:
    return next((a for a, b in arrows if b == department), None)


def below(arrows: Iterable[Arrow], department: str) -> tuple[str, ...]:
    """Every department under ``department`` in the control structure (transitive)."""
    arrows = tuple(arrows)
    found: list[str] = []
    frontier = [department]
    while frontier:
        top = frontier.pop()
        for a, b in arrows:
            if a == top and b not in found and b != department:
                found.append(b)
                frontier.append(b)
    return tuple(sorted(found))


def chain_top(arrows: Iterable[Arrow], department: str) -> str:
    """FD-39: follow the chain of control up to the department nobody controls."""
    arrows = tuple(arrows)
    seen = {department}
    while (up := controller(arrows, department)) is not None and up not in seen:
        seen.add(up)
        department = up
    return department


def arrow_allowed(arrows: Iterable[Arrow], new: Arrow) -> str | None:
    """Why ``new`` cannot be added to ``arrows`` (a rule code), or None when it can."""
    arrows = tuple(arrows)
    a, b = new
    if new in arrows:
        return "arrow-exists"
    if a == b or a in below(arrows, b):
        return "control-loop"
    if controller(arrows, b) is not None:
        return "already-controlled"
    return None
