"""The command line's language: the one the app speaks to the person, chosen the same way.

Its help and its refusals are written before any window or page, so no Settings
choice can speak yet: the locale is ``--locale`` when given (found in the
arguments before the parser is built, since the help is written in it), else
the operating system's, else the app's default. A ``--locale`` CLDR does not
know is refused by the parser, in the operating system's language.
"""

from __future__ import annotations

from collections.abc import Sequence

from babel import Locale

from viewmodels.language import DEFAULT_LOCALE, Words, os_locale, parsed_locale, words_for

_OPTION = "--locale"


def given_locale(argv: Sequence[str]) -> str | None:
    """The last ``--locale X`` or ``--locale=X`` in ``argv`` (before any ``--``), if any."""
    found = None
    for index, argument in enumerate(argv):
        if argument == "--":
            break
        if argument == _OPTION and index + 1 < len(argv):
            found = argv[index + 1]
        elif argument.startswith(f"{_OPTION}="):
            found = argument.partition("=")[2]
    return found


def person_locale(chosen: str | None) -> Locale:
    """``chosen`` (a ``--locale`` value) if CLDR knows it, else the OS's, else the default."""
    if chosen is not None:
        try:
            return parsed_locale(chosen)
        except ValueError:
            pass  # the parser refuses a bad --locale, in the system's language
    return os_locale() or DEFAULT_LOCALE


def command_line_words(argv: Sequence[str]) -> Words:
    """The catalog the command line's help and refusals are read in."""
    return words_for(person_locale(given_locale(argv)))


def words_of_setting(locale: str | None) -> Words:
    """The catalog of a started app (``Settings.locale``): its start-up sentences and notices."""
    return words_for(person_locale(locale))
