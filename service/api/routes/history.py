"""Importing a club's play history (BG Stats, BoardGameGeek, CSV) as result-only games."""

from __future__ import annotations

import json
import queue
import threading

from flask import Response, request, url_for

from schemas.results import (
    BgStatsQuery,
    ClubRestored,
    HistoryFile,
    HistoryReport,
    HistoryUpload,
    Job,
    PlaysQuery,
)
from service.api.common import (
    NDJSON,
    Blueprint,
    ClientGone,
    problems,
    records,
    request_id,
    stop_when_gone,
    wants_ndjson,
)
from service.api.conditional import LOG_POSITION_HEADER
from service.auth import client_address, current_principal
from service.records.errors import DomainError, Invalid
from service.records.history import backup, bgstats, exports, formats, imports, jobs
from service.records.history.formats import guess_format

blp = Blueprint("history", __name__, description="A club's play history: import it, take it out as CSV")

CSV = "text/csv"

#: A multipart body's room beside its file (its boundaries and the form's other fields).
FORM_ROOM = 64 * 1024

#: The bodies larger than an API body: a history file (years of plays) and a
#: club's backup, each as large as the domain reads (413 beyond).
LARGE_BODIES = {
    "history.import_history": formats.MAX_BYTES + FORM_ROOM,
    "history.restore_club": backup.MAX_BYTES + FORM_ROOM,
}


@blp.before_request
def _allow_large_files() -> None:
    if request.endpoint in LARGE_BODIES:
        request.max_content_length = LARGE_BODIES[request.endpoint]


#: `Prefer: respond-async` (RFC 7240): the request asks for a job instead of waiting for the answer.
PREFER_HEADER = {
    "name": "Prefer",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "enum": ["respond-async"]},
    "description": "`respond-async`: answer 202 at once with the job (`Location`) that runs it.",
}

JOB_HEADERS = {
    "Location": {"schema": {"type": "string"}, "description": "The job: `GET` it for its progress."},
    "Preference-Applied": {"schema": {"type": "string"}, "description": "`respond-async`."},
}


def wants_job() -> bool:
    """The request prefers to be answered at once with a job (RFC 7240)."""
    preferences = (
        p.strip().split("=")[0].strip().lower() for p in request.headers.get("Prefer", "").split(",")
    )
    return "respond-async" in preferences


def _job_answer(job: dict) -> Response:
    response = Response(json.dumps(Job().dump(job)), status=202, mimetype="application/json")
    response.headers["Location"] = url_for("history.read_job", job=job["id"])
    response.headers["Preference-Applied"] = "respond-async"
    return response


@blp.post("/clubs/<uuid:club>/history")
@blp.arguments(HistoryUpload, location="multipart")
@blp.response(201, HistoryReport, headers=LOG_POSITION_HEADER)
@blp.alt_response(
    202, schema=Job, headers=JOB_HEADERS, description="Queued as a job (`Prefer: respond-async`)."
)
@blp.doc(parameters=[PREFER_HEADER])
@problems(blp, 400, 401, 403, 404, 413, 422, 503)
def import_history(form, club):
    """Import a play history file (admin token): a BG Stats backup, a
    BoardGameGeek plays export or a CSV (`date, game, player, score, place`).

    All or nothing: if any play is refused, nothing is stored and the 422
    problem's `refused` lists every refused line or play with its reason.
    Plays imported before are not imported again. With `Accept:
    application/x-ndjson` the answer streams a `{"judged": n, "of": m}` line
    every hundred plays, then `{"report": ...}` or `{"problem": ...}`.

    Bounded: a file of at most 8 MiB (413 beyond), 10,000 plays (a
    BoardGameGeek play counted as often as its `quantity`, at most 100) and
    100,000 rows or listed games and players (422 `history-too-large`); a play
    of at most 30 players, a game's name of 200 characters and a note of 1,000
    (else that play is refused). One import or restore runs at a time per
    client address (429 `imports-running`) and two in all (503
    `imports-busy`), each with `Retry-After`. An import stops, storing
    nothing, when its client hangs up.

    With `Prefer: respond-async` the answer is a 202 at once, its `Location`
    the job (`GET /jobs/{job}`) a worker runs the import in, the same way;
    one unfinished job per client address (429 `imports-running`)."""
    upload = form["file"]
    fmt = form["format"] or guess_format(upload.filename or "")
    try:
        mapping = json.loads(form["mapping"]) if form["mapping"] else {}
    except ValueError as error:
        raise Invalid("history-mapping", f"The mapping is not JSON: {error}.") from error
    if not isinstance(mapping, dict) or not all(isinstance(v, str) for v in mapping.values()):
        raise Invalid("history-mapping", "The mapping is a JSON object of game names to engine ids.")
    call = dict(
        records=records(),
        club_id=club,
        principal=current_principal(),
        fmt=fmt,
        content=upload.read(),
        mapping=mapping,
        skip_unknown_games=form["skip_unknown_games"],
        league=form["league"],
        request_id=request_id(),
    )
    if wants_job():
        del call["records"], call["principal"]
        return _job_answer(
            jobs.start_import(records(), principal=current_principal(), client=client_address(), **call)
        )
    if wants_ndjson():
        return Response(_streamed(call, request.environ), mimetype=NDJSON)
    return imports.import_history(**call, progress=stop_when_gone(request.environ))


