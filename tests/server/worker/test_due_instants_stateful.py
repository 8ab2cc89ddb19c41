"""Every instant that came due while a schedule was ACTIVE is decided once, on each database.

A hypothesis state machine interleaves creates, updates (the cadence moved),
pauses, resumes, cancels, worker passes, runs ending and the clock stepping
forward, on up to four schedules. Creates and changes go through the
``ScheduleService``; no worker runs between them unless a step says so (as on
a ``--no-worker`` replica), so a change often finds its schedule due. The
model knows only the timeline: which instants of which cadence came due while
each schedule was ACTIVE, and the revision current at each. After every step:

- every such instant that the schedule has moved past (before its
  ``next_fire_at``, or any once it is no longer ACTIVE) is in the ledger
  exactly once with the revision current at it, or is counted in a
  ``schedule.misfires_coalesced`` record, never both;
- the ledger holds no other instant (nothing decided while paused, nothing of
  a cadence replaced before it came due), and nothing fired early;
- no ACTIVE schedule lacks a ``next_fire_at``.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, ClassVar
from uuid import UUID

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from sqlalchemy import text

from server.definitions.errors import InvalidDefinition, ScheduleTerminal
from server.domain.cadence import Cadence, Once, parse_cadence
from server.domain.recurrence import instants_after
from server.storage.jsontext import load_object
from server.storage.sql.store import SqlStore
from server.storage.tables import metadata
from tests.server.api.conftest import Clock
from tests.server.scene import ALICE, Scene

GRACE = timedelta(minutes=45)
MOST_SCHEDULES = 4
DAILY_TIMES = ("09:20:00", "10:00:00", "13:30:00")


def _cadence_json(kind: str, at: datetime, local_time: str) -> dict[str, Any]:
    if kind == "ONCE":
        return {"kind": "ONCE", "at": at.strftime("%Y-%m-%dT%H:%M:%SZ")}
    return {"kind": "DAILY", "local_time": local_time, "timezone": "UTC"}


@dataclass
class Modelled:
    """One schedule's timeline as the steps so far made it."""

    schedule_id: UUID
    cadence: Cadence
    state: str = "ACTIVE"
    revision: int = 1
    owed_after: datetime | None = None
    """Instants strictly after this came due while ACTIVE (None: not ACTIVE)."""
    owed: dict[datetime, int] = field(default_factory=dict)
    """Every instant that came due while ACTIVE, with the revision current at it."""

    def come_due(self, until: datetime) -> None:
        if self.state != "ACTIVE" or self.owed_after is None:
            return
        for instant in instants_after(self.cadence, self.owed_after):
            if instant > until:
                break
            self.owed[instant] = self.revision
        self.owed_after = until

    @property
    def once_decided_on_touch(self) -> bool:
        """A ONCE whose instant came due: the next worker pass or change completes it."""
        cadence = self.cadence
        return self.state == "ACTIVE" and isinstance(cadence, Once) and cadence.at in self.owed


