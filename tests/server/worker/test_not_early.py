"""gate.schedule.not_early: no occurrence is ever materialized before its nominal instant."""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from server.domain.cadence import Cadence, Once
from tests.server.api.conftest import Clock
from tests.server.domain.strategies import recurring
from tests.server.scene import Scene, copy_store

BOUNDED = settings(max_examples=60, deadline=None)
TICK = timedelta(microseconds=1)

created_instants = st.datetimes(
    min_value=datetime(1971, 1, 1), max_value=datetime(2080, 1, 1), timezones=st.just(UTC)
).map(lambda t: t.replace(microsecond=0))
lateness = st.timedeltas(min_value=timedelta(0), max_value=timedelta(hours=23))
once_delays = st.timedeltas(min_value=timedelta(seconds=1), max_value=timedelta(days=400)).map(
    lambda d: timedelta(seconds=int(d.total_seconds()))
)


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[Cadence, datetime, list[timedelta]]:
    created = draw(created_instants)
    cadence = draw(st.one_of(recurring, once_delays.map(lambda d: Once(created + d))))
    return cadence, created, draw(st.lists(lateness, min_size=1, max_size=3))


@BOUNDED
@given(scenarios())
def test_no_occurrence_precedes_its_nominal_instant_and_a_scan_just_before_writes_nothing(
    template: Path, scenario: tuple[Cadence, datetime, list[timedelta]]
) -> None:
    cadence, created, delays = scenario
    with tempfile.TemporaryDirectory() as folder:
        store = copy_store(template, Path(folder))
        try:
            clock = Clock()
            clock.now = created
            scene = Scene(store, clock)
            schedule_id = scene.create(
                cadence=cadence.to_payload(), misfire_grace_seconds=86_400
            ).schedule.schedule_id
            for late in delays:
                due_at = scene.schedule(schedule_id).next_fire_at
                if due_at is None:
                    break  # a ONCE that completed
                before = (scene.counts(), scene.schedule(schedule_id))
                assert scene.scan(due_at - TICK).written == 0
                assert (scene.counts(), scene.schedule(schedule_id)) == before
                clock.now = due_at + late
                assert scene.scan().written == 1
                scene.settle_queued()
            ledger = scene.ledger(schedule_id)
            assert ledger, "the first owed instant fires within its grace"
            for occurrence in ledger:
                assert occurrence.nominal_fire_at <= occurrence.created_at
                assert occurrence.disposition == "MATERIALIZED"
                assert occurrence.materialized_at is not None
                assert occurrence.materialized_at >= occurrence.nominal_fire_at
        finally:
            store.close()
