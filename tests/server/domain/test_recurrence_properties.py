"""Properties of the calculator over every installed zone and all five kinds."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from itertools import pairwise
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from server.domain.cadence import Cadence, Daily, Once
from server.domain.civil_time import transition_between
from server.domain.misfire import Verdict, decide
from server.domain.recurrence import count_between, first_after, latest_at_or_before
from tests.server.domain.strategies import ZONES, cadences, instants, recurring

FAST = settings(max_examples=150, deadline=None)


def _zone(cadence: Cadence) -> ZoneInfo:
    return ZoneInfo(cadence.zone_name)


def _wall(instant: datetime, zone: ZoneInfo) -> datetime:
    return instant.astimezone(zone).replace(tzinfo=None, fold=0)


@FAST
@given(cadences, instants)
def test_first_after_is_never_early_and_is_its_own_latest(cadence: Cadence, t: datetime) -> None:
    found = first_after(cadence, t)
    latest = latest_at_or_before(cadence, t)
    if found is not None:
        assert found > t
        assert found.tzinfo is UTC
        assert latest_at_or_before(cadence, found) == found
    if latest is not None:
        assert latest <= t
        assert latest.tzinfo is UTC
        # Nothing lies between the latest past instant and t, so both agree on what follows.
        assert first_after(cadence, latest) == found
    else:
        assert isinstance(cadence, Once) or found is not None


@FAST
@given(cadences, instants)
def test_consecutive_results_strictly_increase_and_never_repeat_a_civil_time(
    cadence: Cadence, t: datetime
) -> None:
    zone = _zone(cadence)
    chain = _chain(cadence, t, 6)
    for earlier, later in pairwise(chain):
        assert earlier < later
        # The second pass through a fall-back hour is not a second occurrence.
        assert _wall(earlier, zone) != _wall(later, zone)


def _brute_force_count(cadence: Cadence, start: datetime, end: datetime) -> int:
    count = 0
    cursor = first_after(cadence, start)
    while cursor is not None and cursor <= end:
        count += 1
        cursor = first_after(cadence, cursor)
    return count


@FAST
@given(cadences, instants, st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=400)))
def test_count_between_matches_stepping_on_short_spans(
    cadence: Cadence, start: datetime, span: timedelta
) -> None:
    end = start + span
    assert count_between(cadence, start, end) == _brute_force_count(cadence, start, end)
    assert count_between(cadence, end, start) == 0


@FAST
@given(
    cadences,
    instants,
    st.timedeltas(min_value=timedelta(seconds=1), max_value=timedelta(days=365 * 50)),
    st.timedeltas(min_value=timedelta(seconds=1), max_value=timedelta(days=3)),
)
def test_misfire_decision_yields_one_occurrence_and_a_reconstructible_next_fire(
    cadence: Cadence, last: datetime, asleep: timedelta, grace: timedelta
) -> None:
    now = last + asleep
    decision = decide(cadence, grace=grace, last_nominal_at=last, now=now)
    owed = count_between(cadence, last, now)
    if decision.verdict is Verdict.NOTHING_DUE:
        assert owed == 0
        assert decision.nominal_at is None
        assert decision.next_fire_at == first_after(cadence, now)
        return
    nominal = decision.nominal_at
    assert nominal is not None
    assert last < nominal <= now
    assert decision.next_fire_at == first_after(cadence, nominal)
    assert decision.next_fire_at is None or decision.next_fire_at > now
    assert (decision.verdict is Verdict.FIRE) == (now - nominal <= grace)
    coalesced = decision.coalesced
    if owed == 1:
        assert coalesced is None
    else:
        assert coalesced is not None
        assert coalesced.count == owed - 1
        assert last < coalesced.first_nominal_at <= coalesced.last_nominal_at < nominal
        assert first_after(cadence, coalesced.last_nominal_at) == nominal
    assert decision.completes == (decision.next_fire_at is None)


def _transitions_in(zone: ZoneInfo, year: int) -> list[int]:
    """POSIX seconds of the zone's offset changes in ``year``, found day by day."""
    found: list[int] = []
    day = datetime(year, 1, 1, tzinfo=UTC)
    while day.year == year:
        following = day + timedelta(days=1)
        if day.astimezone(zone).utcoffset() != following.astimezone(zone).utcoffset():
            found.append(transition_between(zone, int(day.timestamp()), int(following.timestamp())))
        day = following
    return found


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(ZONES), st.integers(1975, 2035), st.floats(0.0, 0.999))
def test_one_firing_per_civil_date_through_both_folds_and_gaps(
    key: str, year: int, position: float
) -> None:
    zone = ZoneInfo(key)
    for moment in _transitions_in(zone, year):
        before = datetime.fromtimestamp(moment - 1, zone).utcoffset()
        after = datetime.fromtimestamp(moment, zone).utcoffset()
        assert before is not None and after is not None
        jump = after - before
        # A wall time inside the repeated (fall-back) or skipped (spring-forward) interval.
        edge = datetime.fromtimestamp(moment, zone).replace(tzinfo=None)
        offset_into = timedelta(seconds=int(abs(jump).total_seconds() * position))
        wall = (edge + offset_into) if jump < timedelta(0) else (edge - jump + offset_into)
        cadence = Daily(time(wall.hour, wall.minute, wall.second), key)
        day_start = datetime.combine(wall.date(), time(), tzinfo=zone) - timedelta(days=1)
        firings = [f for f in _chain(cadence, day_start, 4)]
        walls = [_wall(f, zone) for f in firings]
        assert len(set(walls)) == len(walls)
        assert sum(1 for w in walls if w == wall) <= 1
        if jump < timedelta(0):
            # Ambiguous: the earlier of the two instants, exactly once.
            earlier = datetime.combine(wall.date(), wall.time(), tzinfo=zone)
            assert earlier.astimezone(UTC) in firings
            later = earlier.replace(fold=1).astimezone(UTC)
            assert later == earlier.astimezone(UTC) or later not in firings


def _chain(cadence: Cadence, start: datetime, length: int) -> list[datetime]:
    found: list[datetime] = []
    cursor = first_after(cadence, start)
    while cursor is not None and len(found) < length:
        found.append(cursor)
        cursor = first_after(cadence, cursor)
    return found


@FAST
@given(recurring, st.dates(min_value=date(1970, 1, 1), max_value=date(2080, 1, 1)))
def test_results_are_whole_seconds_in_utc(cadence: Cadence, day: date) -> None:
    t = datetime.combine(day, time(), tzinfo=UTC)
    for found in _chain(cadence, t, 3):
        assert found.microsecond == 0
        assert found.utcoffset() == timedelta(0)
