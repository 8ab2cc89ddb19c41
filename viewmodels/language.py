"""The person's language: which locale they read in, and its catalog of the app's sentences.

The locale is chosen in this order: the Settings choice, else ``--locale``,
else the device's (the browser's preferred languages in the web view, the
operating system's ``LC_ALL`` / ``LC_TIME`` / ``LANG`` in a window and on the
command line), else ``DEFAULT_LOCALE``. A locale CLDR knows gives its formats
even where the words stay English; an unknown one is an error on the command
line only.

Every sentence is written in English in the code and looked up in the catalog
of the locale's language (``viewmodels/catalogs``: ``scripts/catalogs`` updates
them from the code, ``scripts/setup`` compiles them). Code marks a sentence with
``words.gettext("…")`` or ``words.ngettext("…", "…", n)``, placeholders named
and filled by ``str.format`` after the lookup, and a constant shown later with
``N_("…")``. A language with no catalog reads English. The folder named by
``SCHEDULE_BROWSER_CATALOGS`` is read first (a translator's preview, the browser
tests' pseudo-locale). Babel's core and the standard library only: the command
line reads its language here before it imports any view model.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import lru_cache
from gettext import NullTranslations
from pathlib import Path
from typing import TypeAlias

import babel
from babel import Locale, UnknownLocaleError
from babel.support import Translations

DEFAULT_LOCALE = Locale.parse("en_GB")
"""The app's look when nothing says otherwise: "24 Dec 2026", "09:00", Monday first."""

REGIONAL_FORMATS = (
    ("en_GB", "English (UK)"),
    ("en_US", "English (US)"),
    ("de_DE", "Deutsch"),
    ("zh_Hans_CN", "中文（简体）"),  # noqa: RUF001 - Chinese writes full-width brackets
)
"""The languages and formats Settings offers by name, each named in its own language."""

Words: TypeAlias = NullTranslations
"""A language's catalog: ``gettext``, ``ngettext`` and ``pgettext`` give the sentence."""

CATALOGS = Path(__file__).resolve().parent / "catalogs"
DOMAIN = "messages"
PREVIEW_CATALOGS = "SCHEDULE_BROWSER_CATALOGS"
"""The environment variable naming a folder of catalogs read before ``CATALOGS``."""

_NO_LOCALE = frozenset({"C", "POSIX", "en_US_POSIX"})


def parsed_locale(text: str) -> Locale:
    """``text`` ("en_US", "de-DE", "zh_Hans_CN") as a Babel locale; ``ValueError`` naming it."""
    cleaned = text.strip().split(".")[0].split("@")[0]
    try:
        return Locale.parse(cleaned, sep="-" if "-" in cleaned else "_")
    except (ValueError, UnknownLocaleError):
        raise ValueError(
            f"{text!r} is not a locale (try en_GB, en_US, de_DE or zh_Hans_CN)"
        ) from None


def os_locale() -> Locale | None:
    """The operating system's locale; None when it names none ("C", "POSIX", unset)."""
    named = babel.default_locale(("LC_ALL", "LC_TIME", "LANG"))
    if not named or named.split(".")[0] in _NO_LOCALE:
        return None
    try:
        return parsed_locale(named)
    except ValueError:
        return None


def first_known_locale(languages: Iterable[str]) -> Locale | None:
    """The first of a browser's preferred languages ("en-US", "de") that CLDR knows."""
    for language in languages:
        try:
            return parsed_locale(language)
        except ValueError:
            continue
    return None


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs without looking it up: a constant shown later."""
    return message


def catalog_name(locale: Locale) -> str | None:
    """The catalog ``locale`` reads: "de" for de_AT, "zh_Hans" for zh_CN; None for English."""
    if locale.language == "zh":
        return "zh_Hans" if locale.script in (None, "Hans") else None
    return None if locale.language == "en" else locale.language


@lru_cache(maxsize=16)
def words_for(locale: Locale) -> Words:
    """The catalog of ``locale``'s language; English (the code's own words) when there is none."""
    name = catalog_name(locale)
    if name is None:
        return NullTranslations()
    for folder in _catalog_folders():
        if (folder / name / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file():
            return Translations.load(str(folder), [name], DOMAIN)
    return NullTranslations()


def _catalog_folders() -> list[Path]:
    preview = os.environ.get(PREVIEW_CATALOGS)
    return [Path(preview), CATALOGS] if preview else [CATALOGS]
