"""How and when a schedule ended, in one sentence from what the server gave.

An ended schedule (COMPLETED or CANCELLED) keeps no next firing, so a person
asks how it ended and when: "Completed on 27 Nov after its only firing",
"Cancelled on 3 Nov". The date is the record's ``updated_at`` (the server
stamps it with the change of state, and an ended schedule changes no more),
in the device zone, with the year only when it is not the current one. The
last firing's outcome follows where the server sent one ("… Ran at 07:00",
its date too when it is not the day it ended), in the words the detail's
"Last firing" line uses. A state
this client does not know is humanized; a schedule still running has no
ending sentence.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from transport.models import CadenceKind, LastOutcome, ScheduleState, known_member
from viewmodels.attention.outcome_words import outcome_sentence
from viewmodels.formatting import date_text, instant_text, state_label
from viewmodels.formatting.clock_text import day_month_text, local_clock_time, locale_of, words_of
from viewmodels.language import Words


def ended_sentence(
    state: str,
    ended_at: datetime | None,
    cadence_kind: CadenceKind | None,
    last_outcome: LastOutcome | None,
    now: datetime | None,
    device_zone: ZoneInfo,
) -> str | None:
    """ "Completed on 27 Nov after its only firing. Ran at …"; None while it has not ended."""
    known = known_member(ScheduleState, state)
    if known is None or not known.ended:
        return None
    words = words_of(device_zone)
    how = "ended"
    if known is ScheduleState.COMPLETED and last_outcome is not None:
        how = "once" if cadence_kind is CadenceKind.ONCE else "last"
    elif last_outcome is None:
        how = "never"
    day = None if ended_at is None else _day(ended_at, now, device_zone)
    ending = _ending(state_label(state, words=words), day, how, words)
    if last_outcome is None:
        return ending
    fired = last_outcome.nominal_fire_at.astimezone(device_zone)
    same_day = ended_at is not None and ended_at.astimezone(device_zone).date() == fired.date()
    # The day is said once: a firing on the day it ended reads by its time alone.
    at = local_clock_time(fired, seconds=False) if same_day else instant_text(fired, device_zone)
    outcome = outcome_sentence(last_outcome, at, words=words)
    # Translators: two sentences: how a schedule ended, then what its last firing did.
    return words.gettext("{ending}. {outcome}").format(ending=ending, outcome=outcome)


def _ending(state: str, day: str | None, how: str, words: Words) -> str:
    """ "Completed on 27 Nov after its only firing" (``state``: "Completed" or "Cancelled")."""
    if day is None:
        if how == "once":
            return words.gettext("{state} after its only firing").format(state=state)
        if how == "last":
            return words.gettext("{state} after its last firing").format(state=state)
        if how == "never":
            return words.gettext("{state} before it ever fired").format(state=state)
        return state
    if how == "once":
        text = words.gettext("{state} on {day} after its only firing")
    elif how == "last":
        text = words.gettext("{state} on {day} after its last firing")
    elif how == "never":
        text = words.gettext("{state} on {day} before it ever fired")
    else:
        # Translators: {state} is "Completed" or "Cancelled", {day} a date ("27 Nov").
        text = words.gettext("{state} on {day}")
    return text.format(state=state, day=day)


def _day(instant: datetime, now: datetime | None, zone: ZoneInfo) -> str:
    """ "27 Nov" this year, "27 Nov 2025" another year or with no ``now`` (device zone)."""
    local = instant.astimezone(zone)
    if now is not None and local.year == now.astimezone(zone).year:
        return day_month_text(local, locale_of(zone))
    return date_text(local, locale_of(zone))
