"""Property: every game's table view model, in every reachable state of random
games, in both dealer modes and for every kind of viewer, has the published
shape, names every card face up by a name its catalog prints, shows no catalog
id, and shows a seat's hand face up only to whom may see it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from engines import registry
from engines.base import GameConfig
from engines.chancellors.cards import CARDS
from engines.kit.table import FACE_DOWN
from schemas.table import TableView
from tests.engine_contract import play_random_game, trial_config

#: The tables' groups that hold what only their seat may see.
PRIVATE = ("Hand", "Tactics", "Chosen face down", "Drawn this turn")


def catalog_names(engine_id: str, catalog: Any) -> set[str]:
    """Every card name the game's catalog prints (money cards by face value and kind)."""
    if engine_id == "chancellors":
        return {c.name for c in CARDS.values()}
    names: set[str] = set()

    def walk(node: Any, key: str = "") -> None:
        if isinstance(node, dict):
            if isinstance(node.get("name"), str):
                names.add(node["name"])
            if key in ("influence", "corruption") and "value" in node:
                names.add(f"{node['value']} {key}")
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for item in node:
                walk(item, key)

    walk(catalog or {})
    return names


def catalog_ids(catalog: Any) -> set[str]:
    ids: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("id"), str):
                ids.add(node["id"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(catalog or {})
    return {i for i in ids if re.search(r"[-\d]", i)}  # slugs; a one-word id may be a plain word too


#: A key (skipped) or a string value (group 1) in a JSON document.
JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"\s*:|"((?:[^"\\]|\\.)*)"')


def texts(node: Any) -> list[str]:
    """Every string value in ``node`` (read from its JSON in one pass: tables are checked by the thousand)."""
    found = (m.group(1) for m in JSON_STRING.finditer(json.dumps(node)) if m.group(1) is not None)
    return [json.loads(f'"{v}"') if "\\" in v else v for v in found]


LITERAL = re.compile(r"\b(None|True|False|null)\b|[{}\[\]]")


def id_pattern(ids: set[str]) -> re.Pattern:
    """Any of ``ids`` as a whole word (not a part of a longer hyphenated word)."""
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(ids))) + r")(?![\w-])")


def check_table(
    engine_id: str, table: dict, viewer: Any, over: bool, names: set[str], ids: re.Pattern
) -> None:
    for seat in table["seats"]:
        for group in seat["groups"]:
            for card in group["cards"]:
                if not card["face_down"]:
                    assert card["name"] in names, (engine_id, card)
            if group["title"] in PRIVATE and not over and viewer != "all" and viewer != seat["number"] - 1:
                assert all(c["face_down"] for c in group["cards"]), (engine_id, viewer, seat["name"], group)
    for area in table["areas"]:
        for card in area["cards"]:
            assert card["face_down"] or card["name"] in names, (engine_id, card)
    text = "\n".join(texts(table))
    assert not ids.search(text), (engine_id, ids.search(text))
    assert not LITERAL.search(text), (engine_id, LITERAL.search(text))


@pytest.mark.parametrize("dealer", ["server", "table"])
@pytest.mark.parametrize("engine_id", registry.available())
def test_every_reachable_table_names_its_cards_hides_what_it_must_and_heads_as_its_heading(engine_id, dealer):
    engine = registry.get(engine_id)
    game = registry.game(engine_id)
    for trial in game.trials:
        config = trial_config(game, trial, dealer)
        seats = config.seats
        names = catalog_names(engine_id, config.catalog)
        assert FACE_DOWN not in names
        ids = id_pattern(catalog_ids(config.catalog) or {"no-such-id"})
        players = [f"Player {chr(65 + s)}" for s in range(seats)]
        seen = [0]

        def observe(state, config=config, names=names, ids=ids, players=players, seen=seen):
            over = engine.outcome(state).finished
            seen[0] += 1
            heading = engine.heading(state, players)
            for viewer in ["all", None, *range(config.seats)]:
                table = engine.table(state, viewer, players)
                check_table(engine_id, table, viewer, over, names, ids)
                assert (table["round"], table["turn"]) == heading, (engine_id, viewer, heading)
                if seen[0] % 50 == 1:  # the published shape (marshmallow is slow: a sample suffices)
                    assert TableView().validate(table) == {}, TableView().validate(table)

        play_random_game(engine, config, seed=7, observe=observe, check_every=10**9)


# -- one scenario per game ---------------------------------------------------------


def config_of(engine_id: str, seats: int, options: dict, dealer: str = "server") -> GameConfig:
    """A config of the game with its shipped catalog."""
    game = registry.game(engine_id)
    return GameConfig(seats, game.options().load(options), dealer, trial_config(game).catalog)


def first_state(engine_id: str, seats: int, options: dict, wanted) -> Any:
    """The first state of a random game for which ``wanted(state)`` holds."""
    engine = registry.get(engine_id)
    found: list = []

    def observe(state):
        if not found and wanted(state):
            found.append(state)

    play_random_game(engine, config_of(engine_id, seats, options), 3, observe=observe, check_every=10**9)
    assert found, f"no state of {engine_id} matched"
    return found[0]


PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


def test_chancellors_a_card_chosen_face_down_shows_only_to_its_owner():
    state = first_state("chancellors", 3, {"target": 40}, lambda s: any(c is not None for c in s.chosen))
    engine = registry.get("chancellors")
    seat = next(s for s, c in enumerate(state.chosen) if c is not None)
    own = engine.table(state, seat, PLAYERS[:3])["seats"][seat]["groups"]
    other = engine.table(state, (seat + 1) % 3, PLAYERS[:3])["seats"][seat]["groups"]
    chosen = CARDS[state.chosen[seat]].name
    assert {"Chosen face down": [chosen]}.items() <= {
        g["title"]: [c["name"] for c in g["cards"]] for g in own
    }.items()
    assert [c["name"] for g in other if g["title"] == "Chosen face down" for c in g["cards"]] == [FACE_DOWN]


def test_chancellors_problems_and_services_lie_between_the_seats():
    state = first_state("chancellors", 3, {"target": 40}, lambda s: s.turn >= 1)
    table = registry.get("chancellors").table(state, None, PLAYERS[:3])
    titles = [a["title"] for a in table["areas"]]
    assert {"Problem 1", "The Diplomatic corps", "The Army", "The Navy", "Draw pile"} <= set(titles)
    assert [c["name"] for a in table["areas"] if a["title"] == "The Army" for c in a["cards"]] == [
        "The Soldier"
    ]


def test_house_of_cronies_cabinet_shows_each_crony_in_its_position():
    state = first_state("house-of-cronies", 3, {}, lambda s: any(c for c in s.players[0].cabinet))
    table = registry.get("house-of-cronies").table(state, None, PLAYERS[:3])
    cabinet = next(g for g in table["seats"][0]["groups"] if g["title"] == "Cabinet")
    placed = {state.card(c).name for c in state.players[0].cabinet if c}
    assert {c["name"] for c in cabinet["cards"]} == placed
    assert all(
        c["kind"]
        in (
            "President",
            "Vice president",
            "Finance",
            "Justice",
            "Service delivery",
            "Communications",
            "Foreign ally",
        )
        for c in cabinet["cards"]
    )
    assert all(c["value"].endswith(("vote", "votes")) for c in cabinet["cards"])


def test_house_of_cronies_a_spectator_sees_every_hand_face_down_with_its_size():
    state = first_state("house-of-cronies", 3, {}, lambda s: len(s.players[1].hand) > 1)
    table = registry.get("house-of-cronies").table(state, None, PLAYERS[:3])
    hand = next(g for g in table["seats"][1]["groups"] if g["title"] == "Hand")
    assert hand["count"] == len(state.players[1].hand) and all(c["face_down"] for c in hand["cards"])


def test_final_decrees_departments_and_control_arrows_are_a_diagram():
    state = first_state("final-decrees", 5, {}, lambda s: s.phase == "play")
    table = registry.get("final-decrees").table(state, None, PLAYERS[:5])
    diagram = table["diagram"]
    assert len(diagram["nodes"]) == len(state.departments) == 6
    assert len(diagram["arrows"]) == len(state.arrows)
    titles = {n["title"] for n in diagram["nodes"]}
    assert all(a["from"] in titles and a["to"] in titles for a in diagram["arrows"])
    assert any("Head: " in n["detail"] for n in diagram["nodes"])
    decrees = [a for a in table["areas"] if "stamped" in a["note"]]
    assert len(decrees) == len(state.decrees)


def test_maccreedys_mansion_rooms_list_what_their_locations_need():
    state = first_state("maccreedys-mansion", 3, {"max_rounds": 3}, lambda s: bool(s.markers))
    table = registry.get("maccreedys-mansion").table(state, None, PLAYERS[:3])
    foyer = next(a for a in table["areas"] if a["title"].startswith("Foyer"))
    assert "Front door: Carpenter" in foyer["note"]
    track = next(a for a in table["areas"] if a["title"] == "Job track")
    assert [c["name"] for c in track["cards"]] == [state.board.job[j].name for j in state.track]
    assert table["seats"][0]["score"].startswith("Worth ")


def test_maccreedys_mansion_money_reads_as_the_rulebook_prints_it():
    """$10,000 in the funds, the worth, a job's pay, the debts and the high bid, as the log writes it."""
    engine = registry.get("maccreedys-mansion")
    state = first_state("maccreedys-mansion", 2, {"max_rounds": 3}, lambda s: bool(s.track))
    state = state.with_company(0, debts=("gasman",)).with_(high_bidder=0, high_bid=3500)
    table = engine.table(state, None, PLAYERS[:2])
    ada = table["seats"][0]
    assert "Active funds $10,000, invested $20,000" in ada["notes"]
    assert ada["score"] == "Worth $24,000"  # less the $6,000 owed
    assert any(note.endswith("(worth $6,000)") for note in ada["notes"]), ada["notes"]
    assert "High bid $3,500" in ada["notes"]
    track = next(a for a in table["areas"] if a["title"] == "Job track")
    assert all(re.fullmatch(r"Pays \$\d{1,3}(,\d{3})*", card["value"]) for card in track["cards"]), track


def test_political_divide_and_conquer_a_base_shows_each_group_with_its_stack_in_order():
    state = first_state(
        "political-divide-and-conquer", 4, {}, lambda s: any(s.stack(g) for p in s.players for g in p.base)
    )
    table = registry.get("political-divide-and-conquer").table(state, None, PLAYERS[:4])
    seat, group = next((s, g) for s, p in enumerate(state.players) for g in p.base if state.stack(g))
    shown = next(g for g in table["seats"][seat]["groups"] if g["title"] == f"Base: {state.card(group).name}")
    assert [c["name"] for c in shown["cards"]] == [state.card(c).name for c in (group, *state.stack(group))]
