"""Where the person's locale comes from, and the regional formats Settings offers.

The locale is chosen in this order: the Settings choice, else ``--locale``,
else the device's (the browser's preferred languages in the web view, the
operating system's ``LC_ALL`` / ``LC_TIME`` / ``LANG`` in a window), else
``DEFAULT_LOCALE``. A locale CLDR knows gives its formats even while the
words stay English; one it does not know is never an error past the command line.
"""

from __future__ import annotations

from collections.abc import Iterable

import babel
from babel import Locale, UnknownLocaleError

REGIONAL_FORMATS = (
    ("en_GB", "English (UK)"),
    ("en_US", "English (US)"),
    ("de_DE", "Deutsch"),
    ("zh_Hans_CN", "中文（简体）"),  # noqa: RUF001 - Chinese writes full-width brackets
)
"""The formats Settings offers by name, each named in its own language."""

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
    """The operating system's locale for formats; None when it names none ("C", "POSIX", unset)."""
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
