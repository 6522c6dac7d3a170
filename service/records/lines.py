"""Plain-English lines for the service's own events (a game's creation, end,
abandonment and retractions); an engine describes its own events."""

from __future__ import annotations

from typing import Any

from service.records.fold import ACTIONS_RETRACTED, GAME_ABANDONED, GAME_CREATED, GAME_ENDED


def describe_service(event_type: str, data: dict[str, Any], names: list[str], title: str) -> str:
    if event_type == GAME_CREATED:
        return f"A game of {title} begins: {', '.join(names)}."
    if event_type == GAME_ENDED:
        places = data.get("places") or []
        winners = [names[i] for i, p in enumerate(places) if p == 1 and i < len(names)]
        how = f" ({data['ended_by']})" if data.get("ended_by") else ""
        return f"The game is over{how}: {' and '.join(winners) or 'nobody'} won."
    if event_type == GAME_ABANDONED:
        reason = f": {data['reason']}" if data.get("reason") else ""
        return f"The game was abandoned{reason}."
    if event_type == ACTIONS_RETRACTED:
        reason = f" ({data['reason']})" if data.get("reason") else ""
        return f"The recorder took the game back to step {data.get('to_version')}{reason}."
    return event_type
