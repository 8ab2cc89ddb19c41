"""The folded text a schedule is searched by, and the words of a search.

Search ignores case and accents in every script: both the stored text and the
words searched for go through ``fold``, Unicode NFKD with the combining marks
dropped, then case folding (``café``, ``CAFE`` and ``cafe`` all fold to
``cafe``; Cyrillic yo to ie; a full-width A to ``a``). A schedule's text is its
current title and instruction, folded, one line apart, so no word of a search
(which never holds whitespace) can match across the two.

Words are the whitespace-separated parts of a query and stay literal: every
character of a word, ``%``, ``_``, quotes and all, must occur as is in the
folded text. A word matches anywhere inside the text, which is what makes a
word of a script written without spaces (Japanese, Chinese) findable.
"""

from __future__ import annotations

import unicodedata

from server.storage.jsontext import load_object

MAX_QUERY_LENGTH = 500
"""The longest search the server takes, in characters; longer is refused."""


def fold(text: str) -> str:
    """``text`` without case or accents: NFKD, combining marks dropped, case-folded.

    NUL becomes a space: PostgreSQL text cannot hold it, so no stored text has
    one and a NUL in a query separates words.
    """
    folded = _unmarked(unicodedata.normalize("NFKD", text)).casefold()
    # Case folding can yield characters that decompose again (rare): once more.
    return _unmarked(unicodedata.normalize("NFKD", folded)).replace("\x00", " ")


def _unmarked(text: str) -> str:
    return "".join(c for c in text if not unicodedata.combining(c))


def searchable_text(definition: str) -> str:
    """The folded title and instruction of a revision's canonical definition JSON."""
    payload = load_object(definition)
    title, instruction = payload.get("title"), payload.get("instruction")
    parts = [part for part in (title, instruction) if isinstance(part, str)]
    return fold("\n".join(parts))


def search_words(query: str | None) -> tuple[str, ...]:
    """The distinct folded words of ``query``, in order; empty when it has none."""
    if query is None:
        return ()
    words: list[str] = []
    for word in fold(query).split():
        if word not in words:
            words.append(word)
    return tuple(words)
