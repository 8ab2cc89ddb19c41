"""One firing of the agenda in words: the time on the person's clock, the title, the cadence,
what became of it when it is past (an instant the server expected but never decided is
"Not fired", never "No record"), and whether it shares its instant or may overlap a run.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from transport.models import AgendaItem, ScheduleState
from viewmodels.agenda.snapshot import AgendaRow
from viewmodels.formatting import cadence_summary
from viewmodels.formatting.clock_text import (
    clock_time,
    hour_cycle_of,
    local_clock_time,
    locale_of,
    wall_time_text,
    words_of,
)
from viewmodels.formatting.marks import MarkKind
from viewmodels.formatting.outcomes import past_firing_mark, past_firing_words
from viewmodels.formatting.zones import is_device_zone, place_name
from viewmodels.language import N_, Words

MAY_OVERLAP_TEXT = N_("May be skipped if the previous run is still going")
PAUSED_TEXT = N_("Paused: shown as if resumed")


def agenda_row(item: AgendaItem, now: datetime, zone: ZoneInfo) -> AgendaRow:
    """The row of ``item`` for a person in ``zone`` at ``now``, in the zone's language."""
    words = words_of(zone)
    local = item.at.astimezone(zone)
    time = local_clock_time(local)
    past = item.at < now
    paused = item.as_if_resumed is True or item.known_state is ScheduleState.PAUSED
    return AgendaRow(
        schedule_id=item.schedule_id,
        at=item.at,
        day=local.date(),
        time_text=time,
        own_time_text=own_time_text(item, zone, time, words=words),
        title=item.title,
        cadence_text=cadence_summary(item.cadence, zone),
        past=past,
        mark=_mark(item, past),
        outcome_text=(
            past_firing_words(
                item.disposition,
                item.reason_code,
                item.run_status,
                words=words,
                expected=item.not_fired,
            )
            if past
            else None
        ),
        clash_text=clash_text(item.clash_count, time, words=words),
        overlap_text=words.gettext(MAY_OVERLAP_TEXT) if item.may_overlap is True else None,
        paused_text=words.gettext(PAUSED_TEXT) if paused and not past else None,
    )


def own_time_text(item: AgendaItem, zone: ZoneInfo, shown: str, *, words: Words) -> str | None:
    """ "10:00 in Paris": the schedule's own clock, when its zone is not the person's."""
    if not item.timezone or is_device_zone(item.timezone, zone):
        return None
    cycle, locale = hour_cycle_of(zone), locale_of(zone)
    own = wall_time_text(item.local_time, cycle, locale)
    if own is None:
        try:
            local = item.at.astimezone(ZoneInfo(item.timezone))
        except (ValueError, KeyError, OSError):
            return None
        own = clock_time(local.hour, local.minute, local.second, hour_cycle=cycle, locale=locale)
    if own == shown and item.timezone == "UTC":
        return None
    # Translators: a firing's time on the schedule's own clock: "10:00 in Paris".
    text = words.gettext("{time} in {place}")
    return text.format(time=own, place=place_name(item.timezone))


def clash_text(clash_count: int | None, time: str, *, words: Words) -> str | None:
    """ "9 schedules at 09:00" when the instant is shared; nothing for one alone."""
    if clash_count is None or clash_count <= 1:
        return None
    text = words.ngettext("{count} schedule at {time}", "{count} schedules at {time}", clash_count)
    return text.format(count=clash_count, time=time)


def _mark(item: AgendaItem, past: bool) -> MarkKind:
    if past:
        return past_firing_mark(
            item.disposition, item.reason_code, item.run_status, expected=item.not_fired
        )
    if item.may_overlap is True:
        return MarkKind.MAY_OVERLAP
    return MarkKind.FIRES if item.adjustment is None else MarkKind.ADJUSTED
