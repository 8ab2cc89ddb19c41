"""Views write no words: every text a person reads or hears comes from a view model.

An AST scan of every module in ``views/``: a string literal there that holds a
letter (or a piece of an f-string, which would join words into a sentence) is a
word the view decided, unless it is one of the few non-sentences below. Docstrings,
bare string statements (attribute docs), ``__all__`` and ``TypeVar`` names are
not shown to anyone and are skipped.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

VIEWS = Path(__file__).resolve().parents[2] / "views"

NOT_WORDS = {
    "/": "the schedules sheet's route",
    "schedules/:schedule_id": "a route pattern of Flet's router",
    "sessions/:session_id": "a route pattern of Flet's router",
    "none": "the website picker's key for no sign-in",
    "_blank": "the browser window a link opens in",
    "schedule-": "the prefix of a sidebar group's scroll key",
    "rows-": "the prefix of a list block's reconciliation key",
    "calendar-section": "the detail's calendar's scroll key",
}
"""The literals a view may hold that nobody reads, each with what it is."""

COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")
LETTER = re.compile(r"[^\W\d_]")


def _skipped(tree: ast.Module) -> set[int]:
    """The ids of the string nodes nobody reads: docs, ``__all__`` and ``TypeVar`` names."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skipped.add(id(node.value))
        elif isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
        ):
            skipped.update(id(item) for item in ast.walk(node.value))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "TypeVar"
        ):
            skipped.update(id(arg) for arg in node.args)
    return skipped


def words_in(source: str) -> Iterator[tuple[int, str]]:
    """Each literal of ``source`` that reads as words, with its line."""
    tree = ast.parse(source)
    skipped = _skipped(tree)
    in_fstrings = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in node.values
        if isinstance(part, ast.Constant)
    }
    strings = sorted(
        (node.lineno, node.col_offset, node.value, id(node))
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    )
    for line, _, text, node_id in strings:
        if node_id in skipped or text in NOT_WORDS or COLOUR.fullmatch(text):
            continue
        if LETTER.search(text) or node_id in in_fstrings:
            yield line, text


def test_the_scan_finds_words_and_leaves_keys_colours_and_docs_alone() -> None:
    source = '''"""A module's doc."""
from typing import TypeVar
__all__ = ["Thing"]
T = TypeVar("T")
KEY = "none"
INK = "#4355B9"
LABEL = "Retry"
"""Its doc."""
line = f"{name} · {time}"
key = f"rows-{start}"
blank = value or ""
'''
    assert list(words_in(source)) == [(7, "Retry"), (9, " · ")]


def test_no_view_module_holds_words_a_person_reads() -> None:
    found = [
        f"{path.relative_to(VIEWS.parent)}:{line}: {text!r}"
        for path in sorted(VIEWS.rglob("*.py"))
        for line, text in words_in(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "words belong to the view models:\n" + "\n".join(found)
