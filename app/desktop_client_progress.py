"""The line that shows the desktop client's fetch: ``Fetching Flet's desktop client: 12.3 of
45.6 MB (27%)``, redrawn in place with ``\\r``, in the person's words and numbers."""

from __future__ import annotations

from decimal import Decimal
from typing import TextIO

from babel import Locale
from babel.numbers import format_decimal

from viewmodels.language import words_for


class ProgressLine:
    """The progress of one fetch on ``out``; ``words`` and ``number`` also say its failure."""

    def __init__(self, out: TextIO, locale: Locale) -> None:
        self._out = out
        self._shown = ""
        self._locale = locale
        self.words = words_for(locale)

    def number(self, value: float | Decimal, pattern: str = "0") -> str:
        """``value`` in the locale's digits (no grouping unless ``pattern`` asks for it)."""
        return format_decimal(value, pattern, locale=self._locale)

    def megabytes(self, count: int) -> str:
        """``count`` bytes in MB to one decimal (as Python rounds) in the locale's digits."""
        return self.number(Decimal(f"{count / 1_000_000:.1f}"), "0.0")

    def show(self, received: int, total: int | None) -> None:
        got = self.megabytes(received)
        if total is None:
            line = self.words.gettext("Fetching Flet's desktop client: {received} MB")
            text = line.format(received=got)
        else:
            line = self.words.gettext(
                "Fetching Flet's desktop client: {received} of {total} MB ({percent}%)"
            )
            text = line.format(
                received=got,
                total=self.megabytes(total),
                percent=received * 100 // total,
            )
        if text != self._shown:
            # Padding erases the tail of a longer previous line on any terminal.
            self._out.write("\r" + text.ljust(len(self._shown)))
            self._out.flush()
            self._shown = text

    def end(self) -> None:
        if self._shown:
            self._out.write("\n")
            self._out.flush()
