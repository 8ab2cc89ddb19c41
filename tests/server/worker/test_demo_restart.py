"""Demo data across a restart: schedules due while the app was closed follow the misfire rules."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from uuid import UUID

from server.embedded import open_embedded
from server.storage.records import OccurrenceRecord
from server.worker.worker import ScheduleWorker
from tests.server.api.conftest import NOW


def test_a_restart_days_later_gives_each_due_demo_schedule_one_occurrence_at_most(
    tmp_path: Path,
) -> None:
    database = tmp_path / "app.db"
    open_embedded(database, demo=True, clock=lambda: NOW).close()
    later = NOW + timedelta(days=3, hours=5)
    server = open_embedded(database, demo=True, clock=lambda: later)
    try:
        store, owner = server.store, server.identity.principal.owner

        def decided_now(schedule_id: UUID) -> list[OccurrenceRecord]:
            ledger = store.occurrences.page(owner, schedule_id, None, 100)
            return [o for o in ledger if o.created_at == later]

        every = [
            v.schedule.schedule_id for v in store.schedules.page(owner, frozenset(), None, 100)
        ]
        due = store.schedules.due(later, 1000)
        assert due, "the demo has schedules that came due while the app was closed"
        worker = ScheduleWorker(store, server.identity)
        while worker.run_once(later).full:
            pass

        assert store.schedules.due(later, 1000) == []
        assert all(len(decided_now(i)) == 1 for i in due), "one each, never a replay"
        assert not any(decided_now(i) for i in set(every) - set(due))
        for schedule_id in due:
            view = store.schedules.get(owner, schedule_id)
            assert view is not None
            upcoming = view.schedule.next_fire_at
            assert upcoming is None or upcoming > later
        coalesced = [
            event
            for schedule_id in due
            for event in store.audit.for_schedule(schedule_id)
            if event.event_type == "schedule.misfires_coalesced"
        ]
        assert coalesced, "older missed instants are recorded, coalesced"
    finally:
        server.close()
