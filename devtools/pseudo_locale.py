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
    with SOURCE.open("rb") as file:
        source = read_po(file)
    return [
        message.id if isinstance(message.id, tuple) else (message.id,)
        for message in source
        if message.id
    ]


def write_pseudo_catalog(folder: Path) -> Path:
    """The compiled pseudo catalog under ``folder`` (``eo/LC_MESSAGES/messages.mo``)."""
    with SOURCE.open("rb") as file:
        source = read_po(file)
    catalog = Catalog(locale=PSEUDO_LOCALE, domain=DOMAIN)
    for message in source:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        string = tuple(pseudo(each) for each in ids)
        catalog.add(message.id, string if len(string) > 1 else string[0], context=message.context)
    target = folder / PSEUDO_LOCALE / "LC_MESSAGES" / f"{DOMAIN}.mo"
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as file:
        write_mo(file, catalog)
    return target
