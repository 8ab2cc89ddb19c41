"""A folder of catalogs named by ``SCHEDULE_BROWSER_CATALOGS``, read before the app's own.

The pseudo-locale of ``devtools.pseudo_locale`` is read through it: every
sentence, its plural forms and its context, accented, bracketed, 40% longer,
placeholders kept. A preview of a shipped language replaces that language's
catalog; without the variable the app's own catalogs are read.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from devtools.pseudo_locale import LONGER_BY, PSEUDO_LOCALE, pseudo, write_pseudo_catalog
from viewmodels.language import PREVIEW_CATALOGS, words_for

PSEUDO = Locale.parse(PSEUDO_LOCALE)
GERMAN = Locale.parse("de_DE")


@pytest.fixture(autouse=True)
def fresh_words() -> Iterator[None]:
    """Catalogs are kept once read: each test reads them afresh."""
    words_for.cache_clear()
    yield
    words_for.cache_clear()


@pytest.fixture
def previewed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(PREVIEW_CATALOGS, str(tmp_path))
    return tmp_path


def test_a_pseudo_sentence_is_accented_bracketed_longer_and_keeps_its_placeholders() -> None:
    english = "{place}'s clocks go forward on {date}"
    said = pseudo(english)

    assert said.startswith("[") and said.endswith("]")
    assert "{place}" in said and "{date}" in said
    assert "clocks" not in said
    own_words = english.replace("{place}", "").replace("{date}", "")
    said_words = said.replace("{place}", "").replace("{date}", "")
    assert len(said_words) >= len(own_words) * (1 + LONGER_BY)


def test_the_pseudo_locale_is_read_from_the_preview_folder(previewed: Path) -> None:
    write_pseudo_catalog(previewed)
    words = words_for(PSEUDO)

    assert words.gettext("Current") == pseudo("Current")
    assert words.ngettext("{count} session", "{count} sessions", 1) == pseudo("{count} session")
    assert words.ngettext("{count} session", "{count} sessions", 3) == pseudo("{count} sessions")
    assert words.pgettext("website access", "None") == pseudo("None")


def test_without_the_preview_the_pseudo_locale_reads_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(PREVIEW_CATALOGS, raising=False)

    assert words_for(PSEUDO).gettext("Current") == "Current"


def test_a_preview_of_german_replaces_the_shipped_catalog(previewed: Path) -> None:
    catalog = Catalog(locale="de", domain="messages")
    catalog.add("Current", "Jetzt")
    (previewed / "de" / "LC_MESSAGES").mkdir(parents=True)
    with (previewed / "de" / "LC_MESSAGES" / "messages.mo").open("wb") as file:
        write_mo(file, catalog)

    assert words_for(GERMAN).gettext("Current") == "Jetzt"
