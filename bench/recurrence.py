"""Recurrence calculator against python-dateutil's rrule, side by side in one run.

Measures, on the same rules and the same span:

1. ``first_after`` median per call for each cadence kind, next to
   ``rrule.after`` on the equivalent rule (dtstart at the start of the span,
   queries spread over one year).
2. ``count_between`` for a DAILY rule over 1, 10 and 50 years, next to counting
   the same rule with ``rrule`` (which has to enumerate every instant).

Run from the repository root: ``.venv/bin/python bench/recurrence.py``.
Figures are medians of per-call ``time.perf_counter_ns`` samples after a
warm-up; the machine is noisy, so read the ratios, not the absolutes.
"""

from __future__ import annotations

import statistics
import time as clock
from collections.abc import Callable
from datetime import UTC, datetime, time, timedelta
from functools import partial
from zoneinfo import ZoneInfo

from dateutil import rrule as du

from server.domain.cadence import Cadence, Daily, MonthDay, Monthly, Once, Weekly, Yearly
from server.domain.recurrence import count_between, first_after

ZONE = "America/New_York"
START = datetime(2026, 1, 1, tzinfo=ZoneInfo(ZONE))
QUERIES = [START + timedelta(hours=7 * i + 0.5) for i in range(1, 1250)]  # ~1 year
ROUNDS = 5


def _rules() -> list[tuple[str, Cadence, du.rrule]]:
    nine = time(9, 0)
    dtstart = START.replace(hour=9)
    return [
        (
            "ONCE",
            Once(datetime(2026, 12, 24, 17, tzinfo=UTC)),
            du.rrule(du.DAILY, count=1, dtstart=datetime(2026, 12, 24, 17, tzinfo=UTC)),
        ),
        ("DAILY", Daily(nine, ZONE), du.rrule(du.DAILY, dtstart=dtstart)),
        (
            "WEEKLY",
            Weekly(nine, (1, 3, 5), ZONE),
            du.rrule(du.WEEKLY, byweekday=(du.MO, du.WE, du.FR), dtstart=dtstart),
        ),
        (
            "MONTHLY",
            Monthly(nine, (1, 15), True, ZONE),
            du.rrule(du.MONTHLY, bymonthday=(1, 15, -1), dtstart=dtstart),
        ),
        (
            "YEARLY",
            Yearly(nine, (MonthDay(2, 29),), ZONE),
            du.rrule(du.YEARLY, bymonth=2, bymonthday=29, dtstart=dtstart),
        ),
    ]


def _median_ns(call: Callable[[], object], samples: int) -> float:
    call()  # warm-up
    timings: list[int] = []
    for _ in range(samples):
        began = clock.perf_counter_ns()
        call()
        timings.append(clock.perf_counter_ns() - began)
    return statistics.median(timings)


def _per_call_median_us(call: Callable[[datetime], object]) -> float:
    for query in QUERIES[:50]:
        call(query)  # warm-up
    timings: list[int] = []
    for _ in range(ROUNDS):
        for query in QUERIES:
            began = clock.perf_counter_ns()
            call(query)
            timings.append(clock.perf_counter_ns() - began)
    return statistics.median(timings) / 1000


def _rrule_daily_count(end: datetime) -> int:
    # rrule can only count by enumerating every instant of the span.
    return sum(1 for _ in du.rrule(du.DAILY, dtstart=START.replace(hour=9), until=end))


def main() -> None:
    print(f"first_after, median per call over {len(QUERIES)} queries x {ROUNDS} rounds")
    print(f"(rule zone {ZONE}, dtstart {START.date()}, queries spread over one year)")
    print(f"{'kind':<8} {'ours us':>9} {'rrule us':>10} {'rrule/ours':>11}")
    for kind, cadence, rule in _rules():
        ours = _per_call_median_us(partial(first_after, cadence))
        theirs = _per_call_median_us(rule.after)
        print(f"{kind:<8} {ours:>9.1f} {theirs:>10.1f} {theirs / ours:>10.0f}x")

    print()
    print("count_between, DAILY 09:00 America/New_York, median of repeated calls")
    print(
        f"{'span':<8} {'ours us':>9} {'vs 1y':>6} {'rrule us':>12} {'rrule/ours':>11} {'count':>6}"
    )
    daily = Daily(time(9), ZONE)
    one_year: float | None = None
    for years in (1, 10, 50):
        end = START.replace(year=START.year + years)
        ours_count = count_between(daily, START, end)
        ours = _median_ns(partial(count_between, daily, START, end), 2001) / 1000
        theirs_count = _rrule_daily_count(end)
        theirs = _median_ns(partial(_rrule_daily_count, end), 5) / 1000
        if ours_count != theirs_count:
            raise SystemExit(f"counts disagree: ours {ours_count}, rrule {theirs_count}")
        one_year = one_year or ours
        print(
            f"{years:>2} years {ours:>9.1f} {ours / one_year:>5.2f}x {theirs:>12.0f}"
            f" {theirs / ours:>10.0f}x {ours_count:>6}"
        )


if __name__ == "__main__":
    main()
