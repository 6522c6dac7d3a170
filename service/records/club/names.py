"""The one rule for names (of clubs, players, leagues, seasons and a
catalog's cards), whichever way a name comes in: the API, the web pages'
forms, a history import (CSV, BG Stats, BoardGameGeek), a game document's
seats, a restored backup.

A name is stored in Unicode's composed form (NFC), without surrounding
whitespace. It is refused when it is blank (seasons may be), longer than its
limit, or holds a control character (NUL, a tab or a newline included), a
bidirectional mark (``U+202E``, ``U+2066``…), an invisible one (``U+200B``,
``U+200D``, ``U+FEFF``), a line or paragraph separator or a lone surrogate:
those let one name pass for another on a page, or cannot be stored.

A name looked up among the club's players is matched exactly, else
case-insensitively; when several players match it case-insensitively and
none exactly (``aNa`` among ``Ana``, ``ana`` and ``ANA``), it is refused
naming them rather than one picked.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping

from schemas.text import NAME_MAX, SEASON_MAX
from service.records.errors import Invalid

#: Unicode categories refused in names: controls, formats (bidi and
#: zero-width marks), line and paragraph separators, lone surrogates.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


class BadName(Invalid):
    """A name the rule refuses: the API's ``invalid-request`` with the field
    named, as for any field of the wrong shape."""

    def __init__(self, detail: str, field: str = "name"):
        super().__init__("invalid-request", detail, errors={field: [detail]})
        self.field = field


class AmbiguousName(Invalid):
    """A name that several of the club's players match case-insensitively."""

    def __init__(self, name: str, candidates: list[str]):
        listed = ", ".join(sorted(candidates))
        super().__init__(
            "player-name-ambiguous",
            f"{name} could be any of the club's players {listed}: write the name as the club does.",
            name=name,
            candidates=sorted(candidates),
        )


def name(value: object, field: str = "name", *, max_length: int = NAME_MAX, blank: bool = False) -> str:
    """``value`` as a name is stored, or ``BadName`` saying what is wrong with it."""
    if not isinstance(value, str):
        raise BadName("A name is text.", field)
    cleaned = unicodedata.normalize("NFC", value).strip()
    if any(unicodedata.category(c) in REFUSED_CATEGORIES for c in cleaned):
        raise BadName("A name cannot hold control, bidirectional or invisible characters.", field)
    if not cleaned and not blank:
        raise BadName("A name cannot be blank.", field)
    if len(cleaned) > max_length:
        raise BadName(f"A name is at most {max_length} characters.", field)
    return cleaned


def season(value: object, field: str = "season") -> str:
    """A league's season: a name that may be blank, within ``SEASON_MAX``."""
    return name(value, field, max_length=SEASON_MAX, blank=True)


def names_in(values: Mapping[str, object]) -> dict[str, str]:
    """Each of ``values`` (``name`` and ``season`` of a club, player or league)
    as it is stored; other fields as they are."""
    cleaned = dict(values)
    if "name" in cleaned:
        cleaned["name"] = name(cleaned["name"])
    if "season" in cleaned and cleaned["season"] is not None:
        cleaned["season"] = season(cleaned["season"])
    return cleaned


def player_named(wanted: str, players: Iterable[tuple[str, str]]) -> str | None:
    """The id of the player (among ``players``: name, id) that ``wanted``
    names: its exact name, else the one name equal to it case-insensitively;
    None when nobody matches; ``AmbiguousName`` when several do."""
    folded = wanted.casefold()
    alike = [(n, pid) for n, pid in players if n.casefold() == folded]
    exact = [pid for n, pid in alike if n == wanted]
    if exact:
        return exact[0]
    if len(alike) > 1:
        raise AmbiguousName(wanted, [n for n, _ in alike])
    return alike[0][1] if alike else None
