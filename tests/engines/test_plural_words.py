"""The engines' words count in the singular and the plural ("1 free tactic",
"2 free tactics"), never "tactic(s)"."""

from __future__ import annotations

import pathlib
import re
import tokenize

from engines.base import Event
from engines.house_of_cronies import events as hoc
from engines.house_of_cronies.present import describe as hoc_describe
from engines.political_divide_and_conquer import events as pdc
from engines.political_divide_and_conquer.present import describe as pdc_describe

NAMES = ["Ana", "Ben", "Cat"]
ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_a_crony_placed_with_free_tactics_counts_them_in_words():
    def placed(free: int) -> str:
        data = {"seat": 0, "card": "crony-01", "name": "The Whip", "position": "whip", "free_tactics": free}
        return hoc_describe(Event(hoc.CRONY_PLACED, data), NAMES)

    assert "draws 1 free tactic." in placed(1)
    assert "draws 2 free tactics." in placed(2)
    assert "free tactic" not in placed(0)


def test_assets_or_deficits_added_are_counted_in_words():
    def raised(stacks: int) -> str:
        return pdc_describe(
            Event(pdc.DEFENCE_RAISED, {"seat": 1, "groups": [], "stacks": ["s"] * stacks}), NAMES
        )

    assert "adding 1 asset or deficit to" in raised(1)
    assert "adding 3 assets or deficits to" in raised(3)


def _words(path: pathlib.Path) -> list[str]:
    """A module's string literals but its docstrings (its words), or a template's lines."""
    if path.suffix == ".html":
        return path.read_text().splitlines()
    with path.open("rb") as source:
        tokens = list(tokenize.tokenize(source.readline))
    kinds = (tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING))
    return [t.string for t in tokens if t.type in kinds and not t.string.startswith('"""')]


def _without_code(text: str) -> str:
    """Words without what is code among them: an f-string's fields, a template's tags."""
    while True:
        bare = re.sub(r"\{[^{}]*\}", " ", text)
        if bare == text:
            return text
        text = bare


def test_no_wording_says_a_count_with_s_in_brackets():
    """Every engine's and page's words: no "card(s)" in a string or a template."""
    sources = [
        *ROOT.glob("engines/**/*.py"),
        *ROOT.glob("service/**/*.py"),
        *ROOT.glob("service/web/templates/*.html"),
    ]
    found = [
        f"{path.relative_to(ROOT)}: {text.strip()}"
        for path in sources
        for text in _words(path)
        if re.search(r"[A-Za-z]\((s|es)\)(?!\w)", _without_code(text))
    ]
    assert not found, found
