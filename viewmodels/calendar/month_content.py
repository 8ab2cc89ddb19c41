"""What one projection puts on each day of the device's calendar, and the month's notes.

Firings and past occurrences go on the device-local date of their instant (the
grid is the device's calendar; its times are the device's). A notice goes on
the date it names, which is the schedule zone's date; a day the month lacks
(the 31st of April) goes on the month's last day. Each entry has the words a
day cell's label carries and the sentence the chosen day lists. The month's
notes say each adjusted firing, each notice and each temporary shift of the
device's time once, in date order; a chosen day's line says what happens that
day ("07:00 (03:00 America/New_York) — Fires, moved by the clock change")
and leaves the why to the note, so no sentence shows twice. A paused
schedule's firings (as if resumed) carry the hollow ``WOULD_FIRE`` mark; a
firing that may overlap the previous run, and a past instant the server
expected but never decided, carry marks of their own.
"""

from __future__ import annotations

from calendar import monthrange
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from transport.models import (
    PastOccurrence,
    ProjectedFiring,
    Projection,
    ProjectionNotice,
)
from viewmodels.calendar.month_grid import Month
from viewmodels.calendar.sentences import (
    adjusted_sentence,
    device_time,
    notice_sentence,
    notice_words,
    shift_note,
    shift_words,
)
from viewmodels.calendar.shifts import Shift, temporary_shifts
from viewmodels.calendar.snapshot import MarkKind
from viewmodels.formatting import (
    adjustment_text,
    past_firing_mark,
    past_firing_words,
    time_text_naming_zone,
)
from viewmodels.formatting.clock_text import locale_of, words_of
from viewmodels.formatting.joins import with_clause, with_further_clause
from viewmodels.formatting.zones import is_device_zone
from viewmodels.language import N_

ENDED_TEXT = N_("This schedule has ended; nothing more will fire")
AS_IF_RESUMED_TEXT = N_(
    "Paused: nothing fires until it is resumed. Hollow marks show the firings it would make"
    " if resumed now"
)
MAY_OVERLAP_WORDS = N_("may be skipped if the previous run is still going")
_NOTICES_FIRST = datetime.min.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class DayEntry:
    """One thing on one day: its mark, its words in the cell's label, its sentence."""

    order: datetime
    kind: MarkKind
    words: str
    line: str


@dataclass(frozen=True, slots=True)
class MonthContent:
    entries: Mapping[date, tuple[DayEntry, ...]]
    notes: tuple[str, ...]
    status_text: str | None
    zone_text: str | None


def month_content(projection: Projection, month: Month, device_zone: ZoneInfo) -> MonthContent:
    zone = projection.timezone or "UTC"
    shifts = temporary_shifts(projection.firings, device_zone)
    placed: list[tuple[date, DayEntry]] = []
    notes: list[tuple[datetime, str]] = []
    noted_runs: set[datetime] = set()
    resumed = bool(projection.as_if_resumed)
    for firing in projection.firings:
        day = firing.at.astimezone(device_zone).date()
        shift = shifts.get(firing.at)
        placed.append((day, _firing_entry(firing, zone, device_zone, shift, resumed)))
        if not month.holds(day):
            continue
        if firing.adjustment is not None:
            notes.append((firing.at, adjusted_sentence(firing, zone, device_zone)))
        if shift is not None and shift.run_start not in noted_runs:
            noted_runs.add(shift.run_start)
            start = shift.run_start.astimezone(device_zone).date()
            notes.append(
                (firing.at, shift_note(start, shift.shown, shift.usual, shift.until, device_zone))
            )
    for occurrence in projection.past:
        day = occurrence.nominal_fire_at.astimezone(device_zone).date()
        placed.append((day, _past_entry(occurrence, zone, device_zone)))
    for notice in projection.notices:
        shown_on = _notice_day(notice)
        if shown_on is None:
            continue
        sentence = notice_sentence(notice, zone, locale_of(device_zone))
        words = notice_words(notice, locale_of(device_zone))
        entry = DayEntry(_NOTICES_FIRST, MarkKind.NO_FIRING, words, sentence)
        placed.append((shown_on, entry))
        if month.holds(shown_on):
            notes.append((datetime.combine(shown_on, datetime.min.time(), UTC), sentence))
    entries: defaultdict[date, list[DayEntry]] = defaultdict(list)
    for day, entry in placed:
        entries[day].append(entry)
    return MonthContent(
        entries={
            day: tuple(sorted(found, key=lambda e: e.order)) for day, found in entries.items()
        },
        notes=tuple(text for _, text in sorted(notes, key=lambda note: note[0])),
        status_text=_status(projection, resumed, device_zone),
        zone_text=None if is_device_zone(zone, device_zone) else _zone_text(zone, device_zone),
    )


