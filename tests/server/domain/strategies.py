"""Hypothesis strategies for cadences over every zone zoneinfo knows."""

from __future__ import annotations

from datetime import UTC, datetime, time
from zoneinfo import available_timezones

from hypothesis import strategies as st

from server.domain.cadence import Cadence, Daily, MonthDay, Monthly, Once, Weekly, Yearly

ZONES = sorted(available_timezones() - {"localtime"})
_LONGEST_MONTH = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)

zones = st.sampled_from(ZONES)
local_times = st.builds(
    time, st.integers(0, 23), st.sampled_from([0, 15, 30, 45]), st.sampled_from([0, 0, 0, 30])
)
instants = st.datetimes(
    min_value=datetime(1960, 1, 1), max_value=datetime(2090, 1, 1), timezones=st.just(UTC)
)
month_days = st.integers(1, 12).flatmap(
    lambda month: st.integers(1, _LONGEST_MONTH[month - 1]).map(lambda day: MonthDay(month, day))
)

onces = st.builds(Once, instants)
dailies = st.builds(Daily, local_times, zones)
weeklies = st.builds(Weekly, local_times, st.sets(st.integers(1, 7), min_size=1).map(tuple), zones)
# An empty day set forces last_day on, so every drawn value is a valid rule.
monthlies = st.tuples(
    local_times, st.sets(st.integers(1, 31), max_size=4), st.booleans(), zones
).map(lambda parts: Monthly(parts[0], tuple(parts[1]), parts[2] or not parts[1], parts[3]))
yearlies = st.builds(
    Yearly, local_times, st.sets(month_days, min_size=1, max_size=3).map(tuple), zones
)

recurring: st.SearchStrategy[Cadence] = st.one_of(dailies, weeklies, monthlies, yearlies)
cadences: st.SearchStrategy[Cadence] = st.one_of(onces, recurring)
