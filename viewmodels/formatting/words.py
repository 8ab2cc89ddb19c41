"""The words of a display zone: the catalog of the language its locale is in.

View models take the zone times are shown in (``clock_text.DisplayZone``),
which carries the person's locale; a sentence they write is looked up in that
locale's catalog (``viewmodels.language``).
"""

from __future__ import annotations

from datetime import tzinfo

from viewmodels.formatting.clock_text import locale_of
from viewmodels.language import Words, words_for


def words_of(zone: tzinfo | None) -> Words:
    """The catalog of the locale ``zone`` carries (English for a plain zone)."""
    return words_for(locale_of(zone))