def _zone_text(zone: str, device_zone: ZoneInfo) -> str:
    words = words_of(device_zone)
    # Translators: {yours} and {zone} are IANA zone names ("Europe/London").
    said = words.gettext("Times are in your zone ({yours}), with {zone} times beside them")
    return said.format(yours=device_zone.key, zone=zone)


def _firing_entry(
    firing: ProjectedFiring, zone: str, device_zone: ZoneInfo, shift: Shift | None, resumed: bool
) -> DayEntry:
    words = words_of(device_zone)
    time = device_time(firing.at, device_zone)
    shown = time_text_naming_zone(firing.at, device_zone, zone)
    if resumed:
        # Translators: in a day cell's spoken label, a paused schedule's firing if resumed.
        said = words.gettext("would fire at {time}").format(time=time)
        # Translators: a line of the chosen day; {time} is the firing's time.
        line = words.gettext("{time} — Would fire if resumed").format(time=shown)
    else:
        said = words.gettext("fires at {time}").format(time=time)
        line = words.gettext("{time} — Fires").format(time=shown)
    # Clauses follow the sentence, each a phrase of its own: the change, the shift, the overlap.
    adjusted = adjustment_text(firing.adjustment, words=words)
    if adjusted is not None:
        # The why is the month's note; the day says what, so no sentence shows twice.
        said = with_clause(said, adjusted, words)
        line = with_clause(line, adjusted, words)
    if shift is not None:
        moved = shift_words(shift.shown, shift.usual, shift.until, device_zone)
        said = with_clause(said, moved, words)
        line = with_further_clause(line, moved, words)
    if firing.may_overlap is True:
        overlap = words.gettext(MAY_OVERLAP_WORDS)
        said = with_clause(said, overlap, words)
        line = with_further_clause(line, overlap, words)
    return DayEntry(firing.at, _firing_kind(firing, resumed), said, line)


def _firing_kind(firing: ProjectedFiring, resumed: bool) -> MarkKind:
    """Paused (hollow) first, then the overlap warning, then the clock change."""
    if resumed:
        return MarkKind.WOULD_FIRE
    if firing.may_overlap is True:
        return MarkKind.MAY_OVERLAP
    return MarkKind.FIRES if firing.adjustment is None else MarkKind.ADJUSTED


def _past_entry(occurrence: PastOccurrence, zone: str, device_zone: ZoneInfo) -> DayEntry:
    at = occurrence.nominal_fire_at
    outcome = (occurrence.disposition, occurrence.reason_code, occurrence.run_status)
    expected = occurrence.not_fired
    reason = occurrence.failure_reason
    said_in = words_of(device_zone)
    timed = past_firing_words(
        *outcome,
        words=said_in,
        failure_reason=reason,
        at=device_time(at, device_zone),
        expected=expected,
    )
    said = past_firing_words(*outcome, words=said_in, failure_reason=reason, expected=expected)
    line = f"{time_text_naming_zone(at, device_zone, zone)} — {said}"
    # Inside a cell's label the sentence follows the date: running text (English lowers
    # its first letter; German nouns keep theirs, Chinese has none).
    mark = past_firing_mark(*outcome, expected=expected)
    running = timed[:1].lower() + timed[1:] if locale_of(device_zone).language == "en" else timed
    return DayEntry(at, mark, running, line)


def _notice_day(notice: ProjectionNotice) -> date | None:
    """The date a notice is shown on: its own, or its month's last day when it has none.

    None for a date no calendar has a place for (month 13), which is left out.
    """
    year, month, day = notice.parts
    try:
        return date(year, month, min(day, monthrange(year, month)[1]))
    except ValueError:
        return None


def _status(projection: Projection, resumed: bool, device_zone: ZoneInfo) -> str | None:
    state = projection.known_state
    if state is not None and state.ended:
        return words_of(device_zone).gettext(ENDED_TEXT)
    return words_of(device_zone).gettext(AS_IF_RESUMED_TEXT) if resumed else None
