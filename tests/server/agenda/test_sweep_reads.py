"""What one agenda page reads and computes: a band's cadences once each, a short rest in one band.

The sweep asks the calculator once per distinct cadence in a band, however
many schedules share it, and cuts each schedule's firings at its own
creation; the rest of a window that a few bands would reach is read as one
band. Counted through a wrapper of the store's agenda rows and of the
sweep's calculator.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import pytest

from server.agenda import sweep
from server.agenda.sweep import agenda_page
from server.definitions.checks import parse_definition
from server.domain.cadence import Cadence
from server.domain.projection import ProjectedFiring, firings_between
from server.storage.agenda_port import (
    AgendaFilter,
    AgendaRows,
    BandSchedules,
    Candidate,
    Herd,
    Recorded,
    WallRange,
)
from server.storage.records import Owner, RevisionRecord, ScheduleRecord, ScheduleView
from server.storage.sql.store import SqlStore
from tests.server.api.conftest import definition

pytestmark = pytest.mark.each_backend

ALICE = Owner("acme", "alice")
START = datetime(2027, 3, 1, tzinfo=UTC)
NOW = START - timedelta(days=1)
CREATED = START - timedelta(days=30)
DAILY_NINE = {"kind": "DAILY", "local_time": "09:00", "timezone": "UTC"}


class CountedRows:
    """The store's agenda rows, counting the bands' candidate reads and those that found any."""

    def __init__(self, rows: AgendaRows) -> None:
        self._rows = rows
        self.candidate_reads = 0
        self.reads_found = 0

    @contextmanager
    def reading(self) -> Iterator[CountedRows]:
        with self._rows.reading() as held:
            outside, self._rows = self._rows, held
            try:
                yield self
            finally:
                self._rows = outside

    def zones(self, owner: Owner, states: Collection[str]) -> list[tuple[str, str]]:
        return self._rows.zones(owner, states)

    def band_schedules(
        self, owner: Owner, ranges: Sequence[WallRange], start: datetime, where: AgendaFilter
    ) -> BandSchedules:
        self.candidate_reads += 1
        found = self._rows.band_schedules(owner, ranges, start, where)
        self.reads_found += bool(found.herds or found.candidates)
        return found

    def members(
        self,
        owner: Owner,
        herds: Sequence[Herd],
        where: AgendaFilter,
        *,
        after: UUID | None = None,
        limit: int | None = None,
    ) -> list[list[Candidate]]:
        return self._rows.members(owner, herds, where, after=after, limit=limit)

    def recorded(
        self, owner: Owner, start: datetime, end: datetime, where: AgendaFilter
    ) -> list[Recorded]:
        return self._rows.recorded(owner, start, end, where)

    def definitions(self, revisions: Collection[tuple[UUID, int]]) -> dict[tuple[UUID, int], str]:
        return self._rows.definitions(revisions)


def _import(store: SqlStore, cadence: dict[str, Any], created: list[datetime]) -> list[UUID]:
    views = []
    for number, made in enumerate(created, start=1):
        checked = parse_definition(definition(cadence=cadence))
        schedule_id = UUID(int=number)
        record = ScheduleRecord(schedule_id, ALICE, "ACTIVE", None, 1, None, 0, made, made)
        views.append(ScheduleView(record, RevisionRecord(schedule_id, 1, checked.text, "a", made)))
    store.schedules.import_many(views)
    return [view.schedule.schedule_id for view in views]


def test_schedules_sharing_a_cadence_are_computed_once_a_band_each_from_its_creation(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    late = START + timedelta(days=2, hours=10)
    first, second, third = _import(store, DAILY_NINE, [CREATED, CREATED, late])
    calls: list[Cadence] = []

    def counted(cadence: Cadence, after: datetime, before: datetime) -> list[ProjectedFiring]:
        calls.append(cadence)
        return firings_between(cadence, after, before)

    monkeypatch.setattr(sweep, "firings_between", counted)
    rows = CountedRows(store.agenda)

    page = agenda_page(rows, ALICE, (START, START + timedelta(days=7)), NOW, limit=200)

    nines = [START + timedelta(days=day, hours=9) for day in range(7)]
    expected = sorted(
        [(at, first) for at in nines]
        + [(at, second) for at in nines]
        + [(at, third) for at in nines if at >= late]
    )
    assert [(item.at, item.schedule_id) for item in page.items] == expected
    assert len(calls) == rows.reads_found


def test_the_rest_of_a_window_a_few_bands_would_reach_is_one_band(store: SqlStore) -> None:
    (schedule_id,) = _import(store, DAILY_NINE, [CREATED])
    rows = CountedRows(store.agenda)
    window = (START + timedelta(hours=8, minutes=30), START + timedelta(hours=9, minutes=30))

    page = agenda_page(rows, ALICE, window, NOW, limit=100)

    assert [(item.at, item.schedule_id) for item in page.items] == [
        (START + timedelta(hours=9), schedule_id)
    ]
    assert not page.more
    assert rows.candidate_reads == 1
