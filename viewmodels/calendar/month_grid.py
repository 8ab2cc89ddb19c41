"""The calendar's months and the window of instants the server is asked about.

Pure date arithmetic on the device's calendar: which days a month grid shows
(whole weeks from the locale's first weekday: Sunday in en_US, Monday in
en_GB and de, as CLDR says), and the half-open window of instants to read.
The window reaches past the grid on both sides (``WINDOW_DAYS`` local days in
all, under the server's 92-day limit even across a clock change) so a shift of
the device's time that starts before the grid or ends after it can still be
told apart from a lasting one.
Nothing here computes a firing: the server does.
"""

from __future__ import annotations

from calendar import monthrange
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from babel import Locale

from viewmodels.formatting.clock_text import month_title

WINDOW_DAYS = 90
"""Local days read per month: the grid's five or six weeks, the rest split around them."""


@dataclass(frozen=True, slots=True, order=True)
class Month:
    year: int
    month: int

    @classmethod
    def of(cls, day: date) -> Month:
        return cls(day.year, day.month)

    def shifted(self, months: int) -> Month:
        index = self.year * 12 + self.month - 1 + months
        return Month(index // 12, index % 12 + 1)

    @property
    def first_day(self) -> date:
        return date(self.year, self.month, 1)

    @property
    def last_day(self) -> date:
        return date(self.year, self.month, monthrange(self.year, self.month)[1])

    def title(self, locale: Locale) -> str:
        """ "March 2027", as ``locale`` titles a month."""
        return month_title(self.year, self.month, locale)

    def holds(self, day: date) -> bool:
        return (day.year, day.month) == (self.year, self.month)

    def same_day(self, day: date) -> date:
        """``day``'s day of the month in this month, clamped at its end (31 Jan → 28 Feb).

        Page Up / Page Down keep the day a reader is on, as a paper calendar's
        reader would: 9 Dec → 9 Jan, not 1 Jan.
        """
        return date(self.year, self.month, min(day.day, self.last_day.day))


def tab_stop_day(
    month: Month, selected: date | None, today: date, firing_days: Iterable[date]
) -> date:
    """The one day of the grid that Tab reaches (a roving focus, as the ARIA grid pattern has).

    The chosen day when it is in the month shown, else today when it is, else
    the month's first firing, else the 1st: the arrows move from there.
    """
    if selected is not None and month.holds(selected):
        return selected
    if month.holds(today):
        return today
    firings = sorted(day for day in firing_days if month.holds(day))
    return firings[0] if firings else month.first_day


def first_weekday(locale: Locale) -> int:
    """The ISO weekday (1 Monday to 7 Sunday) ``locale``'s weeks start on."""
    return locale.first_week_day + 1


def grid_days(month: Month, first: int = 1) -> tuple[date, ...]:
    """Whole weeks starting on ISO weekday ``first``, from the week of the 1st to the
    week of the last day."""
    start = month.first_day - timedelta(days=(month.first_day.isoweekday() - first) % 7)
    end = month.last_day + timedelta(days=(first - 1 - month.last_day.isoweekday()) % 7)
    return tuple(start + timedelta(days=n) for n in range((end - start).days + 1))


def request_window(days: tuple[date, ...], zone: ZoneInfo) -> tuple[datetime, datetime]:
    """``[start, end)``: local midnights around ``days``, ``WINDOW_DAYS`` days apart."""
    spare = WINDOW_DAYS - len(days)
    first = days[0] - timedelta(days=spare // 2)
    after = days[-1] + timedelta(days=1 + spare - spare // 2)
    return _midnight(first, zone), _midnight(after, zone)


def _midnight(day: date, zone: ZoneInfo) -> datetime:
    return datetime.combine(day, time(), tzinfo=zone)
