"""Reading a club's play history from the files other apps export.

Three formats, each read into the same plain plays (a game's name as the
file gives it, the day, the length, and each player by name with a score, a
place and whether they won), with every line or play that cannot be read
named with the reason:

- a **BG Stats** JSON backup: ``games`` (``id``, ``name``), ``players``
  (``id``, ``name``) and ``plays`` (``uuid``, ``playDate``, ``durationMin``,
  ``gameRefId``, ``ignored``, ``playerScores`` with ``playerRefId``,
  ``score``, ``winner``, ``rank``, ``startPlayer``; and, in a file this
  service wrote, the game's options under ``tablerecord``);
- a **BoardGameGeek** plays export (the XML of its plays API: ``play`` with
  ``id``, ``date``, ``quantity``, ``length``, ``incomplete``, ``item name``
  and ``players/player`` with ``name``, ``score``, ``win``, ``startposition``);
- a **CSV** with one row per player per play and a header naming its
  columns: ``date, game, player, score, place`` (``score`` and ``place`` may
  be empty; an optional ``play`` column tells apart two plays of one game on
  one day, otherwise consecutive rows of the same date and game are one play;
  an optional ``options`` column holds the game's options as JSON, as the
  service's own export writes them). A text cell the export led with a quote
  (``spreadsheet_text``) is read without it.

Every count and size of a file is bounded (``MAX_BYTES`` and the ``MAX_*``
below), so that reading and judging one file is bounded work: a file past a
bound is refused as a whole (``TooLarge``) as soon as reading meets it, and a
play past a bound of its own (a BoardGameGeek ``quantity``, its players, a
name or note) is refused with the reason.

Nothing here touches the database; ``service.records.history.imports`` imports the plays.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException

FORMATS = ("bgstats", "bgg", "csv")
#: A BG Stats play's own key for what only this service reads (the game's
#: options), in the files it writes (``history.bgstats``); BG Stats leaves it.
OWN_KEY = "tablerecord"
CSV_COLUMNS = ("date", "game", "player", "score", "place")
#: The largest whole number (a place, a length in minutes) a file may give.
WHOLE_MAX = 1_000_000
#: What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

#: Bytes of one history file.
MAX_BYTES = 8 * 1024 * 1024
#: Plays of one file, each BoardGameGeek play counted as often as its quantity.
MAX_PLAYS = 10_000
#: Times one BoardGameGeek play was played (its ``quantity``).
MAX_QUANTITY = 100
#: Players of one play (more than any game recorded here seats).
MAX_PLAYERS = 30
#: Rows of one CSV, games and players one BG Stats backup lists.
MAX_ROWS = 100_000
#: Characters of a game's name, and of a play's note.
MAX_GAME_NAME, MAX_NOTE = 200, 1000


@dataclass(frozen=True)
class SeatLine:
    """One player of a play, as the file names them."""

    name: str
    score: float | None = None
    place: int | None = None
    won: bool | None = None
    starts: bool = False


@dataclass(frozen=True)
class SourcePlay:
    """One play as the file has it; ``where`` names it in a report ("line 12", "play 3")."""

    where: str
    game: str
    played_on: dt.date
    seats: tuple[SeatLine, ...]
    key: str  # the play's identity in its source: a second import of it adds nothing
    minutes: int | None = None
    note: str | None = None
    options: dict[str, Any] | None = None  # the game's options, when the file keeps them


@dataclass
class Reading:
    """The plays read from a file and what could not be read (where, reason)."""

    plays: list[SourcePlay] = field(default_factory=list)
    refused: list[dict[str, str]] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)

    def refuse(self, where: str, reason: str) -> None:
        self.refused.append({"where": where, "reason": reason})


class Unreadable(ValueError):
    """The file as a whole is not of its format."""


class TooLarge(Unreadable):
    """The file is past one of the bounds of a history file."""


def check_size(content: bytes) -> None:
    if len(content) > MAX_BYTES:
        raise TooLarge(f"A history file is at most {MAX_BYTES // (1024 * 1024)} MiB; split this one.")


def _more_plays(reading: Reading, count: int) -> None:
    """Refuse the file if ``count`` more plays take it past ``MAX_PLAYS``."""
    if len(reading.plays) + count > MAX_PLAYS:
        raise TooLarge(f"A history file holds at most {MAX_PLAYS} plays; split this one.")


def _listed(items: Any, what: str) -> Any:
    if isinstance(items, list) and len(items) > MAX_ROWS:
        raise TooLarge(f"A history file lists at most {MAX_ROWS} {what}; split this one.")
    return items


def _players_of_play(count: int) -> None:
    if count > MAX_PLAYERS:
        raise ValueError(f"it has {count} players, more than the {MAX_PLAYERS} a play may have")


def read(fmt: str, content: bytes) -> Reading:
    """The plays in ``content``, read as ``fmt`` (one of ``FORMATS``); raises
    ``TooLarge`` for a file past a bound."""
    check_size(content)
    readers = {"bgstats": read_bgstats, "bgg": read_bgg, "csv": read_csv}
    if fmt not in readers:
        raise Unreadable(f"No history format {fmt!r}: use one of {', '.join(FORMATS)}.")
    return readers[fmt](content)


def guess_format(filename: str) -> str:
    """The format a file's name suggests (``.json``: BG Stats, ``.xml``: BoardGameGeek, else CSV)."""
    lower = filename.lower()
    if lower.endswith(".json") or lower.endswith(".bgsplay"):
        return "bgstats"
    if lower.endswith(".xml"):
        return "bgg"
    return "csv"