#: Seconds between two looks, while an import judges, at whether its client is still there.
WATCH_EVERY = 0.5


def _streamed(call: dict, environ: dict):
    """Run the import beside the answer, sending its progress as it comes.
    When the client hangs up, the import stops at its next progress (a
    hundred plays), rolls back and lets go of its database connection; the
    answer ends only once the import has, so no import outlives its request."""
    lines: queue.Queue = queue.Queue()
    ended = threading.Event()
    gone = environ.get("waitress.client_disconnected") or (lambda: False)

    def run() -> None:
        check = stop_when_gone(environ, also=ended.is_set)

        def progress(judged: int, of: int) -> None:
            check(judged, of)
            lines.put({"judged": judged, "of": of})

        try:
            report = imports.import_history(**call, progress=progress)
            lines.put({"report": HistoryReport().dump(report)})
        except ClientGone:
            pass
        except DomainError as error:
            lines.put({"problem": {"code": error.code, "detail": error.detail, **error.extra}})
        except Exception:  # noqa: BLE001 - the answer has started: say so in it
            lines.put(
                {"problem": {"code": "import-failed", "detail": "The import failed; nothing was stored."}}
            )
            raise
        finally:
            lines.put(None)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    try:
        while True:
            try:
                line = lines.get(timeout=WATCH_EVERY)
            except queue.Empty:
                if gone():
                    return
                continue
            if line is None:
                return
            yield json.dumps(line, default=str) + "\n"
    finally:
        ended.set()  # the client is gone, or the answer was closed: the import stops
        worker.join()


def _csv_doc(what: str) -> dict:
    return {"200": {"description": what, "content": {CSV: {"schema": {"type": "string"}}}}}


def _csv(text: str, name: str) -> Response:
    return Response(
        text,
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
        content_type=f"{CSV}; charset=utf-8",
    )


@blp.get("/clubs/<uuid:club>/plays.csv")
@blp.arguments(PlaysQuery, location="query")
@blp.response(200, content_type=CSV)
@blp.doc(responses=_csv_doc("One row per player per game: date, game, player, score, place, play, options."))
@problems(blp, 401, 403, 404, 422)
def club_plays(query, club):
    """The club's finished games, played or result-only, as CSV (admin token),
    in the columns the history import reads: importing the file into another
    club gives the same standings."""
    return _csv(exports.club_plays_csv(records(), club, current_principal(), query["league"]), "plays.csv")


@blp.get("/clubs/<uuid:club>/plays.bgsplay")
@blp.arguments(BgStatsQuery, location="query")
@blp.response(200, content_type="application/json")
@blp.doc(
    responses={
        "200": {
            "description": "BG Stats' own file: players, locations, games and plays.",
            "content": {"application/json": {"schema": {"type": "object"}}},
        }
    }
)
@problems(blp, 401, 403, 404, 422)
def club_plays_bgstats(query, club):
    """The club's finished games, played or result-only, in BG Stats' own
    format (`players`, `locations`, `games`, `plays`), to open in the BG Stats
    app or import into another club (the same standings). The club's plays
    for its admin token; one player's (`player`) for the admin token or that
    player's own member sign-in."""
    body = bgstats.plays_file(
        records(), club, current_principal(), player_id=query["player"], league_id=query["league"]
    )
    return Response(
        json.dumps(body, ensure_ascii=False),
        content_type="application/json; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="plays.bgsplay"'},
    )


