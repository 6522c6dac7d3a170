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

WEB_FRAMEWORKS = ("flask", "flask_smorest", "flask_limiter", "werkzeug", "webargs")
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
)

SQL_METHODS = {"execute", "executemany", "cursor", "copy", "pipeline"}
SQL_TEXT = re.compile(
    r"^\s*(SELECT\s|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s"
    r"|(CREATE|ALTER|DROP)\s+(TABLE|SCHEMA|INDEX)\s|WITH\s+\w+\s+AS\s)"
)
SQL_HOMES = ("service.records", "workers.projections")


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
        ("service.records.acting", "from flask import request"),
        ("service.records.acting", "import celery"),
        ("service.records.acting", "from service.api import common"),
        ("service.records.acting", "from ..api.common import records"),
        ("service.records.acting", "from workers import runner"),
        ("service.api.games", "from workers.celery_app import app"),
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
    assert _fake("service.api.games", source).sql() != []


def test_the_sql_check_passes_prose_that_mentions_sql_words():
    assert (
        _fake("service.api.games", "x = 'Select a seat to see as.'\ny = 'The update was kept.'").sql() == []
    )


def test_the_private_call_check_catches_a_view_reaching_into_a_module():
    assert (
        _fake("service.api.games", "from service.records import games\ngames._game(row)").private_calls()
        != []
    )
