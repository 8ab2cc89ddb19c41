"""A schedule's last firing in the app's own words: the row's warning line, the detail's line.

The server says what became of the latest firing (``last_outcome``: the
disposition, a stable reason code, the run's status and failure reason) and
whether it needs attention. These functions place it in the device zone's
time ("02:30", "02:30 yesterday") and say it in the words every past
firing is said in (``viewmodels.formatting.outcomes``): "Missed at 02:30:
the server was down", "Run failed at 02:30: it ran past its deadline".
Nothing here reads the instruction, so a notice built from these words
cannot leak it.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from transport.models import LastOutcome
from viewmodels.formatting import instant_text, moment_text, past_firing_words
from viewmodels.formatting.clock_text import words_of
from viewmodels.language import N_, Words

NEVER_FIRED_TEXT = N_("Never fired")


def outcome_sentence(outcome: LastOutcome, at: str, *, words: Words) -> str:
    """What became of the latest firing (``at``: its instant in words), needing attention or not."""
    return past_firing_words(
        outcome.disposition,
        outcome.reason_code,
        outcome.run_status,
        words=words,
        failure_reason=outcome.failure_reason,
        at=at,
    )


def attention_line(outcome: LastOutcome | None, now: datetime, zone: ZoneInfo) -> str | None:
    """The row's warning line: only for an outcome the server says needs attention."""
    if outcome is None or outcome.needs_attention is not True:
        return None
    return outcome_sentence(
        outcome, moment_text(outcome.nominal_fire_at, now, zone), words=words_of(zone)
    )


def last_firing_text(outcome: LastOutcome | None, zone: ZoneInfo) -> str:
    """The detail's "Last firing" line; its instant is a full date, as the detail's others are."""
    words = words_of(zone)
    if outcome is None:
        return words.gettext(NEVER_FIRED_TEXT)
    return outcome_sentence(outcome, instant_text(outcome.nominal_fire_at, zone), words=words)
