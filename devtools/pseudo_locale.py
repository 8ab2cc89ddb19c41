"""A pseudo-locale: every sentence of the app accented, bracketed and 40% longer.

Read in it, a screen shows at a glance what no catalog reached (plain English
is left) and what a longer language would clip (a sentence without its closing
bracket). It is written as Esperanto (``eo``), a language CLDR knows and the
app ships no catalog for, so its dates and numbers come from CLDR too; the app
reads it from the folder ``SCHEDULE_BROWSER_CATALOGS`` names
(``viewmodels.language``). The messages are the German catalog's, which the
catalog tests hold complete.
"""

from __future__ import annotations

import math
import re
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from viewmodels.language import CATALOGS, DOMAIN

PSEUDO_LOCALE = "eo"
SOURCE = CATALOGS / "de" / "LC_MESSAGES" / f"{DOMAIN}.po"
LONGER_BY = 0.4
ACCENTED = str.maketrans(
    "acdeghijklnorstuwyzACEINOSUY",
    "áçðéĝĥíĵķļñöŕšţüŵýžÅÇÉÎÑÖŠÜÝ",
)
"""Letters with accents from Latin-1 and Latin Extended-A, which Roboto draws (the web
view has no font for rarer ones)."""
PLACEHOLDER = re.compile(r"(\{[^{}]*\})")
OPENING, CLOSING, PADDING = "[", "]", "·"
"""Brackets Roboto draws too, and the padding between them."""


def pseudo(english: str) -> str:
    """``english`` accented and bracketed, 40% longer, its ``{placeholders}`` kept."""
    accented = "".join(
        part if PLACEHOLDER.fullmatch(part) else part.translate(ACCENTED)
        for part in PLACEHOLDER.split(english)
    )
    letters = len(PLACEHOLDER.sub("", english))
    return f"{OPENING}{accented}{PADDING * math.ceil(letters * LONGER_BY)}{CLOSING}"


def english_messages() -> list[tuple[str, ...]]:
    """Each of the app's sentences in English: one form, or the singular and the plural."""
    return [forms for forms, _context in _sentences()]


def write_pseudo_catalog(folder: Path) -> Path:
    """The compiled pseudo catalog under ``folder`` (``eo/LC_MESSAGES/messages.mo``)."""
    catalog = Catalog(locale=PSEUDO_LOCALE, domain=DOMAIN)
    for forms, context in _sentences():
        said = tuple(pseudo(each) for each in forms)
        catalog.add(
            forms if len(forms) > 1 else forms[0],
            said if len(said) > 1 else said[0],
            context=context,
        )
    target = folder / PSEUDO_LOCALE / "LC_MESSAGES" / f"{DOMAIN}.mo"
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as file:
        write_mo(file, catalog)
    return target


@cache
def _sentences() -> tuple[tuple[tuple[str, ...], str | None], ...]:
    """The source catalog's sentences (their English forms) and contexts, read once."""
    with SOURCE.open("rb") as file:
        source = read_po(file)
    return tuple(
        (message.id if isinstance(message.id, tuple) else (message.id,), message.context)
        for message in source
        if message.id
    )
