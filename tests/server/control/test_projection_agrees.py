"""The calendar shows what will run: the projection equals what the worker materializes.

For generated schedules in zones with every kind of civil-time oddity (30- and
60-minute shifts, a gap that runs to midnight, a skipped date, double changes),
windows placed around their clock changes, and a clock that advances by a
drawn step, the projection read when the schedule is created lists exactly the
instants that repeated ``run_once`` calls later record in the ledger; read
again part-way through, its ``past`` holds the part behind the clock and its
``firings`` the rest. The step stays under the shortest gap between two
firings of one rule (23.5 hours at Nuuk) and the grace covers a day, so every
nominal instant is recorded (fired or skipped as overlapping) and none is
coalesced away: the ledger is the worker's full list of instants.
"""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime, time, timedelta
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from server.control.projection import MAX_WINDOW, Projection
from server.domain.cadence import Cadence, Daily, MonthDay, Monthly, Once, Weekly, Yearly
from tests.server.api.conftest import Clock
from tests.server.domain.strategies import month_days
from tests.server.scene import ALICE, Scene, copy_store

CLOCK_CHANGES = (
    ("America/New_York", datetime(2026, 3, 8, tzinfo=UTC)),  # 02:00 -> 03:00
    ("America/New_York", datetime(2026, 11, 1, tzinfo=UTC)),  # 02:00 -> 01:00
    ("Europe/Paris", datetime(2027, 3, 28, tzinfo=UTC)),
    ("Europe/Paris", datetime(2026, 10, 25, tzinfo=UTC)),
    ("Europe/London", datetime(2026, 3, 29, tzinfo=UTC)),  # 01:00 -> 02:00
    ("Pacific/Apia", datetime(2011, 12, 29, tzinfo=UTC)),  # skips 30 December
    ("America/Nuuk", datetime(2026, 3, 28, tzinfo=UTC)),  # 23:00 -> 00:00 the next day
    ("Australia/Lord_Howe", datetime(2026, 10, 4, tzinfo=UTC)),  # 02:00 -> 02:30
    ("Australia/Lord_Howe", datetime(2026, 4, 5, tzinfo=UTC)),  # 02:00 -> 01:30
    ("Asia/Tehran", datetime(2021, 3, 21, tzinfo=UTC)),  # 00:00 -> 01:00
    ("Asia/Tehran", datetime(2021, 9, 21, tzinfo=UTC)),  # 00:00 -> 23:00 the day before
    ("America/Santiago", datetime(2026, 9, 6, tzinfo=UTC)),  # 00:00 -> 01:00
    ("Pacific/Chatham", datetime(2026, 9, 27, tzinfo=UTC)),  # 02:45 -> 03:45
    ("Antarctica/Troll", datetime(2026, 3, 29, tzinfo=UTC)),  # 01:00 -> 03:00
    ("Asia/Kolkata", datetime(2027, 2, 28, tzinfo=UTC)),  # no change: a common February
)
WALL_TIMES = (
    time(0, 30),
    time(1, 30),
    time(1, 45),
    time(2, 15),
    time(2, 30),
    time(2, 50),
    time(3, 0),
    time(23, 30),
)
LONGEST_STEP = timedelta(hours=12)

walls = st.one_of(st.sampled_from(WALL_TIMES), st.builds(time, st.integers(0, 23)))


@st.composite
def rules(draw: st.DrawFn, zone: str, window_start: datetime) -> Cadence:
    wall = draw(walls)
    kind = draw(st.sampled_from(("DAILY", "WEEKLY", "MONTHLY", "YEARLY", "ONCE")))
    if kind == "DAILY":
        return Daily(wall, zone)
    if kind == "WEEKLY":
        return Weekly(wall, tuple(draw(st.sets(st.integers(1, 7), min_size=1))), zone)
    if kind == "MONTHLY":
        days = draw(st.sets(st.integers(1, 31), max_size=5))
        return Monthly(wall, tuple(days), draw(st.booleans()) or not days, zone)
    if kind == "YEARLY":
        around = window_start + timedelta(days=draw(st.integers(0, 60)))
        near = MonthDay(around.month, around.day)
        others = draw(st.sets(month_days, max_size=2)) - {near}
        return Yearly(wall, (near, *others), zone)
    offset = draw(st.integers(1, 90 * 86_400))
    return Once(window_start + timedelta(seconds=offset))


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[Cadence, datetime, datetime, datetime, timedelta]:
    zone, change = draw(st.sampled_from(CLOCK_CHANGES))
    lead = timedelta(days=draw(st.integers(0, 40)), hours=draw(st.integers(0, 23)))
    start = change - lead
    # Mostly windows that hold the change, sometimes ones that stop short of it.
    shortest = draw(st.sampled_from((lead + timedelta(days=2), timedelta(days=1))))
    end = start + draw(st.timedeltas(min(shortest, MAX_WINDOW), MAX_WINDOW))
    created = start - draw(st.timedeltas(timedelta(0), timedelta(days=5)))
    step = draw(st.timedeltas(timedelta(minutes=50), LONGEST_STEP))
    cadence = draw(rules(zone, start))
    return cadence, created.replace(microsecond=0), start, end, step


@settings(max_examples=40, deadline=None)
@given(scenarios())
def test_the_projection_lists_exactly_what_the_worker_materializes(
    template: Path, scenario: tuple[Cadence, datetime, datetime, datetime, timedelta]
) -> None:
    cadence, created, start, end, step = scenario
    with tempfile.TemporaryDirectory() as folder:
        store = copy_store(template, Path(folder))
        try:
            clock = Clock()
            clock.now = created
            scene = Scene(store, clock)
            if isinstance(cadence, Once) and cadence.at <= created:
                return
            schedule_id = scene.create(
                cadence=cadence.to_payload(), misfire_grace_seconds=86_400
            ).schedule.schedule_id

            def read() -> Projection:
                return scene.service.project(ALICE, schedule_id, start, end)

            foreseen = read()
            assert foreseen.past == ()
            promised = [firing.at for firing in foreseen.firings]
            worker = scene.worker()
            middle = start + (end - start) / 2
            halfway: Projection | None = None
            while clock.now < end:
                clock.now = min(clock.now + step, end)
                if halfway is None and clock.now >= middle:
                    clock.now = middle
                    worker.run_once(clock.now)
                    halfway = read()
                    continue
                worker.run_once(clock.now)
            recorded = [o.nominal_fire_at for o in scene.ledger(schedule_id)]
            in_window = [at for at in recorded if start <= at < end]

            assert in_window == promised
            assert halfway is not None
            behind = [o.occurrence.nominal_fire_at for o in halfway.past]
            ahead = [firing.at for firing in halfway.firings]
            assert behind == [at for at in promised if at <= middle]
            assert ahead == [at for at in promised if at > middle]
        finally:
            store.close()