# -- BG Stats ----------------------------------------------------------------------


def read_bgstats(content: bytes) -> Reading:
    try:
        backup = json.loads(content.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as error:
        raise Unreadable(f"This is not a BG Stats backup (JSON): {error}.") from error
    except RecursionError:
        raise Unreadable("This is not a BG Stats backup: its JSON is nested too deeply.") from None
    if not isinstance(backup, dict) or not isinstance(backup.get("plays"), list):
        raise Unreadable("This is not a BG Stats backup: it has no list of plays.")
    game_names = _by_id(_listed(backup.get("games"), "games"))
    player_names = _by_id(_listed(backup.get("players"), "players"))
    reading = Reading()
    _listed(backup["plays"], "plays")
    for index, play in enumerate(backup["plays"], start=1):
        where = f"play {index}"
        if not isinstance(play, dict):
            reading.refuse(where, "A play is an object.")
            continue
        if play.get("ignored"):
            reading.skipped.append({"where": where, "reason": "BG Stats marks this play as ignored."})
            continue
        try:
            game = game_names.get(_id(play.get("gameRefId")))
            if not game:
                raise ValueError(f"it names game {play.get('gameRefId')!r}, which the backup does not list")
            seats = []
            entries = play.get("playerScores") or []
            if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
                raise ValueError("its playerScores are not a list of objects")
            _players_of_play(len(entries))
            for entry in entries:
                name = player_names.get(_id(entry.get("playerRefId")))
                if not name:
                    raise ValueError(
                        f"it names player {entry.get('playerRefId')!r}, which the backup does not list"
                    )
                rank = _int(entry.get("rank"), "rank")
                seats.append(
                    SeatLine(
                        name=_text(name, "player's name"),
                        score=_number(entry.get("score")),
                        place=rank if rank else None,
                        won=bool(entry["winner"]) if entry.get("winner") is not None else None,
                        starts=bool(entry.get("startPlayer")),
                    )
                )
            _more_plays(reading, 1)
            reading.plays.append(
                SourcePlay(
                    where=where,
                    game=_text(game, "game's name"),
                    played_on=_date(str(play.get("playDate") or "")[:10]),
                    seats=tuple(seats),
                    key=f"bgstats:{play.get('uuid') or _digest(play)}",
                    minutes=_int(play.get("durationMin"), "length") or None,
                    note=_text(play.get("comments"), "comment") or None,
                    options=_own_options(play.get(OWN_KEY)),
                )
            )
        except TooLarge:
            raise
        except ValueError as error:
            reading.refuse(where, f"This play cannot be read: {error}.")
    return reading


def _own_options(own: Any) -> dict[str, Any] | None:
    """A game's options, kept in a play of a file this service wrote (``OWN_KEY``)."""
    if own is None:
        return None
    options = own.get("options") if isinstance(own, dict) else None
    if options is not None and not isinstance(options, dict):
        raise ValueError(f"its {OWN_KEY}.options are not an object")
    return options or None


# -- BoardGameGeek -----------------------------------------------------------------


def read_bgg(content: bytes) -> Reading:
    try:
        root = ElementTree.fromstring(content)
    except (ElementTree.ParseError, DefusedXmlException) as error:
        raise Unreadable(f"This is not a BoardGameGeek plays export (XML): {error}.") from error
    if root.tag != "plays":
        raise Unreadable("This is not a BoardGameGeek plays export: its root is not <plays>.")
    reading = Reading()
    for index, play in enumerate(root.iter("play"), start=1):
        where = f"play {index}"
        if play.get("incomplete") == "1":
            reading.skipped.append({"where": where, "reason": "BoardGameGeek marks this play as incomplete."})
            continue
        try:
            item = play.find("item")
            game = item.get("name") if item is not None else None
            if not game:
                raise ValueError("it names no game")
            _players_of_play(sum(1 for _ in play.iter("player")))
            seats = tuple(
                SeatLine(
                    name=(player.get("name") or player.get("username") or "").strip(),
                    score=_number(player.get("score")),
                    won=player.get("win") == "1",
                    starts=player.get("startposition") == "1",
                )
                for player in play.iter("player")
            )
            quantity = max(1, _int(play.get("quantity"), "quantity") or 1)
            if quantity > MAX_QUANTITY:
                raise ValueError(f"its quantity {quantity} is more than the {MAX_QUANTITY} a play may count")
            note = _text(play.findtext("comments"), "comment") or None
            _more_plays(reading, quantity)
            for copy in range(quantity):
                reading.plays.append(
                    SourcePlay(
                        where=where,
                        game=_text(game, "game's name"),
                        played_on=_date(play.get("date") or ""),
                        seats=seats,
                        key=f"bgg:{play.get('id') or _digest(_xml(play))}"
                        + (f":{copy + 1}" if quantity > 1 else ""),
                        minutes=_int(play.get("length"), "length") or None,
                        note=note,
                    )
                )
        except TooLarge:
            raise
        except ValueError as error:
            reading.refuse(where, f"This play cannot be read: {error}.")
    return reading


# -- CSV ---------------------------------------------------------------------------


def read_csv(content: bytes) -> Reading:
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise Unreadable(f"This CSV is not UTF-8: {error}.") from error
    rows = csv.DictReader(io.StringIO(text, newline=""))
    header = [h.strip().lower() for h in rows.fieldnames or []]
    missing = [c for c in ("date", "game", "player") if c not in header]
    if missing:
        raise Unreadable(
            f"The CSV's header must name the columns {', '.join(CSV_COLUMNS)} ({', '.join(missing)} missing)."
        )
    rows.fieldnames = header
    reading = Reading()
    for group in _csv_groups(rows, reading):
        first_line, rows_of_play = group[0][0], [row for _, row in group]
        where = f"line {first_line}" if len(group) == 1 else f"lines {first_line}-{group[-1][0]}"
        try:
            _players_of_play(len(rows_of_play))
            seats = tuple(
                SeatLine(
                    name=_cell(row["player"], "player's name"),
                    score=_number(row.get("score")),
                    place=_int(row.get("place"), "place"),
                )
                for row in rows_of_play
            )
            play = rows_of_play[0]
            _more_plays(reading, 1)
            reading.plays.append(
                SourcePlay(
                    where=where,
                    game=_cell(play["game"], "game's name"),
                    played_on=_date(play["date"].strip()),
                    seats=seats,
                    key="",
                    minutes=_int(play.get("minutes"), "minutes") or None,
                    note=_cell(play.get("note"), "note") or None,
                    options=_options(play.get("options")),
                )
            )
        except TooLarge:
            raise
        except ValueError as error:
            reading.refuse(where, f"This play cannot be read: {error}.")
    _key_csv_plays(reading)
    return reading


def _csv_groups(rows: csv.DictReader, reading: Reading) -> Iterator[list[tuple[int, dict[str, Any]]]]:
    """Rows grouped into plays: by the ``play`` column when there is one,
    otherwise consecutive rows of the same date and game."""
    group: list[tuple[int, dict[str, Any]]] = []
    group_id: tuple | None = None
    for count, row in enumerate(rows, start=1):
        if count > MAX_ROWS:
            raise TooLarge(f"A history file has at most {MAX_ROWS} rows; split this one.")
        line = rows.line_num
        if not any((v or "").strip() for v in row.values() if isinstance(v, str)):
            continue
        if (
            not (row.get("date") or "").strip()
            or not (row.get("game") or "").strip()
            or not (row.get("player") or "").strip()
        ):
            reading.refuse(f"line {line}", "A row names a date, a game and a player.")
            continue
        this = (row.get("play") or "").strip() or None, row["date"].strip(), row["game"].strip().lower()
        if group and this != group_id:
            yield group
            group = []
        group_id = this
        group.append((line, row))
    if group:
        yield group


def _key_csv_plays(reading: Reading) -> None:
    """A CSV play's key is its content (and its count among equal plays of the file)."""
    seen: Counter[str] = Counter()
    for i, play in enumerate(reading.plays):
        content = [
            play.played_on.isoformat(),
            play.game.lower(),
            sorted((s.name.lower(), s.score, s.place) for s in play.seats),
        ]
        digest = _digest(content)
        seen[digest] += 1
        reading.plays[i] = SourcePlay(**{**play.__dict__, "key": f"csv:{digest}:{seen[digest]}"})


# -- values ------------------------------------------------------------------------


def spreadsheet_text(text: str) -> str:
    """A text cell as a spreadsheet shows it and never runs it: one that would
    start a formula leads with a quote, which spreadsheets hide. A cell
    already led by a quote gets one more, so that ``from_spreadsheet`` gives
    back every text exactly. Numbers are written as numbers, never through
    here: ``-3`` stays a number."""
    return "'" + text if text.startswith(FORMULA_STARTS) or text.startswith("'") else text


def from_spreadsheet(text: str) -> str:
    """A text cell as ``spreadsheet_text`` wrote it, without its leading quote;
    a quote that leads a cell for another reason ("'Tis") is kept."""
    if text.startswith("'") and text[1:].startswith((*FORMULA_STARTS, "'")):
        return text[1:]
    return text


def _cell(value: Any, what: str) -> str:
    """A CSV's text cell (``_text``), without the quote an export led it with."""
    return _text(from_spreadsheet(value.strip()) if isinstance(value, str) else value, what)


#: The longest text of each kind a file's play may hold (a player's name
#: follows the one rule for names, ``club.names``).
TEXT_LIMITS = {"game's name": MAX_GAME_NAME, "comment": MAX_NOTE, "note": MAX_NOTE}


def _text(value: Any, what: str) -> str:
    """Text the record can keep: no NUL character, no lone UTF-16 surrogate."""
    text = "" if value is None else str(value)
    if "\x00" in text or any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        raise ValueError(f"its {what} holds a character that cannot be kept")
    text = text.strip()
    limit = TEXT_LIMITS.get(what)
    if limit is not None and len(text) > limit:
        raise ValueError(f"its {what} is more than {limit} characters")
    return text


def _by_id(entries: Any) -> dict[Any, Any]:
    """BG Stats' games or players: name by id (an id is a number or a text)."""
    if not isinstance(entries, list):
        return {}
    return {_id(e.get("id")): e.get("name") for e in entries if isinstance(e, dict) and _id(e.get("id"))}


def _id(value: Any) -> int | str | None:
    """A BG Stats id, or None when it is not one (a list, an object, a float)."""
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


def _xml(element: Any) -> bytes:
    """A play's XML (for its key when it has no id); ``ValueError`` when it
    is nested too deeply to be written out."""
    try:
        return ElementTree.tostring(element)
    except RecursionError:
        raise ValueError("its XML is nested too deeply") from None


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text.strip()[:10])
    except ValueError:
        raise ValueError(f"its date {text!r} is not a day (YYYY-MM-DD)") from None


def _number(value: Any) -> float | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"the score {value!r} is not a number") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise ValueError(f"the score {value!r} is not a number")
    return number


def _int(value: Any, what: str) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"the {what} {value!r} is not a whole number") from None
    if not math.isfinite(number) or number != int(number) or abs(number) > WHOLE_MAX:
        raise ValueError(f"the {what} {value!r} is not a whole number up to {WHOLE_MAX:,}")
    return int(number)


def _options(text: str | None) -> dict[str, Any] | None:
    if not text or not text.strip():
        return None
    try:
        options = json.loads(text)
    except ValueError:
        raise ValueError(f"its options {text!r} are not JSON") from None
    if not isinstance(options, dict):
        raise ValueError("its options are a JSON object")
    return options


def _digest(value: Any) -> str:
    text = value if isinstance(value, bytes) else json.dumps(value, sort_keys=True, default=str).encode()
    return hashlib.sha256(text).hexdigest()[:32]
