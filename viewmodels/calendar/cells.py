"""The grid's day cells: marks by kind, and a label that says every mark in words.

Marks keep a fixed order of kinds (what will fire, then what happened, then
dates that never fire). Up to ``DRAWN_ONE_BY_ONE`` marks of a kind are drawn
one by one; more show one mark and their count, as for a schedule that fires
many times a day. The label is what a screen reader says for the cell:
"Sunday, 14 March 2027, today: fires at 03:00, moved by the clock change".
Before the month is read the label is the date alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from babel import Locale

from viewmodels.calendar.month_content import DayEntry
from viewmodels.calendar.month_grid import Month
from viewmodels.calendar.snapshot import DayCell, DayMark, MarkKind
from viewmodels.formatting.clock_text import long_date_text

DRAWN_ONE_BY_ONE = 3
NOTHING_TEXT = "nothing scheduled"
_ORDER = tuple(MarkKind)
_MANY = {
    MarkKind.FIRES: "fires {n} times",
    MarkKind.ADJUSTED: "{n} firings adjusted for clock changes",
    MarkKind.MAY_OVERLAP: "{n} firings may be skipped if the previous run is still going",
    MarkKind.WOULD_FIRE: "would fire {n} times if resumed",
    MarkKind.RAN: "ran {n} times",
    MarkKind.RUNNING: "{n} runs still going",
    MarkKind.FAILED: "{n} runs failed",
    MarkKind.MISSED: "missed {n} times",
    MarkKind.SKIPPED: "skipped {n} times because the previous run was still going",
    MarkKind.REFUSED: "refused {n} times for missing authority",
    MarkKind.NOT_RUN: "not run {n} times",
    MarkKind.NOT_FIRED: "not fired {n} times: nothing was recorded",
    MarkKind.NO_RECORD: "no record of {n} firings",
    MarkKind.NO_FIRING: "{n} selected dates that never fire",
}


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
    facts = [long_date_text(day, locale)]
    if day == today:
        facts.append("today")
    if not month.holds(day):
        facts.append("outside " + month.title(locale))
    label = ", ".join(facts)
    if entries is not None:
        label += ": " + _words(by_kind)
    return DayCell(
        day=day,
        number_text=str(day.day),
        in_month=month.holds(day),
        is_today=day == today,
        selected=day == selected,
        marks=marks,
        label=label,
    )


def _words(by_kind: Mapping[MarkKind, list[DayEntry]]) -> str:
    if not by_kind:
        return NOTHING_TEXT
    said: list[str] = []
    for kind in _ORDER:
        found = by_kind.get(kind, [])
        if len(found) > DRAWN_ONE_BY_ONE:
            said.append(_MANY[kind].format(n=len(found)))
        else:
            said.extend(entry.words for entry in found)
    return "; ".join(said)
