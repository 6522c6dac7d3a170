"""The game page and the replay viewer, drawn from the table view model.

The game page follows the game: its live part asks every two seconds whether
the game's version moved and is swapped in place when it did (htmx). The
replay page renders the step asked for (it works without scripts) and ships,
beside it, a window of the steps around it (each step's line and table, tables
as HTML fragments rendered by the same template, ``fragments``); the viewer draws those
without a request and fetches the others a chunk at a time as the reader comes
near them (``replay_steps``), so a long game's first load carries a few dozen
steps, not all of them.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from uuid import UUID

from flask import Response, current_app, flash, g, redirect, render_template, request, url_for
from markupsafe import Markup

from engines.base import RuleViolation
from service.records.errors import Conflict, Forbidden, Invalid
from service.records.pages import entries, game_page, replay_viewer
from service.web import posted, session
from service.web.views import blueprint

NODE_W, NODE_H, GAP_X, GAP_Y = 150, 40, 14, 34


def _int(name: str, default: int | None = None) -> int | None:
    """A whole number from the query, or ``default`` when absent."""
    value = request.values.get(name, "")
    try:
        return int(value) if value != "" else default
    except ValueError as exc:
        raise Invalid("bad-number", f"{name} must be a whole number.") from exc


@blueprint.app_template_filter("layout")
def layout(diagram: dict[str, Any]) -> dict[str, Any]:
    """Places a diagram's nodes in rows by depth (roots on top) for an SVG:
    each node's box and each arrow's line, and the drawing's size."""
    titles = [n["title"] for n in diagram["nodes"]]
    parent = {a["to"]: a["from"] for a in diagram["arrows"]}

    def depth(title: str, seen: int = 0) -> int:
        return 0 if title not in parent or seen > len(titles) else 1 + depth(parent[title], seen + 1)

    rows: dict[int, list[str]] = {}
    for title in titles:
        rows.setdefault(depth(title), []).append(title)
    per_row = max((len(r) for r in rows.values()), default=1)
    width = per_row * NODE_W + (per_row - 1) * GAP_X
    boxes = {}
    for d, row in rows.items():
        offset = (width - (len(row) * NODE_W + (len(row) - 1) * GAP_X)) / 2
        for i, title in enumerate(row):
            boxes[title] = {"x": offset + i * (NODE_W + GAP_X), "y": d * (NODE_H + GAP_Y), "title": title}
    lines = [
        {
            "x1": boxes[a["from"]]["x"] + NODE_W / 2,
            "y1": boxes[a["from"]]["y"] + NODE_H,
            "x2": boxes[a["to"]]["x"] + NODE_W / 2,
            "y2": boxes[a["to"]]["y"],
        }
        for a in diagram["arrows"]
        if a["from"] in boxes and a["to"] in boxes
    ]
    height = (max(rows, default=0) + 1) * (NODE_H + GAP_Y) - GAP_Y
    return {
        "boxes": list(boxes.values()),
        "lines": lines,
        "width": width,
        "height": height,
        "w": NODE_W,
        "h": NODE_H,
    }


@blueprint.app_template_filter("place")
def place(value: int) -> str:
    """A finishing place in words: 1 -> "1st"."""
    suffix = "th" if 10 <= value % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")
    return f"{value}{suffix}"


def _page(game_id: UUID, as_seat: int | None) -> dict[str, Any]:
    """The game page as the caller may see it, its seat's actions narrowed by the query's picks."""
    picks = request.args.getlist("p")
    page = game_page.game_page(session.records(), game_id, session.principal(), as_seat, picks)
    return {**page, "as_seat": as_seat, "picks": picks}


@blueprint.get("/game/<uuid:game_id>")
def game(game_id: UUID):
    return render_template("game.html", **_page(game_id, _int("seat")))


@blueprint.get("/game/<uuid:game_id>/live")
def game_live(game_id: UUID):
    """The live part of the game page, or 204 when the game has not moved since ``version``."""
    page = _page(game_id, _int("seat"))
    if page["version"] == _int("version") or page.get("result_only"):  # a result alone never moves
        return Response(status=204)
    return render_template("_game_live.html", **page)


@blueprint.post("/game/<uuid:game_id>/act")
def act(game_id: UUID):
    """An action for the page's seat: the live part swapped in place with the
    game moved on (or the refusal in words), or, without scripts, a redirect
    to the page."""
    as_seat = _int("seat")  # the query's: the seat the page is seen as
    actor = posted.seat(request.form.get("actor", ""))
    refused = ""
    try:
        command = posted.command()
        entries.act_for_seat(
            session.records(),
            game_id,
            session.principal(),
            actor,
            command,
            posted.version(),
            g.get("request_id"),
        )
    except (Conflict, Forbidden, Invalid, RuleViolation) as error:
        refused = posted.why(error)
    if posted.swapped():
        typed = posted.typed() if refused else None
        return render_template("_game_live.html", **_page(game_id, as_seat), refused=refused, typed=typed)
    if refused:
        flash(refused, "refused")
    return redirect(url_for("web.game", game_id=game_id, seat=as_seat), 303)


#: Steps shipped with the replay page on each side of the one asked for.
WINDOW = 6
#: Steps in one request of the viewer (it asks for whole chunks, so their ETags are reused).
CHUNK = 25
#: The most steps one request may ask for.
MOST = 100