class DueInstants(RuleBasedStateMachine):
    open_store: ClassVar[Any]

    def __init__(self) -> None:
        super().__init__()
        self.store: SqlStore = DueInstants.open_store()
        self.clock = Clock()
        self.scene = Scene(self.store, self.clock)
        self.schedules: list[Modelled] = []

    def teardown(self) -> None:
        self.store.close()

    # -- the timeline ------------------------------------------------------------------------

    @rule(minutes=st.sampled_from([1, 7, 20, 50, 61, 180, 600, 1440, 1500]))
    def clock_steps(self, minutes: int) -> None:
        self.clock.advance(minutes=minutes)
        for schedule in self.schedules:
            schedule.come_due(self.clock())

    @rule()
    def worker_pass(self) -> None:
        self.scene.scan()
        for schedule in self.schedules:
            if schedule.once_decided_on_touch:
                self._completed(schedule)

    @rule()
    def runs_end(self) -> None:
        self.scene.dispatch_once()  # each queued run starts and completes

    # -- the control plane -------------------------------------------------------------------

    @precondition(lambda self: len(self.schedules) < MOST_SCHEDULES)
    @rule(
        kind=st.sampled_from(["ONCE", "DAILY"]),
        in_minutes=st.integers(1, 600),
        local_time=st.sampled_from(DAILY_TIMES),
    )
    def create(self, kind: str, in_minutes: int, local_time: str) -> None:
        cadence = _cadence_json(kind, self.clock() + timedelta(minutes=in_minutes), local_time)
        view = self.scene.create(
            cadence=cadence,
            misfire_grace_seconds=int(GRACE.total_seconds()),
            max_consecutive_failures=100,
        )
        self.schedules.append(
            Modelled(view.schedule.schedule_id, parse_cadence(cadence), owed_after=self.clock())
        )

    @precondition(lambda self: bool(self.schedules))
    @rule(
        which=st.integers(0, MOST_SCHEDULES - 1),
        kind=st.sampled_from(["ONCE", "DAILY"]),
        in_minutes=st.integers(1, 600),
        local_time=st.sampled_from(DAILY_TIMES),
    )
    def update(self, which: int, kind: str, in_minutes: int, local_time: str) -> None:
        schedule = self._touched(which)
        cadence = _cadence_json(kind, self.clock() + timedelta(minutes=in_minutes), local_time)
        current = self.store.schedules.get(ALICE.owner, schedule.schedule_id)
        assert current is not None
        definition = {**load_object(current.revision.definition), "cadence": cadence}
        if schedule.state in ("COMPLETED", "CANCELLED"):
            with pytest.raises(ScheduleTerminal):
                self.scene.service.update(
                    ALICE, schedule.schedule_id, schedule.revision, definition
                )
            return
        updated = self.scene.service.update(
            ALICE, schedule.schedule_id, schedule.revision, definition
        )
        if updated.schedule.current_revision == schedule.revision:
            return  # the same definition: nothing written
        schedule.revision += 1
        schedule.cadence = parse_cadence(cadence)
        if schedule.state == "ACTIVE":
            schedule.owed_after = self.clock()

    @precondition(lambda self: bool(self.schedules))
    @rule(which=st.integers(0, MOST_SCHEDULES - 1))
    def pause(self, which: int) -> None:
        schedule = self._touched(which)
        if schedule.state in ("COMPLETED", "CANCELLED"):
            with pytest.raises(ScheduleTerminal):
                self.scene.service.pause(ALICE, schedule.schedule_id, schedule.revision)
            return
        self.scene.service.pause(ALICE, schedule.schedule_id, schedule.revision)
        schedule.state, schedule.owed_after = "PAUSED", None

    @precondition(lambda self: bool(self.schedules))
    @rule(which=st.integers(0, MOST_SCHEDULES - 1))
    def resume(self, which: int) -> None:
        schedule = self._touched(which)
        if schedule.state in ("COMPLETED", "CANCELLED"):
            with pytest.raises(ScheduleTerminal):
                self.scene.service.resume(ALICE, schedule.schedule_id, schedule.revision)
            return
        if schedule.state == "PAUSED" and not any(instants_after(schedule.cadence, self.clock())):
            with pytest.raises(InvalidDefinition):  # a ONCE whose instant passed while paused
                self.scene.service.resume(ALICE, schedule.schedule_id, schedule.revision)
            return
        self.scene.service.resume(ALICE, schedule.schedule_id, schedule.revision)
        if schedule.state == "PAUSED":
            schedule.state, schedule.owed_after = "ACTIVE", self.clock()

    @precondition(lambda self: bool(self.schedules))
    @rule(which=st.integers(0, MOST_SCHEDULES - 1))
    def cancel(self, which: int) -> None:
        schedule = self._touched(which)
        if schedule.state == "COMPLETED":
            with pytest.raises(ScheduleTerminal):
                self.scene.service.cancel(ALICE, schedule.schedule_id, schedule.revision)
            return
        self.scene.service.cancel(ALICE, schedule.schedule_id, schedule.revision)
        schedule.state, schedule.owed_after = "CANCELLED", None

    def _touched(self, which: int) -> Modelled:
        """The schedule a change is about to hold: a decided ONCE completes first."""
        schedule = self.schedules[which % len(self.schedules)]
        if schedule.once_decided_on_touch:
            self._completed(schedule)
        return schedule

    @staticmethod
    def _completed(schedule: Modelled) -> None:
        schedule.state, schedule.owed_after = "COMPLETED", None

    # -- invariants --------------------------------------------------------------------------

    @invariant()
    def every_due_instant_is_decided_once_with_its_revision_and_none_early(self) -> None:
        for schedule in self.schedules:
            record = self.scene.schedule(schedule.schedule_id)
            assert record.state == schedule.state
            ledger = self.scene.ledger(schedule.schedule_id)
            nominal = [o.nominal_fire_at for o in ledger]
            assert len(nominal) == len(set(nominal))
            for occurrence in ledger:
                assert occurrence.nominal_fire_at in schedule.owed, "decided an instant not owed"
                assert occurrence.schedule_revision == schedule.owed[occurrence.nominal_fire_at]
                assert occurrence.created_at >= occurrence.nominal_fire_at, "fired early"
            coalesced = self._coalesced(schedule)
            assert not coalesced & set(nominal)
            moved_past = [
                instant
                for instant in schedule.owed
                if record.state != "ACTIVE"
                or (record.next_fire_at is not None and instant < record.next_fire_at)
            ]
            for instant in moved_past:
                assert instant in nominal or instant in coalesced, f"{instant} was erased"

    @invariant()
    def no_active_schedule_lacks_a_next_firing(self) -> None:
        with self.store.engine.connect() as connection:
            lacking = connection.execute(
                text(
                    "SELECT count(*) FROM schedules WHERE state = 'ACTIVE' AND next_fire_at IS NULL"
                )
            ).scalar_one()
        assert lacking == 0

    def _coalesced(self, schedule: Modelled) -> set[datetime]:
        """The owed instants that ``schedule.misfires_coalesced`` records stand for."""
        found: set[datetime] = set()
        for event in self.scene.events(schedule.schedule_id, "schedule.misfires_coalesced"):
            first = datetime.fromisoformat(str(event.payload["first_nominal_at"]))
            last = datetime.fromisoformat(str(event.payload["last_nominal_at"]))
            covered = {i for i in schedule.owed if first <= i <= last}
            assert len(covered) == event.payload["count"]
            found |= covered
        return found


@pytest.fixture
def fresh_stores(database_url: str, tmp_path: Path) -> Iterator[Any]:
    """A callable opening a clean store per example: a copied SQLite file, or emptied tables."""
    if database_url.startswith("sqlite"):
        template = tmp_path / "template.db"
        SqlStore.open(f"sqlite:///{template}").close()
        folder = tempfile.TemporaryDirectory()

        def copied() -> SqlStore:
            path = Path(folder.name) / "example.db"
            shutil.copyfile(template, path)
            return SqlStore.open(f"sqlite:///{path}")

        yield copied
        folder.cleanup()
        return

    def emptied() -> SqlStore:
        store = SqlStore.open(database_url)
        with store.engine.begin() as connection:
            for table in reversed(metadata.sorted_tables):
                connection.execute(table.delete())
        return store

    yield emptied


def test_every_due_instant_is_decided_exactly_once_through_edits_and_worker_passes(
    fresh_stores: Any,
) -> None:
    DueInstants.open_store = fresh_stores
    run_state_machine_as_test(
        DueInstants,
        settings=settings(
            max_examples=15,
            stateful_step_count=30,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
