"""(A) Control of the royal services: who takes each service once cards are revealed."""

from __future__ import annotations

from collections.abc import Sequence

from engines.base import Event
from engines.chancellors import events as ev
from engines.chancellors.cards import CARDS, SERVICES, service_suits
from engines.chancellors.state import ChancellorsState

DIPLOMATIC_CORPS = 0


def contends(state: ChancellorsState, seat: int, cid: str, service: int) -> bool:
    """Whether the card ``seat`` revealed may control ``service``.

    A card contends for every service it shares a suit with. Courts contend
    only for the Diplomatic corps, whatever their suits; Pawns contend only
    for services their player already holds (and share a suit with).
    """
    card = CARDS[cid]
    if card.rank == "court":
        return service == DIPLOMATIC_CORPS
    if not set(card.suits) & set(service_suits(service)):
        return False
    if card.rank == "pawn":
        return state.services[service] == seat
    return card.rank != "excuse"


def resolve(state: ChancellorsState, revealed: Sequence[str | None]) -> list[Event]:
    """One event per service, in the services' order.

    The highest matching card takes a service. Among cards of the same
    (highest) rank, the lowest cumulative score takes it; if that lowest score
    is shared, the service goes back to the centre. A service nobody contends
    for stays where it is.
    """
    events = []
    for index, service in enumerate(SERVICES):
        holder = state.services[index]
        bids = [
            (seat, cid)
            for seat, cid in enumerate(revealed)
            if cid is not None and contends(state, seat, cid, index)
        ]
        if not bids:
            events.append(Event(ev.SERVICE_UNCONTESTED, {"service": service.id, "holder": holder}))
            continue
        best = max(CARDS[cid].strength for _, cid in bids)
        top = [(seat, cid) for seat, cid in bids if CARDS[cid].strength == best]
        if len(top) > 1:
            low = min(state.scores[seat] for seat, _ in top)
            top = [(seat, cid) for seat, cid in top if state.scores[seat] == low]
        if len(top) == 1:
            seat, cid = top[0]
            events.append(
                Event(
                    ev.SERVICE_TAKEN, {"service": service.id, "seat": seat, "card": cid, "previous": holder}
                )
            )
        else:
            events.append(
                Event(
                    ev.SERVICE_DEADLOCKED,
                    {
                        "service": service.id,
                        "seats": [seat for seat, _ in top],
                        "cards": [cid for _, cid in top],
                        "previous": holder,
                    },
                )
            )
    return events
