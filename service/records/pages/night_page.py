"""What the game night pages read: the club's nights (to come and past) with,
for its organiser, the games a new one may offer; and one night, for its
organiser (everyone's answers) and for a member (their own answer to give)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any
from uuid import UUID

from engines import registry
from service.records import access
from service.records.access import Principal
from service.records.club import clubs
from service.records.competitions import evenings
from service.records.log.context import Records

#: A member's answer, as the pages say it.
ANSWER_WORDS = {"yes": "Yes, I'm coming", "maybe": "Maybe", "no": "No, not this time"}

#: How the organiser asks for tables.
MODE_WORDS = {"balance": "Balance the ratings", "mix": "Mix the newcomers in"}


def day_words(day: dt.date) -> str:
    """A day as a member reads it: ``Friday 5 December 2025``."""
    return f"{day:%A} {day.day} {day:%B %Y}"


def nights_page(records: Records, club_id: UUID, principal: Principal | None) -> dict[str, Any]:
    access.may_see_night(principal, club_id)
    nights = [_words(n) for n in evenings.club_nights(records, club_id, principal)]
    return {
        "club": clubs.get_club(records, club_id, principal),
        "coming": list(reversed([n for n in nights if not n["past"]])),
        "past": [n for n in nights if n["past"]],
        "engines": [{"id": e, "title": registry.get(e).title} for e in registry.available()],
        "organiser": principal is not None and principal.is_admin,
        "today": dt.date.today().isoformat(),
    }


def night_page(
    records: Records, night_id: UUID, principal: Principal | None, mode: str | None = None
) -> dict[str, Any]:
    """One night; for its organiser on the night, the club's players to mark
    present and, when ``mode`` is given, the tables proposed that way."""
    view = _words(evenings.get_night(records, night_id, principal))
    organiser = principal is not None and principal.is_admin
    on_the_night = organiser and not view["day"] > dt.date.today()
    said_yes = {a["player"] for a in view["answers"] if a["answer"] == "yes"}
    came = {p["player"] for p in view["present"]} if view["present"] else said_yes
    club_players = (
        [
            {**p, "came": str(p["id"]) in came}
            for p in clubs.players(records, principal.club_id, principal)
            if not p["retired"]
        ]
        if on_the_night
        else []
    )
    titles = {g["engine"]: g["title"] for g in view["games"]}
    answers = [
        {**a, "words": ANSWER_WORDS[a["answer"]], "wanted": [titles[g] for g in a["games"]]}
        for a in view["answers"]
    ]
    return {
        "night": view,
        "club_id": principal.club_id,
        "organiser": organiser,
        "on_the_night": on_the_night,
        "club_players": club_players,
        "mode": mode,
        "proposal": _proposal(records, night_id, principal, mode, titles) if on_the_night and mode else None,
        "mode_words": MODE_WORDS,
        "member": principal.is_member,
        "answer_words": ANSWER_WORDS,
        "by_answer": {k: [a for a in answers if a["answer"] == k] for k in ANSWER_WORDS},
    }


def _proposal(
    records: Records, night_id: UUID, principal: Principal, mode: str, titles: Mapping[str, str]
) -> dict[str, Any]:
    proposal = evenings.propose_tables(records, night_id, principal, mode)
    return {
        **proposal,
        "tables": [{**t, "title": titles[t["engine"]]} for t in proposal["tables"]],
    }


def _words(night: Mapping[str, Any]) -> dict[str, Any]:
    return {
        **night,
        "day_words": day_words(night["day"]),
        "titles": ", ".join(g["title"] for g in night["games"]),
    }
