"""A scheduler over a real SQLite file: the service, workers, the dispatcher, and what they wrote.

Tests drive the real pieces (``ScheduleService`` to create and change
schedules, ``ScheduleWorker.run_once`` to scan, ``RunDispatcher`` to end runs)
at instants they choose, then read the rows back. Principals come from a
``TokenDirectory``, the identity store ``schedule-server serve`` loads from its
principals file; a test that changes a principal swaps the directory, as a
restart with an edited file would.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

from sqlalchemy import text

from server.control.service import ScheduleService
from server.identity import ALL_SCOPES, Principal, TokenDirectory, make_principal, token_digest
from server.storage.engine import open_engine
from server.storage.records import (
    AuditEvent,
    ClaimedRun,
    OccurrenceRecord,
    ScheduleRecord,
    ScheduleView,
)
from server.storage.sql.store import SqlStore
from server.worker.embedded_executor import EmbeddedExecutor
from server.worker.executor import RunResult
from server.worker.run_dispatch import RunDispatcher
from server.worker.worker import ScanReport, ScheduleWorker
from tests.clock import Clock
from tests.server.api.conftest import definition

TABLES = ("schedule_occurrences", "sessions", "session_messages", "runs")


def principal(
    name: str = "alice",
    *,
    tenant: str = "acme",
    scopes: Iterable[str] = ALL_SCOPES,
    enabled: bool = True,
) -> Principal:
    return make_principal(
        principal_id=name,
        tenant_id=tenant,
        display_name=name.title(),
        scopes=scopes,
        enabled=enabled,
    )


ALICE = principal()


def directory(*principals: Principal) -> TokenDirectory:
    return TokenDirectory((token_digest(f"token-{p.principal_id}"), p) for p in principals)


def copy_store(template: Path, folder: Path) -> SqlStore:
    """A store over a copy of an already migrated database (no migration run)."""
    path = folder / "copy.db"
    shutil.copyfile(template, path)
    return SqlStore(open_engine(f"sqlite:///{path}"))


class Scene:
    def __init__(self, store: SqlStore, clock: Clock, *principals: Principal) -> None:
        self.store = store
        self.clock = clock
        self.identity = directory(*(principals or (ALICE,)))
        self.service = ScheduleService(store, clock, identity=self.identity)

    def create(self, by: Principal = ALICE, **changes: Any) -> ScheduleView:
        return self.service.create(by, definition(**changes), str(uuid4()))

    def worker(self, **settings: Any) -> ScheduleWorker:
        return ScheduleWorker(self.store, self.identity, **settings)

    def scan(self, at: datetime | None = None) -> ScanReport:
        """One scan by a fresh worker at ``at`` (default: the clock)."""
        return self.worker().run_once(at or self.clock())

    def dispatcher(self) -> RunDispatcher:
        return RunDispatcher(self.store, EmbeddedExecutor(), self.clock)

    def settle_queued(self, result: RunResult | None = None) -> list[UUID]:
        """Take every eligible QUEUED run and end it with ``result`` (default: completed).

        Each is taken as ``dispatch_once`` takes it (the store's ``start``) and
        ended by the dispatcher's own ``settle``; unlike ``dispatch_once`` no
        overdue run is expired first, so a test may settle at any instant.
        """
        dispatcher = self.dispatcher()
        outcome = result or RunResult.completed("Done.")
        taken = self.start_queued()
        for run in taken:
            assert dispatcher.settle(run, outcome, self.clock())
        return [run.run_id for run in taken]

    def start_queued(self) -> list[ClaimedRun]:
        """Move every eligible QUEUED run to RUNNING through the store, as a dispatcher does.

        For a test that holds a taken run: one whose dispatcher then vanished,
        or one it settles itself.
        """
        now = self.clock()
        taken = (self.store.runs.start(i, now) for i in self.store.runs.queued(now, 1000))
        return [run for run in taken if run is not None]

    def schedule(self, schedule_id: UUID) -> ScheduleRecord:
        view = self.store.schedules.get(ALICE.owner, schedule_id)
        assert view is not None
        return view.schedule

    def ledger(self, schedule_id: UUID, owner: Principal = ALICE) -> list[OccurrenceRecord]:
        """Every occurrence of the schedule, oldest first."""
        page = self.store.occurrences.page(owner.owner, schedule_id, None, 1000)
        return page[::-1]

    def events(self, schedule_id: UUID, kind: str | None = None) -> list[AuditEvent]:
        every = self.store.audit.for_schedule(schedule_id)
        return [e for e in every if kind is None or e.event_type == kind]

    def count(self, table: str) -> int:
        with self.store.engine.connect() as connection:
            found: int = connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()
        return found

    def counts(self) -> dict[str, int]:
        return {table: self.count(table) for table in TABLES}
