"""A scheduler over a real database: the service, workers, the dispatcher, and what they wrote.

Tests drive the real pieces (``ScheduleService`` to create and change
schedules, ``ScheduleWorker.run_once`` to scan, ``RunDispatcher.dispatch_once``
to carry out and end runs)
at instants they choose, then read the rows back. Principals come from a
``TokenDirectory``, the identity store ``schedule-server serve`` loads from its
principals file; a test that changes a principal swaps the directory, as a
restart with an edited file would.
"""

from __future__ import annotations

import asyncio
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
    RunLease,
    ScheduleRecord,
    ScheduleView,
)
from server.storage.sql.store import SqlStore
from server.worker.embedded_executor import EmbeddedExecutor
from server.worker.executor import RunResult
from server.worker.run_dispatch import DEFAULT_RUN_LEASE, RunDispatcher
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


class Answering:
    """An executor that answers every run with one result and remembers which it carried out."""

    def __init__(self, result: RunResult) -> None:
        self.result = result
        self.carried: list[UUID] = []

    async def execute(self, run: ClaimedRun) -> RunResult:
        self.carried.append(run.run_id)
        return self.result


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

    def dispatch_once(self) -> int:
        """One pass of the scene's dispatcher, as a live server makes it; how many runs ended."""
        return asyncio.run(self.dispatcher().dispatch_once())

    def settle_queued(self, result: RunResult | None = None, *, expired: int = 0) -> list[UUID]:
        """``carry_out_queued`` for a test that runs no event loop of its own."""
        return asyncio.run(self.carry_out_queued(result, expired=expired))

    async def carry_out_queued(
        self, result: RunResult | None = None, *, expired: int = 0
    ) -> list[UUID]:
        """Carry out every eligible QUEUED run through the real ``dispatch_once``, each
        answered ``result`` (default: completed); the ids of the runs, in the order taken.

        ``dispatch_once`` first fails the active runs past their deadline: there
        must be ``expired`` of them (none unless a test says so, so a test
        carries out its runs before their deadline, as a live dispatcher would).
        """
        executor = Answering(result or RunResult.completed("Done."))
        dispatcher = RunDispatcher(self.store, executor, self.clock, batch_size=1000)
        ended = await dispatcher.dispatch_once()
        assert ended - len(executor.carried) == expired, "runs failed past their deadline"
        return executor.carried

    def start_queued(self) -> list[ClaimedRun]:
        """Move every eligible QUEUED run to RUNNING through the store, as ``dispatch_once``
        takes each, and no further.

        For a test that holds a taken run: one whose dispatcher then vanished,
        or one it settles itself.
        """
        now = self.clock()
        lease = RunLease("scene", now + DEFAULT_RUN_LEASE)
        taken = (self.store.runs.start(i, now, lease) for i in self.store.runs.queued(now, 1000))
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
