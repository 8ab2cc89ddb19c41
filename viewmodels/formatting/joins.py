"""How a sentence takes a remark, as the person's language writes it.

A time or a sentence often carries something more: another zone's time in
brackets, a clause after a comma ("fires at 09:00, moved by the clock
change"), a further one after a semicolon. Each join is one message with named
placeholders, so each language writes its own brackets and punctuation
(Chinese its full-width ones) where English writes " (…)", ", " and "; ".
"""

from __future__ import annotations

from viewmodels.language import Words


def with_aside(text: str, aside: str | None, words: Words) -> str:
    """``text`` with ``aside`` in brackets, "08:00 (09:00 Europe/Paris)"; ``text`` for None."""
    if aside is None:
        return text
    # Translators: a time or a sentence, then a remark on it in brackets.
    return words.gettext("{text} ({aside})").format(text=text, aside=aside)


def with_clause(text: str, clause: str, words: Words) -> str:
    """``text``, then ``clause`` after a comma: "fires at 09:00, moved by the clock change"."""
    # Translators: a phrase, then a short clause that goes on with it after a comma.
    return words.gettext("{text}, {clause}").format(text=text, clause=clause)


def with_further_clause(text: str, clause: str, words: Words) -> str:
    """``text``, then a clause of its own after a semicolon, on a line of the chosen day."""
    # Translators: a line, then a further remark on it after a semicolon.
    return words.gettext("{text}; {clause}").format(text=text, clause=clause)
