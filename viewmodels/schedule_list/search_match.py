"""Which words of a row's text a search matched, by the server's own rule.

The server (docs/API.md, Search) keeps a schedule when its title or
instruction contains every whitespace-separated word of ``q``, anywhere,
after both sides are folded: Unicode NFKD, combining marks dropped, case
folded (``café``, ``CAFE`` and ``cafe`` find each other); every character
is literal. ``highlighted`` applies that rule to one text and answers it as
spans, so a view only lays them out. Folding is done character by character,
which for this fold equals folding the whole text, so each folded match maps
back to the characters it came from.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TextSpan:
    """A run of a text, and whether a search word matched it."""

    text: str
    matched: bool = False


def highlighted(text: str, query: str) -> tuple[TextSpan, ...]:
    """``text`` in runs, the runs a word of ``query`` matched marked; one plain run if none.

    Every occurrence of every word is marked; overlapping or touching matches
    make one run. A match that covers part of a character the fold expanded
    (the ligature ``ﬁ`` folds to ``fi``) marks the whole character; a
    combining mark is marked with the letter it sits on.
    """
    words = _words(query)
    if not text or not words:
        return (TextSpan(text),) if text else ()
    folded: list[str] = []
    origin: list[int] = []
    """For each folded character, the index of the text's character it came from."""
    for index, character in enumerate(text):
        piece = _fold(character)
        folded.append(piece)
        origin.extend([index] * len(piece))
    haystack = "".join(folded)
    marked = [False] * len(text)
    for word in words:
        start = haystack.find(word)
        while start != -1:
            for position in range(start, start + len(word)):
                marked[origin[position]] = True
            start = haystack.find(word, start + 1)
    for index in range(1, len(text)):
        if not folded[index]:  # a combining mark goes with the letter it sits on
            marked[index] = marked[index - 1]
    spans: list[TextSpan] = []
    run_start = 0
    for index in range(1, len(text) + 1):
        if index == len(text) or marked[index] != marked[run_start]:
            spans.append(TextSpan(text[run_start:index], marked[run_start]))
            run_start = index
    return tuple(spans)


def _words(query: str) -> tuple[str, ...]:
    """The distinct folded words of ``query``, as the server splits them."""
    words: list[str] = []
    for word in _fold(query).split():
        if word not in words:
            words.append(word)
    return tuple(words)


def _fold(text: str) -> str:
    """The server's fold: NFKD, combining marks dropped, case folded, twice; NUL is a space."""
    folded = _unmarked(unicodedata.normalize("NFKD", text)).casefold()
    return _unmarked(unicodedata.normalize("NFKD", folded)).replace("\x00", " ")


def _unmarked(text: str) -> str:
    return "".join(c for c in text if not unicodedata.combining(c))
