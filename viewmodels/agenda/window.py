"""Which stretch of time the agenda shows: Today, Next 7 days or Month, from local midnight.

Every window starts at the person's local midnight in their zone and ends at a
later local midnight, counted on the wall clock of that zone (a day across a
clock change is 23 or 25 hours), never by adding hours to a UTC instant.
"""

from __future__ import annotations

import calendar
from datetime import UTC, date, datetime, time, timedelta
from enum import StrEnum
from zoneinfo import ZoneInfo

from transport.models import AgendaBucket
from viewmodels.language import N_


class AgendaSpan(StrEnum):
    TODAY = "today"
    WEEK = "week"
    MONTH = "month"

    @property
    def label(self) -> str:
        """The span's name, in English (marked): ``words.gettext(span.label)`` shows it."""
        return {"today": N_("Today"), "week": N_("Next 7 days"), "month": N_("Month")}[self]

    @property
    def bucket(self) -> AgendaBucket:
        """The busy strip's bucket: hours over a day or a week, days over a month."""
        return "day" if self is AgendaSpan.MONTH else "hour"


def local_midnight(day: date, zone: ZoneInfo) -> datetime:
    """The first instant of ``day`` in ``zone`` (a midnight in a clock-change gap: the
    first valid instant after it), in UTC."""
    return datetime.combine(day, time(0), tzinfo=zone).astimezone(UTC)


def last_day(day: date) -> date:
    """The same day of the next month, or that month's last day when it has fewer."""
    year, month = (day.year + 1, 1) if day.month == 12 else (day.year, day.month + 1)
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def span_days(span: AgendaSpan, today: date) -> tuple[date, date]:
    """The first day shown and the day after the last one."""
    if span is AgendaSpan.TODAY:
        return today, today + timedelta(days=1)
    if span is AgendaSpan.WEEK:
        return today, today + timedelta(days=7)
    return today, last_day(today)


def span_window(span: AgendaSpan, now: datetime, zone: ZoneInfo) -> tuple[datetime, datetime]:
    """``[from, to)`` of ``span`` for a person in ``zone`` at ``now``, as UTC instants."""
    first, after = span_days(span, now.astimezone(zone).date())
    return local_midnight(first, zone), local_midnight(after, zone)
