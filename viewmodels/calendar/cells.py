"""The grid's day cells: marks by kind, and a label that says every mark in words.

Marks keep a fixed order of kinds (what will fire, then what happened, then
dates that never fire). Up to ``DRAWN_ONE_BY_ONE`` marks of a kind are drawn
one by one; more show one mark and their count, as for a schedule that fires
many times a day. The label is what a screen reader says for the cell:
"Sunday, 14 March 2027, today: fires at 03:00, moved by the clock change".
Before the month is read the label is the date alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date

from babel import Locale

from viewmodels.calendar.month_content import DayEntry
from viewmodels.calendar.month_grid import Month
from viewmodels.calendar.snapshot import DayCell, DayMark, MarkKind
from viewmodels.formatting.clock_text import long_date_text
from viewmodels.language import N_, Words, words_for

DRAWN_ONE_BY_ONE = 3
NOTHING_TEXT = N_("nothing scheduled")
_ORDER = tuple(MarkKind)
# fmt: off
_MANY: dict[MarkKind, Callable[[Words, int], str]] = {
    MarkKind.FIRES: lambda w, n: w.ngettext("fires {count} time", "fires {count} times", n),
    MarkKind.ADJUSTED: lambda w, n: w.ngettext(
        "{count} firing adjusted for clock changes",
        "{count} firings adjusted for clock changes", n),
    MarkKind.MAY_OVERLAP: lambda w, n: w.ngettext(
        "{count} firing may be skipped if the previous run is still going",
        "{count} firings may be skipped if the previous run is still going", n),
    MarkKind.WOULD_FIRE: lambda w, n: w.ngettext(
        "would fire {count} time if resumed", "would fire {count} times if resumed", n),
    MarkKind.RAN: lambda w, n: w.ngettext("ran {count} time", "ran {count} times", n),
    MarkKind.RUNNING: lambda w, n: w.ngettext(
        "{count} run still going", "{count} runs still going", n),
    MarkKind.FAILED: lambda w, n: w.ngettext("{count} run failed", "{count} runs failed", n),
    MarkKind.MISSED: lambda w, n: w.ngettext("missed {count} time", "missed {count} times", n),
    MarkKind.SKIPPED: lambda w, n: w.ngettext(
        "skipped {count} time because the previous run was still going",
        "skipped {count} times because the previous run was still going", n),
    MarkKind.REFUSED: lambda w, n: w.ngettext(
        "refused {count} time for missing authority",
        "refused {count} times for missing authority", n),
    MarkKind.NOT_RUN: lambda w, n: w.ngettext(
        "not run {count} time", "not run {count} times", n),
    MarkKind.NOT_FIRED: lambda w, n: w.ngettext(
        "not fired {count} time: nothing was recorded",
        "not fired {count} times: nothing was recorded", n),
    MarkKind.NO_RECORD: lambda w, n: w.ngettext(
        "no record of {count} firing", "no record of {count} firings", n),
    MarkKind.NO_FIRING: lambda w, n: w.ngettext(
        "{count} selected date that never fires", "{count} selected dates that never fire", n),
}
"""A day's marks of one kind said as one count, when there are too many to say one by one."""
# fmt: on


def weeks(
    month: Month,
    days: tuple[date, ...],
    entries: Mapping[date, tuple[DayEntry, ...]] | None,
    today: date,
    selected: date | None,
    locale: Locale,
) -> tuple[tuple[DayCell, ...], ...]:
    """The grid's rows of seven; ``entries`` None while the month is not read."""
    cells = [
        _cell(
            month, day, None if entries is None else entries.get(day, ()), today, selected, locale
        )
        for day in days
    ]
    return tuple(tuple(cells[start : start + 7]) for start in range(0, len(cells), 7))


def _cell(
    month: Month,
    day: date,
    entries: tuple[DayEntry, ...] | None,
    today: date,
    selected: date | None,
    locale: Locale,
) -> DayCell:
    by_kind: dict[MarkKind, list[DayEntry]] = {}
    for entry in entries or ():
        by_kind.setdefault(entry.kind, []).append(entry)
    marks = tuple(
        DayMark(
            kind,
            len(by_kind[kind]),
            str(len(by_kind[kind])) if len(by_kind[kind]) > DRAWN_ONE_BY_ONE else None,
        )
        for kind in _ORDER
        if kind in by_kind
    )
    words = words_for(locale)
    outside = None if month.holds(day) else month.title(locale)
    head = _head(long_date_text(day, locale), day == today, outside, words)
    label = head if entries is None else _said(head, _words(by_kind, words), words)
    return DayCell(
        day=day,
        number_text=str(day.day),
        in_month=month.holds(day),
        is_today=day == today,
        selected=day == selected,
        marks=marks,
        label=label,
    )


def _head(date_text: str, today: bool, outside: str | None, words: Words) -> str:
    """The cell's date, with "today" and "outside March 2027" (``outside``) when they hold."""
    if outside is None and not today:
        return date_text
    if outside is None:
        # Translators: a day cell's screen-reader label begins "Sunday, 14 March 2027, today".
        return words.gettext("{date}, today").format(date=date_text)
    if today:
        return words.gettext("{date}, today, outside {month}").format(date=date_text, month=outside)
    # Translators: {month} is the month the grid shows ("March 2027"); the day is another's.
    return words.gettext("{date}, outside {month}").format(date=date_text, month=outside)


def _said(head: str, marks: str, words: Words) -> str:
    # Translators: a day cell's screen-reader label: the date, then everything on that day.
    return words.gettext("{date}: {marks}").format(date=head, marks=marks)


def _words(by_kind: Mapping[MarkKind, list[DayEntry]], words: Words) -> str:
    if not by_kind:
        return words.gettext(NOTHING_TEXT)
    said: list[str] = []
    for kind in _ORDER:
        found = by_kind.get(kind, [])
        if len(found) > DRAWN_ONE_BY_ONE:
            said.append(_MANY[kind](words, len(found)).format(count=len(found)))
        else:
            said.extend(entry.words for entry in found)
    return "; ".join(said)
