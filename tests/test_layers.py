"""The layers point one way: engines <- domain <- {API, web pages, workers}.

Every module of the service is parsed (``ast``, nothing is imported or run)
and its imports are checked against the layer it belongs to:

- ``engines/`` import no service, worker, web or ``schemas/`` code (a game's
  own schemas live in its folder);
- ``schemas/`` import no service or worker code and no web framework;
- the domain, ``service/records/``, imports neither Flask nor Celery nor any
  entry point (``service.api``, ``service.web``, the app) nor the workers;
- the entry points (``service/api/``, ``service/web/``, the app, auth, run)
  never import the workers;
- the workers import of ``service/`` only the domain.

SQL runs only in the domain and in the projection writers
(``workers/projections/``). Elsewhere a module may not call a database
method (``.execute``, ``.executemany``, ``.cursor``, ``.copy``,
``.pipeline``), use ``psycopg.sql``, or hold a string literal that starts like
an SQL statement (``SELECT``, ``INSERT INTO``, ``UPDATE … SET``,
``DELETE FROM``, ``CREATE``/``ALTER``/``DROP TABLE|SCHEMA|INDEX``, ``WITH … AS``;
the project writes SQL keywords in capitals). And an entry point never calls
a private name (``_name``) of a module it imports.

Inside the domain, each module lives in a room (``service/records/<room>/``)
or is one of the shared modules at its top (``errors``, ``game_record``,
``access``), which import no room. A room imports only itself, the shared
modules and the rooms below it (``ROOMS``): the log imports no other room.
No module imports itself back through others (no circle), and no folder of
``service/`` holds more than ``MOST_MODULES`` modules side by side.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engines", "schemas", "service", "workers")

#: Starts the development servers (``make run``, the tests, the bench); no
#: application code: it may run pgserver's readiness probe and be imported by
#: the rebuild command.
TOOLING = {"service.embedded"}

WEB_FRAMEWORKS = (
    "flask",
    "flask_smorest",
    "flask_limiter",
    "werkzeug",
    "webargs",
    "starlette",
    "sse_starlette",
    "uvicorn",
    "httpx",
)
QUEUES = ("celery", "kombu", "redis")
ENTRY_POINTS = (
    "service.api",
    "service.web",
    "service.app",
    "service.auth",
    "service.run",
    "service.http_server",
    "service.wsgi",
    "service.openapi",
    "service.config",
    "service.import_history",
    "service.migrate",
    "service.streams",
)

SQL_METHODS = {"execute", "executemany", "cursor", "copy", "pipeline"}
SQL_TEXT = re.compile(
    r"^\s*(SELECT\s|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s"
    r"|(CREATE|ALTER|DROP)\s+(TABLE|SCHEMA|INDEX)\s|WITH\s+\w+\s+AS\s)"
)
SQL_HOMES = ("service.records", "workers.projections")

DOMAIN = "service.records"
#: The domain's shared modules: they import no room, every room may import them.
SHARED = ("errors", "game_record", "access")
#: Each room of the domain, lowest first, with the rooms it may import.
ROOMS = {
    "log": (),
    "club": ("log",),
    "recording": ("log", "club"),
    "scorepad": ("log", "club", "recording"),
    "reading": ("log", "club", "recording"),
    "competitions": ("log", "club", "recording", "reading"),
    "history": ("log", "club", "recording", "reading", "competitions"),
    "hooks": ("log", "club", "recording", "reading"),
    "pages": ("log", "club", "recording", "scorepad", "reading", "history", "competitions", "hooks"),
}
#: The most modules one folder of ``service/`` may hold side by side.
MOST_MODULES = 15


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    tree: ast.Module

    def imports(self) -> list[tuple[int, str]]:
        """(line, module) of every import, at any depth (``from x import y`` gives x.y too)."""
        found = []
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                found += [(node.lineno, alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(self.name, node.module, node.level, self.path.name == "__init__.py")
                found.append((node.lineno, base))
                found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
        return found

    def sql(self) -> list[tuple[int, str]]:
        found = []
        for node in ast.walk(self.tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in SQL_METHODS
            ):
                found.append((node.lineno, f".{node.func.attr}(...)"))
            elif (
                isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL_TEXT.match(node.value)
            ):
                found.append((node.lineno, repr(node.value[:40])))
        found += [(line, name) for line, name in self.imports() if _within(name, "psycopg.sql")]
        return found

    def private_calls(self) -> list[tuple[int, str]]:
        """Private names of imported modules it uses (``module._name``, ``from m import _name``)."""
        imported = {
            alias.asname or alias.name
            for n in ast.walk(self.tree)
            if isinstance(n, ast.ImportFrom)
            for alias in n.names
        }
        imported |= {
            (alias.asname or alias.name).split(".")[0]
            for n in ast.walk(self.tree)
            if isinstance(n, ast.Import)
            for alias in n.names
        }
        found = []
        for node in ast.walk(self.tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in imported
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                found.append((node.lineno, f"{node.value.id}.{node.attr}"))
            if isinstance(node, ast.ImportFrom):
                found += [(node.lineno, a.name) for a in node.names if a.name.startswith("_")]
        return found


def _absolute(module: str, target: str | None, level: int, is_package: bool) -> str:
    if level == 0:
        return target or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, *([target] if target else [])])


def _within(name: str, *prefixes: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _modules() -> list[Module]:
    modules = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            modules.append(Module(name, path, ast.parse(path.read_text(), str(path))))
    return modules


MODULES = _modules()


def _forbidden(module: Module) -> tuple[str, ...]:
    """What ``module``'s layer may not import."""
    name = module.name
    if _within(name, "engines"):
        return (
            "service",
            "workers",
            *WEB_FRAMEWORKS,
            *QUEUES,
            "psycopg",
            "schemas",
        )
    if _within(name, "schemas"):
        return ("service", "workers", *WEB_FRAMEWORKS, *QUEUES, "psycopg")
    if _within(name, "service.records"):
        return (*WEB_FRAMEWORKS, *QUEUES, *ENTRY_POINTS, "service.embedded", "workers")
    if _within(name, *ENTRY_POINTS):
        return ("workers",)
    if _within(name, "workers"):
        return (*ENTRY_POINTS,)
    return ()