@blueprint.get("/game/<uuid:game_id>/replay")
def replay(game_id: UUID):
    seat = _int("seat")
    replay = replay_viewer.replay_steps(session.records(), game_id, session.principal(), seat)
    steps = replay["steps"]
    step = min(max(_int("step", 1), 1), len(steps)) if steps else None
    return render_template(
        "replay.html",
        **replay,
        step=steps[step - 1] if step else None,
        **_shipped(replay, step),
        chunk=CHUNK,
        chapters=replay_viewer.chapters(steps),
        steps_url=request.path + "/steps" + (f"?seat={seat}" if seat is not None else ""),
    )


@blueprint.get("/game/<uuid:game_id>/replay/steps")
def replay_steps(game_id: UUID):
    """Steps ``from`` to ``to`` (a chunk from ``from`` when ``to`` is absent, at most ``MOST``):
    each step's line and table (a run of steps showing one table sends it once, each part once:
    ``_window``). Compact JSON made once per drawing (game, viewer, version) and range,
    revalidated by its ETag."""
    replay = replay_viewer.replay_steps(session.records(), game_id, session.principal(), _int("seat"))
    first = max(_int("from", 1), 1)
    last = min(max(_int("to", first + CHUNK - 1), first), first + MOST - 1)
    tag = f"{replay['drawn']}-{first}-{last}"
    body = _SENT.get(tag)
    if body is None:
        body = _SENT[tag] = json.dumps(_window(replay, first, last), separators=(",", ":")).encode()
        while len(_SENT) > _KEEP:
            _SENT.pop(next(iter(_SENT)))
    response = Response(body, mimetype="application/json")
    response.set_etag(tag)
    response.headers["Cache-Control"] = "private, no-cache"
    return response.make_conditional(request)


def _shipped(replay: dict[str, Any], step: int | None) -> dict[str, Any]:
    """The steps shipped with the page: the window around ``step`` without its tables and parts,
    and those as markup apart (a ``template`` each: markup inside JSON would be escaped over again)."""
    if step is None:
        return {"window": None, "window_tables": {}, "window_parts": {}}
    window = _window(replay, step - WINDOW, step + WINDOW)
    return {
        "window": {**window, "tables": {}, "parts": {}},
        # rendered by _table.html, escaped there
        "window_tables": {k: Markup(html) for k, html in window["tables"].items()},
        "window_parts": {k: Markup(html) for k, html in window["parts"].items()},
    }


def _window(replay: dict[str, Any], first: int, last: int) -> dict[str, Any]:
    """Steps ``first`` to ``last`` of a drawn replay (clamped to its steps) as the viewer keeps them:
    ``[step, line, table, retracted]`` each, the tables they show as fragments and their parts by
    name (``fragments``), and the drawing's key. A table goes by the number of the first step of
    the window's run of steps that show it: steps that leave the table as it was point at one
    fragment, and a number names the same table in every window of the drawing."""
    steps = replay["steps"][max(first, 1) - 1 : max(last, 0)]
    numbers: list[int] = []  # the first step of each run of steps showing one table
    table_of, before = {}, None
    for s in steps:
        table = replay["tables"][s["step"]]
        if table != before:
            numbers.append(s["step"])
        table_of[s["step"]], before = numbers[-1], table
    drawn, parts = fragments([replay["tables"][n] for n in numbers])
    return {
        "drawn": replay["drawn"],
        "last": len(replay["steps"]),
        "steps": [[s["step"], s["line"], table_of[s["step"]], s["retracted"]] for s in steps],
        "tables": {str(n): html for n, html in zip(numbers, drawn, strict=True)},
        "parts": parts,
    }


#: The steps' JSON as sent, by the drawing it was made from (the domain's ``drawn`` key) and range.
_SENT: dict[str, bytes] = {}
_KEEP = 64


def fragments(tables: list[dict[str, Any]]) -> tuple[list[str], dict[str, str]]:
    """Each table as an HTML fragment in which each seat's area, group and diagram stands as a
    placeholder (``<!--p:NAME-->``), and those parts by name. Consecutive tables share most of
    their parts: each distinct one is rendered and sent once, named by its content so that a
    viewer keeps the parts of every window it fetched. The viewer puts them back in place."""
    module = current_app.jinja_env.get_template("_table.html").module
    parts: dict[str, str] = {}
    placed: dict[str, Markup] = {}

    def once(macro: Any, part: dict[str, Any]) -> Markup:
        key = macro.name + json.dumps(part, sort_keys=True)
        if key not in placed:
            html = str(macro(part))
            name = hashlib.sha256(html.encode()).hexdigest()[:16]
            parts[name] = html
            placed[key] = Markup(f"<!--p:{name}-->")  # a name of hex digits: nothing to escape
        return placed[key]

    out = []
    for table in tables:
        table = {
            **table,
            "seats": [
                once(module.seat, {**s, "groups": [once(module.group, g) for g in s["groups"]]})
                for s in table["seats"]
            ],
            "areas": [once(module.group, g) for g in table["areas"]],
            "diagram": table.get("diagram") and once(module.diagram, table["diagram"]),
        }
        out.append(str(module.table_view(table)))
    return out, parts
