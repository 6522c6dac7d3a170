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
    records: Records, night_id: UUID, principal: Principal | None, view: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    view = _words(view or evenings.get_night(records, night_id, principal))
    titles = {g["engine"]: g["title"] for g in view["games"]}
    answers = [
        {**a, "words": ANSWER_WORDS[a["answer"]], "wanted": [titles[g] for g in a["games"]]}
        for a in view["answers"]
    ]
    return {
        "night": view,
        "club_id": principal.club_id,
        "organiser": principal.is_admin,
        "member": principal.is_member,
        "answer_words": ANSWER_WORDS,
        "by_answer": {k: [a for a in answers if a["answer"] == k] for k in ANSWER_WORDS},
    }


def _words(night: Mapping[str, Any]) -> dict[str, Any]:
    return {
        **night,
        "day_words": day_words(night["day"]),
        "titles": ", ".join(g["title"] for g in night["games"]),
    }