def _breaks(module: Module) -> list[str]:
    forbidden = _forbidden(module)
    wrong = [f"line {line}: {name}" for line, name in module.imports() if _within(name, *forbidden)]
    if _within(module.name, "workers"):
        wrong += [
            f"line {line}: {name} (workers use only the domain of service/)"
            for line, name in module.imports()
            if _within(name, "service") and not _within(name, "service.records", *TOOLING)
        ]
    return sorted(set(wrong))


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.name)
def test_each_module_imports_only_the_layers_below_it(module):
    assert _breaks(module) == []


def _room(name: str) -> str | None:
    """The room of a domain module: a room's name, "shared", or None outside the domain."""
    if not _within(name, DOMAIN) or name == DOMAIN:
        return None
    first = name.split(".")[2]
    return "shared" if first in SHARED else first


def _against_the_rooms(module: Module) -> list[str]:
    room = _room(module.name)
    if room is None:
        return []
    may = {room, "shared", *ROOMS.get(room, ())} if room != "shared" else {"shared"}
    return sorted(
        {
            f"line {line}: {name} (the {room} room may import {', '.join(sorted(may))})"
            for line, name in module.imports()
            if _room(name) is not None and _room(name) not in may
        }
    )


@pytest.mark.parametrize("module", [m for m in MODULES if _room(m.name)], ids=lambda m: m.name)
def test_each_domain_module_imports_only_its_room_and_the_rooms_below(module):
    assert _against_the_rooms(module) == []


def test_every_domain_module_is_shared_or_in_a_room():
    homeless = [m.name for m in MODULES if _room(m.name) not in (None, "shared", *ROOMS)]
    assert homeless == []
    rooms = {p.name for p in (ROOT / "service" / "records").iterdir() if (p / "__init__.py").exists()}
    assert rooms == set(ROOMS)


@pytest.mark.parametrize("room", list(ROOMS))
def test_each_room_says_what_it_owns_and_what_it_may_import(room):
    init = next(m for m in MODULES if m.name == f"{DOMAIN}.{room}")
    assert len(ast.get_docstring(init.tree) or "") > 100


