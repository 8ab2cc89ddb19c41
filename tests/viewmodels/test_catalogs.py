"""Every sentence the code marks is translated in German and Chinese, whole.

The messages are extracted from the code as ``scripts/catalogs`` extracts them
(Babel's Python extractor, its default keywords) and held against the ``.po``
files: each is present and finished, says something else than the English
(names and codes aside), and keeps every placeholder of the English, no more
and no fewer (a missing one loses a value, an unknown one fails at ``format``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from string import Formatter

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.pofile import read_po

from devtools.catalog_sources import CATALOG_SOURCES
from viewmodels.language import CATALOGS, DOMAIN

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("de", "zh_Hans")

SAME_IN = {
    "de": {
        "Agenda",
        "Agent",
        "Revision",
        "Token",
        "{time} in {place}",
        "Schedule Browser: {reason}",
    },
    "zh_Hans": set(),
}
"""Messages a language writes as English does: words it shares, and the app's name.
A message of placeholders and punctuation alone ("{date}: {marks}") may always stay."""

Key = tuple[str, str | None]
"""A message as the catalogs key it: its id (the singular for a plural) and context."""


def _code_messages() -> dict[Key, tuple[str, ...]]:
    """Each marked message in the code: its English forms (one, or singular and plural)."""
    found: dict[Key, tuple[str, ...]] = {}
    for source in CATALOG_SOURCES:
        path = ROOT / source
        extracted = (
            extract_from_dir(path, method_map=[("**.py", "python")])
            if path.is_dir()
            else ((source, *each) for each in extract_from_file("python", path))
        )
        for _file, _line, message, _comments, context in extracted:
            forms = (message,) if isinstance(message, str) else tuple(message)
            found[(forms[0], context)] = forms
    return found


CODE = _code_messages()


def _catalog(language: str) -> Catalog:
    with (CATALOGS / language / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as po:
        return read_po(po, locale=language)


def _entries(catalog: Catalog) -> Iterator[tuple[Key, Message]]:
    for message in catalog:
        if message.id:
            key = message.id if isinstance(message.id, str) else message.id[0]
            yield (key, message.context), message


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name is not None}


def _has_words(text: str) -> bool:
    return any(part.strip(" .,:;()·-") for part, *_ in Formatter().parse(text))


def _translations(message: Message) -> tuple[str, ...]:
    return (message.string,) if isinstance(message.string, str) else tuple(message.string)


def test_the_code_marks_sentences() -> None:
    assert len(CODE) > 300


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language: str) -> None:
    entries = dict(_entries(_catalog(language)))
    missing = sorted(str(key) for key in CODE if key not in entries)
    unfinished = sorted(
        str(key)
        for key, message in entries.items()
        if key in CODE and (message.fuzzy or not all(_translations(message)))
    )
    assert not missing, f"not in the {language} catalog (run scripts/catalogs): {missing}"
    assert not unfinished, f"untranslated or fuzzy in {language}: {unfinished}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_catalog_keeps_a_message_the_code_dropped(language: str) -> None:
    stale = sorted(str(key) for key, _ in _entries(_catalog(language)) if key not in CODE)
    assert not stale, f"no longer in the code (run scripts/catalogs): {stale}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_say_more_than_the_english(language: str) -> None:
    same = sorted(
        key[0]
        for key, message in _entries(_catalog(language))
        if key in CODE
        and key[0] not in SAME_IN[language]
        and _has_words(key[0])
        and any(text in CODE[key] for text in _translations(message))
    )
    assert not same, f"left in English in {language}: {same}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders(language: str) -> None:
    wrong = []
    for key, message in _entries(_catalog(language)):
        english = CODE.get(key)
        if english is None:
            continue
        every = set.union(*(_fields(form) for form in english))
        shared = set.intersection(*(_fields(form) for form in english))
        for text in _translations(message):
            if not shared <= _fields(text) <= every:
                wrong.append(f"{key[0]!r} -> {text!r}")
    assert not wrong, f"placeholders lost or unknown in {language}: {wrong}"