@blp.get("/leagues/<uuid:league_id>/plays.csv")
@blp.response(200, content_type=CSV)
@blp.doc(responses=_csv_doc("One row per player per game: date, game, player, score, place, play, options."))
@problems(blp, 401, 404)
def league_plays(league_id):
    """A league's finished games as CSV (the history import's columns)."""
    return _csv(exports.league_plays_csv(records(), league_id, current_principal()), "plays.csv")


@blp.get("/leagues/<uuid:league_id>/standings.csv")
@blp.response(200, content_type=CSV)
@blp.doc(
    responses=_csv_doc(
        "rank, player, games, wins, points, average_score, rating (as the pages show it:"
        " 1500 + 42 × (mu − 3 sigma), rounded)"
    )
)
@problems(blp, 401, 404)
def league_standings(league_id):
    """A league's standings as a spreadsheet: ranked players by rank, then those below the minimum games."""
    return _csv(exports.standings_csv(records(), league_id, current_principal()), "standings.csv")


@blp.get("/clubs/<uuid:club>/backup.ndjson")
@blp.response(200, content_type=NDJSON)
@blp.doc(
    responses={
        "200": {
            "description": "The club: a header line (club, players, leagues), then one line per game.",
            "content": {NDJSON: {"schema": {"type": "string"}}},
        }
    }
)
@problems(blp, 401, 403, 404, 409)
def club_backup(club):
    """The whole club as one NDJSON file (admin token): a `tablerecord.club/1`
    header (players, leagues, the club's catalogs), then every game in rating
    order, a played game as its export document and a result-only game as its
    result. A live game whose admin token only watches is in it too, its
    commands, outcome and seed sealed for the service (`sealed`); without a
    backup seal key configured such a club's backup is refused (409
    `backup-seal-key-missing`). No token is in it. `POST /clubs/restore`
    makes a new club of it."""
    lines = list(backup.backup(records(), club, current_principal()))
    return Response(
        "".join(lines),
        content_type=NDJSON,
        headers={"Content-Disposition": 'attachment; filename="club.ndjson"'},
    )


@blp.post("/clubs/restore")
@blp.arguments(HistoryFile, location="files")
@blp.response(201, ClubRestored, headers=LOG_POSITION_HEADER)
@blp.alt_response(
    202, schema=Job, headers=JOB_HEADERS, description="Queued as a job (`Prefer: respond-async`)."
)
@blp.doc(parameters=[PREFER_HEADER])
@problems(blp, 400, 413, 422, 503)
def restore_club(files):
    """A new club from a backup file (multipart `file`): its players, leagues,
    every game, played games replayed through their engines and results
    judged again, and its tournaments and game nights, naming the new club's
    players and games. Answers the new club with its admin token (shown once).

    All or nothing: the club appears whole once every line is stored; a
    refused line (422 `backup-refused`, naming it; 422 `backup-seal-key-unknown`
    for a game sealed under a key this service does not hold), a client hanging up or a
    crash leaves nothing. Bounded: a file of at most 4 MiB (413 beyond) and
    20,000 games, tournaments and game nights (of them 1,000 tournaments and
    nights), 5,000 players and 1,000 leagues (422 `backup-too-large`).
    It counts against the club-creation limit of `POST /clubs` (429), and
    like a history import runs one at a time per client address (429
    `imports-running`) and two in all (503 `imports-busy`).

    With `Prefer: respond-async` the answer is a 202 at once, its `Location`
    the job (`GET /jobs/{job}`) a worker restores the club in, the same way.
    The job's address is its key (no token started it): the first read of
    the finished job carries the new club's admin token, once."""
    if wants_job():
        job = jobs.start_restore(
            records(), files["file"].read(), client=client_address(), request_id=request_id()
        )
        return _job_answer(job)
    return backup.restore(
        records(), files["file"].read(), request_id(), progress=stop_when_gone(request.environ)
    )


@blp.get("/jobs/<uuid:job>")
@blp.response(200, Job)
@problems(blp, 404)
def read_job(job):
    """A history import or restore asked for with `Prefer: respond-async`:
    `queued`, `running` (`done` of `total` plays judged or lines replayed),
    then `done` with the answer the request would have had (`result`) or
    `failed` with its problem (`problem`), nothing stored. An import's job
    is read by the token that started it (another learns nothing: 404); a
    restore's by whoever has its address."""
    return jobs.read(records(), job, current_principal())