def test_no_module_of_the_service_imports_itself_back():
    names = {m.name for m in MODULES if _within(m.name, "service", "workers")}
    graph = {
        m.name: {
            target
            for _, imported in m.imports()
            for target in (imported, imported.rpartition(".")[0])
            if target in names and target != m.name and not m.name.startswith(target + ".")
        }
        for m in MODULES
        if m.name in names
    }
    assert _circles(graph) == []


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``, one path each (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for after in sorted(graph.get(node, ())):
            if after not in index:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in stack:
                low[node] = min(low[node], index[after])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_folder_of_the_service_holds_more_than_fifteen_modules():
    crowded = {
        str(folder.relative_to(ROOT)): count
        for folder in [ROOT / "service", *(p for p in (ROOT / "service").rglob("*") if p.is_dir())]
        if (count := len([f for f in folder.glob("*.py") if f.name != "__init__.py"])) > MOST_MODULES
    }
    assert crowded == {}


@pytest.mark.parametrize(
    "module", [m for m in MODULES if not _within(m.name, *SQL_HOMES, *TOOLING)], ids=lambda m: m.name
)
def test_only_the_domain_and_the_projection_writers_run_sql(module):
    assert [f"line {line}: {what}" for line, what in module.sql()] == []


@pytest.mark.parametrize(
    "module", [m for m in MODULES if _within(m.name, *ENTRY_POINTS)], ids=lambda m: m.name
)
def test_entry_points_call_no_private_function(module):
    assert [f"line {line}: {what}" for line, what in module.private_calls()] == []


def _fake(name: str, source: str) -> Module:
    return Module(name, ROOT / (name.replace(".", "/") + ".py"), ast.parse(source))


@pytest.mark.parametrize(
    "name, source",
    [
        ("engines.pig.rules", "from service.records import store"),
        ("engines.pig.rules", "from schemas.api import Problem"),
        ("engines.pig.schemas", "from schemas.interchange import GameImport"),
        ("service.records.recording.acting", "from flask import request"),
        ("service.records.recording.acting", "import celery"),
        ("service.records.recording.acting", "from service.api import common"),
        ("service.records.recording.acting", "from ...api.common import records"),
        ("service.records.recording.acting", "from workers import runner"),
        ("service.api.routes.games", "from workers.celery_app import app"),
        ("service.app", "import workers.tasks"),
        ("workers.tasks", "from service.api import wake"),
        ("workers.tasks", "from service.app import create_app"),
        ("workers.runner", "from service.auth import current_principal"),
    ],
)
def test_the_layering_check_catches_an_import_against_the_grain(name, source):
    assert _breaks(_fake(name, source)) != []


@pytest.mark.parametrize(
    "source",
    [
        "conn.execute(q)",
        "cur.executemany(q, rows)",
        "x = 'SELECT id FROM games'",
        "x = 'UPDATE games SET version = 1'",
        "x = 'DELETE FROM tokens'",
        "from psycopg import sql",
        "with conn.cursor() as c: pass",
    ],
)
def test_the_sql_check_catches_sql_outside_the_domain(source):
    assert _fake("service.api.routes.games", source).sql() != []


@pytest.mark.parametrize(
    "name, source",
    [
        ("service.records.log.store", "from service.records.recording import games"),
        ("service.records.log.fold", "from service.records.club.clubs import DEFAULT_POINTS"),
        ("service.records.access", "from service.records.log import store"),
        ("service.records.club.clubs", "from service.records.reading.league import league_info"),
        ("service.records.recording.acting", "from service.records.scorepad import shortcuts"),
        ("service.records.scorepad.seats", "from service.records.reading import steps"),
        ("service.records.reading.steps", "from service.records.scorepad.labels import words"),
        ("service.records.reading.steps", "from service.records.history import exports"),
        ("service.records.history.backup", "from service.records.pages import entries"),
        ("service.records.history.backup", "from ..pages import entries"),
    ],
)
def test_the_room_check_catches_an_import_against_the_grain(name, source):
    assert _against_the_rooms(_fake(name, source)) != []


def test_the_circle_check_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]


def test_the_sql_check_passes_prose_that_mentions_sql_words():
    assert (
        _fake("service.api.routes.games", "x = 'Select a seat to see as.'\ny = 'The update was kept.'").sql()
        == []
    )


def test_the_private_call_check_catches_a_view_reaching_into_a_module():
    assert (
        _fake(
            "service.api.routes.games", "from service.records import games\ngames._game(row)"
        ).private_calls()
        != []
    )
