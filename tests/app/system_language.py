"""The operating system's language as a test sets it: the command line reads it when no
``--locale`` is given (``app.command_line_words``), so its tests choose it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_TIME", "LC_CTYPE", "LANG")


def speak(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """The system's locale is ``lang`` ("de_DE.UTF-8"; "C.UTF-8" names none)."""
    for name in LANGUAGE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", lang)


@pytest.fixture(autouse=True)
def english_system(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The English tests read English whatever the machine's own locale."""
    speak(monkeypatch, "C.UTF-8")
    yield
