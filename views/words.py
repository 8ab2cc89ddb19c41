"""The session's words: the catalog of the person's language, for every component under a root.

Views have no words of their own, but they show the view models' constant
labels (``RETRY_LABEL``, kept in English and marked with ``N_``), looked up
here: a component reads ``use_words().gettext(RETRY_LABEL)``, a plain function
it calls takes the ``words`` as an argument. ``AppShell`` provides the words of
``ScreenModels.locale`` (the locale its view models write in), the sign-in
screen those of ``SignInSnapshot.locale``; nothing provided reads English.
"""

from __future__ import annotations

from collections.abc import Callable
from gettext import NullTranslations
from typing import TypeVar

import flet as ft
from babel import Locale

from viewmodels.language import Words, words_for

BuiltT = TypeVar("BuiltT")

WordsContext = ft.create_context(NullTranslations())
"""The words of the person's language; English (the code's own) where none is provided."""


def use_words() -> Words:
    """The words the nearest root provided, inside a component's render."""
    return ft.use_context(WordsContext)


def provide_words(locale: Locale, build: Callable[[], BuiltT]) -> BuiltT:
    """``build()``, with ``locale``'s words for every component it makes."""
    return WordsContext(words_for(locale), build)
