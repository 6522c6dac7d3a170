"""The log (3(f)): a line names a card by the name printed on it, a room or a
location by its title and a space by its place in its location, as the board
and the cards a table holds read. The events carry these names; an event
recorded before they did still reads, by its catalog id."""

from __future__ import annotations

from engines.base import Event, fold
from engines.maccreedys_mansion import ENGINE
from engines.maccreedys_mansion import events as ev
from tests.engine_contract import as_stored, play_random_game

from .builders import NAMES, act, advance, close, config, fill, new_game, run, until

NAME_FIELDS = ("name", "space_name", "location_name", "room_name")


def lines(events: list[Event], seats: int = 2) -> list[str]:
    return [ENGINE.describe(event, NAMES[:seats]) for event in events]


def draw(state, card: str):
    request = ENGINE.chance(state)
    return run(state, {"type": "DrawCard", "seat": None, **request.fixed, "cards": [card]})


def hired_carpenter_with_lumber():
    """Round 1, Placement: Ada has hired a carpenter and bought lumber; Bram nothing."""
    state = new_game(2)
    state = act(state, {"type": "HireWorker", "seat": 0, "worker": "carpenter"})
    state = act(state, {"type": "PassHiring", "seat": 1})
    state = act(state, {"type": "BuyResources", "seat": 0, "resource": "lumber", "count": 2})
    while state.phase == "hiring":
        state = act(state, {"type": "PassHiring", "seat": state.turn})
    return state


def as_recorded_before(event: Event) -> Event:
    """``event`` as a game recorded before the events carried names stored it."""
    data = {k: v for k, v in event.data.items() if k not in NAME_FIELDS}
    if "results" in data:
        data["results"] = [{k: v for k, v in r.items() if k not in NAME_FIELDS} for r in data["results"]]
    return Event(event.type, data)


def test_a_drawn_job_is_named_as_printed():
    state = new_game(2, track=())
    _, events = draw(state, "job-front-door")
    assert lines(events)[0] == "Job card drawn to the job track: Restore the front door."


def test_one_resource_bought_reads_in_the_singular_and_more_in_the_plural():
    state = new_game(2)
    _, one = run(state, {"type": "BuyResources", "seat": 0, "resource": "pipes", "count": 1})
    assert lines(one)[0] == f"{NAMES[0]} buys 1 pipe."
    _, three = run(state, {"type": "BuyResources", "seat": 0, "resource": "pipes", "count": 3})
    assert lines(three)[0] == f"{NAMES[0]} buys 3 pipes."


def test_a_revealed_event_card_and_what_it_breaks_are_named():
    state = fill(until(new_game(2), "event"), "front-door", 1)
    _, events = draw(state, "event-storm")
    assert lines(events)[:3] == [
        "Event card revealed: Storm.",
        "Storm breaks the Front door: 2 markers removed, 0 jobs back in the deck.",
        "Storm is resolved.",
    ]


def test_a_fine_and_a_bonus_name_their_card():
    state = until(new_game(2), "event")
    _, events = draw(state, "event-property-tax")
    assert "Ada pays $1,000 (Property tax)." in lines(events)
    _, events = draw(state, "event-open-house")
    assert "Ada receives $3,000 (Open house)." in lines(events)


def test_a_revealed_haunt_card_and_the_room_it_haunts_are_named():
    state = until(new_game(2), "haunt")
    _, events = draw(state, "haunt-cold-spot")
    assert lines(events)[:2] == [
        "Haunt card revealed: Cold spot.",
        "Cold spot haunts the Cellar: nobody works there in round 2.",
    ]


def test_a_placed_worker_and_a_dedicated_resource_name_their_space():
    state, events = run(
        hired_carpenter_with_lumber(),
        {"type": "PlaceWorker", "seat": 0, "worker": "carpenter", "space": "shelves-1"},
    )
    assert lines(events)[0] == "Ada places a carpenter on Shelves, space 1."
    _, events = run(state, {"type": "DedicateResource", "seat": 0, "space": "shelves-2"})
    assert lines(events)[0] == "Ada dedicates lumber to mark Shelves, space 2."


def test_a_worker_whose_name_begins_with_a_vowel_is_an_electrician():
    _, events = run(new_game(2), {"type": "HireWorker", "seat": 0, "worker": "electrician"})
    assert lines(events)[0] == "Ada hires an electrician."
    _, events = run(new_game(2), {"type": "HireWorker", "seat": 0, "worker": "mason"})
    assert lines(events)[0] == "Ada hires a mason."


def test_a_location_a_closed_company_breaks_is_named():
    state = fill(close(new_game(2), 0), "tub", 1)
    state, _ = draw(until(state, "haunt"), "haunt-creaking")
    _, events = run(state, {"type": "Haunt", "seat": 0, "target": "location", "location": "tub"})
    assert (
        lines(events)[0]
        == "Ada's haunting breaks the Clawfoot tub: 3 markers removed, 0 jobs back in the deck."
    )


def test_a_room_a_closed_company_haunts_is_named():
    state, _ = draw(until(close(new_game(2), 0), "haunt"), "haunt-creaking")
    _, events = run(state, {"type": "Haunt", "seat": 0, "target": "room", "room": "master-bedroom"})
    assert lines(events)[0] == "Ada's haunting haunts the Master bedroom: nobody works there in round 2."


def test_an_inspected_job_is_named_with_the_company_that_takes_it():
    _, events = advance(fill(new_game(2), "shelves", 1), "earnings")
    inspected = next(e for e in events if e.type == ev.JOBS_INSPECTED)
    assert lines([inspected]) == ["Inspection: 1 job completed; Restore the shelves to Bram."]


def test_an_event_recorded_before_the_names_reads_by_its_id():
    stored = [
        Event(ev.JOB_DRAWN, {"card": "job-front-door", "set_aside": False}),
        Event(ev.WORKER_PLACED, {"seat": 0, "worker": "carpenter", "space": "front-door-1"}),
        Event(ev.COMPANY_FINED, {"seat": 1, "amount": 1000, "card": "event-property-tax"}),
        Event(ev.ROOM_HAUNTED, {"seat": 0, "room": "master-bedroom", "round": 2}),
    ]
    assert lines(stored) == [
        "Job card drawn to the job track: job-front-door.",
        "Ada places a carpenter on front-door-1.",
        "Bram pays $1,000 (event-property-tax).",
        "Ada's haunting haunts the master-bedroom: nobody works there in round 2.",
    ]


def test_a_game_recorded_before_the_names_replays_to_the_same_state_and_every_line_reads():
    cfg = config(3, max_rounds=6)
    game = play_random_game(ENGINE, cfg, 5, check_every=10_000)
    before = [as_recorded_before(event) for event in game.events]
    assert any(b.data != e.data for b, e in zip(before, game.events, strict=True))
    assert fold(ENGINE, cfg, [as_stored(event) for event in before]) == game.state
    assert all(line.endswith(".") for line in lines(before, 3))
