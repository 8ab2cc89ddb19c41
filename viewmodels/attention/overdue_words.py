"""A firing the server has not decided in time, in the app's own words.

The server marks a schedule overdue (``overdue_since``: the instant its firing
came due) once that firing waited past its threshold undecided, which happens
when no scheduler runs. The row, the detail and the notice then say
"Overdue: due at 09:00 (12 min ago)" instead of "due now", and the detail says
what it means. A server that never sends ``overdue_since`` never shows these
words.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from viewmodels.formatting import age_text, duration_text, moment_text
from viewmodels.formatting.clock_text import words_of
from viewmodels.language import Words


def overdue_text(overdue_since: datetime, now: datetime, zone: ZoneInfo) -> str:
    """ "Overdue: due at 09:00 (12 min ago)"; "due at 09:00 yesterday (…)" another day."""
    moment = moment_text(overdue_since, now, zone)
    age = age_text(overdue_since, now, zone)
    # Translators: {moment} is when the firing came due ("09:00"), {age} how long ago.
    return words_of(zone).gettext("Overdue: due at {moment} ({age})").format(moment=moment, age=age)


def overdue_explanation(misfire_grace_seconds: int | None, *, words: Words) -> str:
    """What an overdue firing means, under the detail's "Next firing"."""
    if misfire_grace_seconds is None:
        return words.gettext(
            "The server has not fired it yet. Firings resume when its scheduler runs;"
            " a firing later than its misfire grace is recorded as missed."
        )
    # Translators: {grace} is the schedule's misfire grace, a duration ("5 min").
    return words.gettext(
        "The server has not fired it yet. Firings resume when its scheduler runs;"
        " a firing later than its misfire grace ({grace}) is recorded as missed."
    ).format(grace=duration_text(misfire_grace_seconds, words=words))
