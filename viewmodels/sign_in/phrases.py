"""The sign-in's notice and error as phrases: said in one language, and again in another.

A hosted page learns the browser's language after the sign-in screen is first
shown, so what the screen says is kept as a ``Phrase`` (a sentence waiting for
its language) and said again when the language changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Generic, TypeAlias, TypeVar

from babel import Locale

from transport.errors import ApiError
from viewmodels.failure_text import failure_text
from viewmodels.language import Words, words_for
from viewmodels.sign_in.snapshot import SignInSnapshot, not_checked, too_many_attempts

AccountT = TypeVar("AccountT")

Phrase: TypeAlias = Callable[[Words], str]
"""A notice or error, said in the language it is given."""


def said(message: str) -> Phrase:
    """One of the sign-in's constant sentences (``snapshot.py``)."""
    return lambda words: words.gettext(message)


def unchecked(error: ApiError, *, remembered: bool) -> Phrase:
    """The server could not answer (``error``), so the token could not be checked."""
    return lambda words: not_checked(
        failure_text(error, words=words), remembered=remembered, words=words
    )


def slowed(seconds: int) -> Phrase:
    """Attempts from here must wait ``seconds``."""
    return lambda words: too_many_attempts(seconds, words=words)


class Spoken(Generic[AccountT]):
    """The sign-in's language, and the notice and error it last said, to say them again."""

    def __init__(self, locale: Locale, publish: Callable[[SignInSnapshot[AccountT]], None]) -> None:
        self.locale = locale
        self._publish = publish
        self._notice: Phrase | None = None
        self._error: Phrase | None = None

    def show(
        self,
        snapshot: SignInSnapshot[AccountT],
        *,
        notice: Phrase | None = None,
        error: Phrase | None = None,
    ) -> None:
        """Publishes ``snapshot`` in this language, saying ``notice`` and ``error`` (kept)."""
        self._notice, self._error = notice, error
        words = words_for(self.locale)
        self._publish(
            replace(
                snapshot,
                locale=self.locale,
                notice=None if notice is None else notice(words),
                error=None if error is None else error(words),
            )
        )

    def learn(self, locale: Locale, snapshot: SignInSnapshot[AccountT]) -> None:
        """``snapshot`` said again in ``locale``, this sign-in's language from now on."""
        if locale != self.locale:
            self.locale = locale
            self.show(snapshot, notice=self._notice, error=self._error)
