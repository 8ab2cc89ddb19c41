"""gate.schedule.lifecycle_linear: interleaved lifecycle changes and scans act in a serial order.

A hypothesis state machine interleaves update, pause, resume and cancel (each
with the current or a stale expected revision), worker scans, run endings
(through the real dispatcher, which first fails a run past its deadline) and
the passing of time; a change may be raced by a scan that commits just
before it. Every change first decides the instant that is due, if any, as a
scan would (whatever becomes of the change), then applies. After every step
the stored schedule and its ledger must equal what the one allowed serial
order gives (the model), a stale revision must change nothing beyond that
due instant, a cancelled schedule must never reopen or fire, and no
occurrence may fall in time spent paused.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from server.definitions.errors import RevisionConflict, ScheduleTerminal
from server.domain.cadence import Daily, parse_cadence
from server.domain.recurrence import first_after, latest_at_or_before
from server.storage.jsontext import load_object
from server.storage.records import ScheduleRecord
from server.storage.sql.store import SqlStore
from server.worker.executor import RunResult
from tests.server.api.conftest import Clock
from tests.server.scene import ALICE, Scene, copy_store

GRACE = timedelta(hours=3)
RUN_TIMEOUT = timedelta(hours=2)
FAILURE_LIMIT = 3
TIMES = ("09:00:00", "21:00:00")


def _cadence(local_time: str) -> dict[str, Any]:
    return {"kind": "DAILY", "local_time": local_time, "timezone": "UTC"}


@dataclass
class Model:
    """The schedule as the serial order of the steps so far leaves it."""

    state: str
    revision: int
    next_fire_at: datetime | None
    local_time: str
    failures: int = 0
    pause_reason: str | None = None
    run_deadline: datetime | None = None
    """The deadline of the run in flight (None: no run in flight)."""
    ledger: list[tuple[datetime, str]] = field(default_factory=list)

    @property
    def cadence(self) -> Daily:
        parsed = parse_cadence(_cadence(self.local_time))
        assert isinstance(parsed, Daily)
        return parsed

    def count_failure(self) -> None:
        self.failures += 1
        if self.state == "ACTIVE" and self.failures >= FAILURE_LIMIT:
            self.state, self.pause_reason, self.next_fire_at = "PAUSED", "failure_limit", None

    def scan(self, now: datetime) -> None:
        if self.state != "ACTIVE" or self.next_fire_at is None or self.next_fire_at > now:
            return
        latest = latest_at_or_before(self.cadence, now)
        assert latest is not None and latest >= self.next_fire_at
        self.next_fire_at = first_after(self.cadence, now)
        if now - latest > GRACE:
            self.ledger.append((latest, "MISSED"))
            self.count_failure()
        elif self.run_in_flight:
            self.ledger.append((latest, "SKIPPED_OVERLAP"))
        else:
            self.ledger.append((latest, "MATERIALIZED"))
            self.run_deadline = now + RUN_TIMEOUT

    @property
    def run_in_flight(self) -> bool:
        return self.run_deadline is not None

    def run_overdue(self, now: datetime) -> bool:
        """Never here: a run's time limit counts from its start, and ``runs_end`` starts
        and ends the queued run at one instant (waiting QUEUED never fails a run)."""
        return False

    def end_run(self, succeeded: bool, now: datetime) -> None:
        if self.run_deadline is None:
            return
        overdue = self.run_overdue(now)
        self.run_deadline = None
        if succeeded and not overdue:
            self.failures = 0
        else:
            self.count_failure()


def _copy(model: Model) -> Model:
    return replace(model, ledger=list(model.ledger))


class LifecycleMachine(RuleBasedStateMachine):
    template: ClassVar[Path]

    def __init__(self) -> None:
        super().__init__()
        self._folder = tempfile.TemporaryDirectory()
        self.store: SqlStore = copy_store(self.template, Path(self._folder.name))
        self.clock = Clock()
        self.scene = Scene(self.store, self.clock)
        view = self.scene.create(
            cadence=_cadence(TIMES[0]),
            misfire_grace_seconds=int(GRACE.total_seconds()),
            max_consecutive_failures=FAILURE_LIMIT,
            run_timeout_seconds=int(RUN_TIMEOUT.total_seconds()),
        )
        self.schedule_id = view.schedule.schedule_id
        self.model = Model("ACTIVE", 1, view.schedule.next_fire_at, TIMES[0])
        self.paused_since: datetime | None = None
        self.paused_spans: list[tuple[datetime, datetime]] = []

    def teardown(self) -> None:
        self.store.close()
        self._folder.cleanup()

    # -- time, scans and runs -------------------------------------------------------------

    @rule(hours=st.integers(0, 40), minutes=st.sampled_from([0, 1, 30]))
    def time_passes(self, hours: int, minutes: int) -> None:
        self.clock.advance(hours=hours, minutes=minutes)

    @rule()
    def scan(self) -> None:
        self.scene.scan()
        self.model.scan(self.clock())

    @rule(succeeded=st.booleans())
    def runs_end(self, succeeded: bool) -> None:
        result = RunResult.completed("ok") if succeeded else RunResult.failed("x", "X")
        self.scene.settle_queued(result, expired=int(self.model.run_overdue(self.clock())))
        self.model.end_run(succeeded, self.clock())

    # -- lifecycle changes ---------------------------------------------------------------

    @rule(stale=st.booleans(), raced=st.booleans())
    def pause(self, stale: bool, raced: bool) -> None:
        def serial(model: Model) -> None:
            if model.state == "PAUSED":
                return
            self._refuse_terminal(model)
            model.state, model.pause_reason, model.next_fire_at = "PAUSED", "user", None

        self._change(
            stale, raced, serial, lambda e: self.scene.service.pause(ALICE, self.schedule_id, e)
        )

    @rule(stale=st.booleans(), raced=st.booleans())
    def resume(self, stale: bool, raced: bool) -> None:
        def serial(model: Model) -> None:
            if model.state == "ACTIVE":
                return
            self._refuse_terminal(model)
            model.state, model.pause_reason, model.failures = "ACTIVE", None, 0
            model.next_fire_at = first_after(model.cadence, self.clock())

        self._change(
            stale, raced, serial, lambda e: self.scene.service.resume(ALICE, self.schedule_id, e)
        )

    @rule(stale=st.booleans(), raced=st.booleans())
    def cancel(self, stale: bool, raced: bool) -> None:
        def serial(model: Model) -> None:
            if model.state == "CANCELLED":
                return
            self._refuse_terminal(model)
            model.state, model.pause_reason, model.next_fire_at = "CANCELLED", None, None

        self._change(
            stale, raced, serial, lambda e: self.scene.service.cancel(ALICE, self.schedule_id, e)
        )

    @rule(stale=st.booleans(), raced=st.booleans())
    def update(self, stale: bool, raced: bool) -> None:
        toggled = TIMES[1] if self.model.local_time == TIMES[0] else TIMES[0]

        def serial(model: Model) -> None:
            self._refuse_terminal(model)
            model.revision += 1
            model.local_time = toggled
            if model.state == "ACTIVE":
                model.next_fire_at = first_after(model.cadence, self.clock())

        def call(expected: int) -> object:
            current = self.store.schedules.get(ALICE.owner, self.schedule_id)
            assert current is not None
            definition = load_object(current.revision.definition)
            definition["cadence"] = _cadence(toggled)
            return self.scene.service.update(ALICE, self.schedule_id, expected, definition)

        self._change(stale, raced, serial, call)

    # -- the serial order ----------------------------------------------------------------

    def _refuse_terminal(self, model: Model) -> None:
        if model.state in ("COMPLETED", "CANCELLED"):
            raise ScheduleTerminal(model.state)

    def _change(
        self,
        stale: bool,
        race: bool,
        serial: Callable[[Model], None],
        call: Callable[[int], object],
    ) -> None:
        if race:
            # A worker's scan commits just before the change holds the row.
            self.scene.scan()
            self.model.scan(self.clock())
        current = self.model.revision
        expected = (current - 1 or current + 1) if stale else current
        settled = _copy(self.model)
        settled.scan(self.clock())  # the change decides the due instant first
        planned = _copy(settled)
        try:
            if stale:
                raise RevisionConflict(current)
            serial(planned)
        except (RevisionConflict, ScheduleTerminal) as refusal:
            with pytest.raises(type(refusal)):
                call(expected)
            self._note_pauses(self.model.state, settled.state)
            self.model = settled
            return
        call(expected)
        self._note_pauses(self.model.state, planned.state)
        self.model = planned

    def _note_pauses(self, before: str, after: str) -> None:
        if before == "ACTIVE" and after == "PAUSED":
            self.paused_since = self.clock()
        if before == "PAUSED" and after == "ACTIVE" and self.paused_since is not None:
            self.paused_spans.append((self.paused_since, self.clock()))
            self.paused_since = None

    def _stored(self) -> tuple[ScheduleRecord, list[tuple[datetime, str]]]:
        ledger = [(o.nominal_fire_at, o.disposition) for o in self.scene.ledger(self.schedule_id)]
        return self.scene.schedule(self.schedule_id), ledger

    # -- invariants ----------------------------------------------------------------------

    @invariant()
    def stored_schedule_equals_the_serial_order(self) -> None:
        record, ledger = self._stored()
        model = self.model
        assert (
            record.state,
            record.pause_reason,
            record.current_revision,
            record.next_fire_at,
            record.consecutive_failures,
        ) == (model.state, model.pause_reason, model.revision, model.next_fire_at, model.failures)
        assert ledger == model.ledger

    @invariant()
    def a_cancelled_schedule_never_reopens_or_fires(self) -> None:
        events = self.scene.events(self.schedule_id)
        cancelled = [i for i, e in enumerate(events) if e.event_type == "schedule.cancelled"]
        if cancelled:
            after = events[cancelled[0] + 1 :]
            assert self.scene.schedule(self.schedule_id).state == "CANCELLED"
            assert not [e for e in after if e.event_type.startswith("schedule.occurrence.")]

    @invariant()
    def paused_time_is_never_backfilled(self) -> None:
        for nominal, _ in self.model.ledger:
            assert not any(start < nominal <= end for start, end in self.paused_spans)


def test_lifecycle_races_are_linearized(template: Path) -> None:
    LifecycleMachine.template = template
    run_state_machine_as_test(
        LifecycleMachine,
        settings=settings(max_examples=25, stateful_step_count=25, deadline=None),
    )
