"""What the project says of itself stays true: the README names every game
the service records, and every file a docstring or document points to exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engines import registry

ROOT = Path(__file__).resolve().parent.parent
#: A path to a file of the project, as docstrings and documents write one (``service/records/errors.py``).
FILE_REFERENCE = re.compile(
    r"(?<![\w/.-])((?:engines|schemas|service|workers|tests|docs|bench)/[\w/.-]*\w"
    r"\.(?:py|md|json|sql|yaml|html|css|js))"
)
SOURCES = sorted(
    [
        *(
            p
            for d in ("engines", "schemas", "service", "workers", "bench", "docs")
            for p in (ROOT / d).rglob("*.py")
        ),
        *(ROOT / "docs").rglob("*.md"),
        ROOT / "README.md",
    ]
)


@pytest.mark.parametrize("game", registry.games(), ids=lambda g: g.id)
def test_the_readme_names_every_game_the_service_records(game):
    name = game.title.split(" (")[0]  # "Pig (reference dice game)" is named "Pig"
    assert name in (ROOT / "README.md").read_text()


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_a_source_refers_to_exists(source):
    missing = [m for m in FILE_REFERENCE.findall(source.read_text()) if not (ROOT / m).exists()]
    assert missing == []
