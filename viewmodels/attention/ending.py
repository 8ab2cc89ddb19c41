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
from viewmodels.formatting.clock_text import day_month_text, local_clock_time, locale_of


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
    words = state_label(state)
    if ended_at is not None:
        words = f"{words} on {_day(ended_at, now, device_zone)}"
    if known is ScheduleState.COMPLETED and last_outcome is not None:
        once = cadence_kind is CadenceKind.ONCE
        words += " after its only firing" if once else " after its last firing"
    elif last_outcome is None:
        words += " before it ever fired"
    if last_outcome is None:
        return words
    fired = last_outcome.nominal_fire_at.astimezone(device_zone)
    same_day = ended_at is not None and ended_at.astimezone(device_zone).date() == fired.date()
    # The day is said once: a firing on the day it ended reads by its time alone.
    at = local_clock_time(fired, seconds=False) if same_day else instant_text(fired, device_zone)
    return f"{words}. {outcome_sentence(last_outcome, at)}"


def _day(instant: datetime, now: datetime | None, zone: ZoneInfo) -> str:
    """ "27 Nov" this year, "27 Nov 2025" another year or with no ``now`` (device zone)."""
    local = instant.astimezone(zone)
    if now is not None and local.year == now.astimezone(zone).year:
        return day_month_text(local, locale_of(zone))
    return date_text(local, locale_of(zone))
