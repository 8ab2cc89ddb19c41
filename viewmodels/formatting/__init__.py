"""Formatting decisions, in one place so QA can test them: text, not widgets.

- ``labels``: states, pause reasons, profile states, roles, clock-change adjustments;
  unknown values humanized, "Not available" for a value missing or unreadable.
- ``cadence``: cadence summaries with the zone rule.
- ``clock_text``: instants in the device zone, message times; dates, times and names in
  the person's locale (CLDR through Babel), which the display zone carries with the
  clock (``display_zone``, ``locale_of``).
- ``relative_text``: moments ("02:30 yesterday"), ages ("5 min ago"), the next firing
  ("Next: today at 09:00"), durations.
- ``limits``: finite limits, money, scopes.
- ``outcomes``: what became of a past firing, in one set of words and marks (``marks``).
- ``shared_words``: the app's name and the labels several screens share (Retry, Load more).
- ``tone``: the semantic tone a state is shown in (the view picks its colours).

Every function that writes a sentence takes the zone it is shown in (its words
come from it, ``clock_text.words_of``), or the caller's ``words`` (and
``locale`` where numbers need it).
"""

from __future__ import annotations

from viewmodels.formatting.cadence import cadence_summary, ordinal
from viewmodels.formatting.clock_text import (
    date_text,
    instant_text,
    instant_text_naming_zone,
    locale_of,
    long_date_text,
    message_time_text,
    time_text_naming_zone,
    wall_time_text,
)
from viewmodels.formatting.labels import (
    NOT_AVAILABLE_TEXT,
    adjustment_text,
    available,
    humanize,
    pause_reason_text,
    profile_state_text,
    role_label,
    state_label,
)
from viewmodels.formatting.limits import limit_lines, money_text, scopes_text
from viewmodels.formatting.marks import MarkKind
from viewmodels.formatting.outcomes import past_firing_mark, past_firing_words
from viewmodels.formatting.relative_text import (
    age_text,
    duration_text,
    moment_text,
    next_firing_text,
)
from viewmodels.formatting.tone import Tone, state_tone

__all__ = [
    "NOT_AVAILABLE_TEXT",
    "MarkKind",
    "Tone",
    "adjustment_text",
    "age_text",
    "available",
    "cadence_summary",
    "date_text",
    "duration_text",
    "humanize",
    "instant_text",
    "instant_text_naming_zone",
    "limit_lines",
    "locale_of",
    "long_date_text",
    "message_time_text",
    "moment_text",
    "money_text",
    "next_firing_text",
    "ordinal",
    "past_firing_mark",
    "past_firing_words",
    "pause_reason_text",
    "profile_state_text",
    "role_label",
    "scopes_text",
    "state_label",
    "state_tone",
    "time_text_naming_zone",
    "wall_time_text",
]
