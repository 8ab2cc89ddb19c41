"""Replicas on one PostgreSQL database take turns: the claim, admission, runs and the purge.

Each test opens two stores on one database, as two ``schedule-server``
processes would (two engines, two connection pools), holds one replica's turn
open (a plan that waits, or a lock the test takes), and checks what the
other replica does meanwhile: it skips, or it waits, as ``pg_locks`` shows;
nothing is timed. SQLite needs none of this (one writer at a time), and its
behaviour is the other scheduling tests'.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any
from uuid import UUID, uuid4

import pytest
from sqlalchemy import Connection, create_engine, select
from sqlalchemy.pool import NullPool

from server.firing.admission import Admission
from server.firing.plan import plan_occurrence
from server.identity import Principal
from server.storage.engine import open_engine
from server.storage.records import (
    DueSchedule,
    OccurrencePlan,
    RevisionRecord,
    RunLease,
    ScheduleRecord,
    ScheduleView,
)
from server.storage.sql.advisory_locks import RETENTION, hold
from server.storage.sql.store import SqlStore
from server.storage.tables import runs, schedules
from server.worker.executor import RunResult
from server.worker.retention import RETENTION as RETENTION_PERIOD
from server.worker.worker import ScheduleWorker
from tests.server.api.conftest import NOW, Clock
from tests.server.lock_waits import WITHIN_SECONDS, eventually, lock_waiters
from tests.server.scene import ALICE, Scene, principal

BOB = principal("bob")
FAILED = RunResult.failed("tool.browser.profile_unavailable", "ProfileUnavailable")


@pytest.fixture
def replicas(postgres_url: str) -> Iterator[tuple[SqlStore, SqlStore]]:
    first, second = SqlStore.open(postgres_url), SqlStore(open_engine(postgres_url))
    yield first, second
    first.close()
    second.close()


def _own_connection(url: str) -> Iterator[Connection]:
    engine = create_engine(url, poolclass=NullPool)
    with engine.connect() as connection:
        yield connection
    engine.dispose()


@pytest.fixture
def observer(postgres_url: str) -> Iterator[Connection]:
    """The test's connection for looking at pg_locks (each look ends its transaction)."""
    yield from _own_connection(postgres_url)


@pytest.fixture
def holder(postgres_url: str) -> Iterator[Connection]:
    """The test's connection for holding locks, as a third process would."""
    yield from _own_connection(postgres_url)


class Beside(threading.Thread):
    """``call()`` on a thread of its own, as another replica; its result or exception."""

    def __init__(self, call: Callable[[], Any]) -> None:
        super().__init__()
        self._call = call
        self.result: Any = None
        self.error: BaseException | None = None
        self.start()

    def run(self) -> None:
        try:
            self.result = self._call()
        except BaseException as err:  # handed to the test, which asserts on it
            self.error = err

    def outcome(self) -> Any:
        self.join(WITHIN_SECONDS)
        assert not self.is_alive(), "the other replica never finished"
        if self.error is not None:
            raise self.error
        return self.result


@contextmanager
def row_locked(connection: Connection, table: Any, row_id: UUID) -> Iterator[None]:
    """The row is locked FOR UPDATE by the test until the block ends."""
    connection.execute(select(table.c.id).where(table.c.id == row_id).with_for_update())
    try:
        yield
    finally:
        connection.rollback()


def _due(scene: Scene, clock: Clock, count: int = 1, *owners: Principal) -> list[UUID]:
    """``count`` schedules due at one instant, owned in turn by ``owners`` (alice if none)."""
    by = owners or (ALICE,)
    ids = [
        scene.create(by[n % len(by)], title=f"Digest {n}").schedule.schedule_id
        for n in range(count)
    ]
    due_at = scene.schedule(ids[0]).next_fire_at
    assert due_at is not None
    clock.now = due_at + timedelta(seconds=5)
    return ids


class ReplicaDied(BaseException):
    """The replica holding the claim died before it wrote anything.

    A ``BaseException``, as a killed process is: the batch fails no schedule
    for it but rolls back whole.
    """


def test_a_schedule_another_replica_holds_is_passed_over_at_once_and_taken_after_it_dies(
    replicas: tuple[SqlStore, SqlStore], clock: Clock
) -> None:
    first, second = replicas
    scene = Scene(first, clock, ALICE, BOB)
    held_id, free_id = _due(scene, clock, 2, ALICE, BOB)  # two owners: no admission turn
    claimed, die = threading.Event(), threading.Event()

    def claim_then_die(due: DueSchedule) -> OccurrencePlan | None:
        claimed.set()
        die.wait(WITHIN_SECONDS)
        raise ReplicaDied

    holder = Beside(
        lambda: first.occurrences.materialize_batch(clock(), claim_then_die, [free_id], 1)
    )
    assert claimed.wait(WITHIN_SECONDS)
    worker = ScheduleWorker(second, scene.identity)
    report = worker.run_once(clock())  # takes the free one, does not wait for the held one
    assert (report.written, report.failed) == (1, 0)
    assert (len(scene.ledger(held_id)), len(scene.ledger(free_id, BOB))) == (0, 1)
    assert report.retry_at == clock() + timedelta(seconds=1), "looks again soon"
    assert worker.next_wake(clock(), report) == report.retry_at
    again = worker.run_once(clock())  # only the held one is left
    assert (again.written, again.retry_at) == (0, clock() + timedelta(seconds=1))
    die.set()
    with pytest.raises(ReplicaDied):
        holder.outcome()

    assert second.schedules.due(clock(), 10) == [held_id], "rolled back, still due"
    assert worker.run_once(clock()).written == 1
    assert scene.counts() == dict.fromkeys(scene.counts(), 2)


def test_replicas_racing_for_a_principals_last_run_slot_admit_one_and_hold_the_other(
    replicas: tuple[SqlStore, SqlStore], clock: Clock
) -> None:
    first, second = replicas
    scene = Scene(first, clock)
    one, other = _due(scene, clock, 2)
    admission = Admission(max_active_runs=1)
    decided, commit = threading.Event(), threading.Event()

    def plan(due: DueSchedule) -> OccurrencePlan | None:
        return plan_occurrence(due, clock(), scene.identity, admission)

    def plan_then_linger(due: DueSchedule) -> OccurrencePlan | None:
        planned = plan(due)
        decided.set()
        commit.wait(WITHIN_SECONDS)
        return planned

    holder = Beside(
        lambda: first.occurrences.materialize_batch(clock(), plan_then_linger, [other], 1)
    )
    assert decided.wait(WITHIN_SECONDS)
    racer = Beside(lambda: second.occurrences.materialize_batch(clock(), plan, [], 1))
    assert racer.outcome().passed_over == (other,), "the principal's turn is the holder's"
    commit.set()
    assert holder.outcome().written == (one,)
    again = second.occurrences.materialize_batch(clock(), plan, [], 1)
    assert again.held == (other,), "claimed, then held: the principal's one slot is taken"
    assert scene.count("runs") == 1
    assert (len(scene.ledger(one)), len(scene.ledger(other))) == (1, 0)


def _race_on_locked_row(
    holder: Connection,
    observer: Connection,
    table: Any,
    row_id: UUID,
    calls: list[Callable[[], Any]],
) -> list[Any]:
    """Start ``calls`` while the test holds the row; release it once all of them wait."""
    with row_locked(holder, table, row_id):
        racing = [Beside(call) for call in calls]
        eventually(
            lambda: lock_waiters(observer) == len(calls),
            f"{len(calls)} replicas to wait for the same row",
        )
    return [thread.outcome() for thread in racing]


def test_two_replicas_taking_and_finishing_one_run_each_do_it_once(
    replicas: tuple[SqlStore, SqlStore], clock: Clock, holder: Connection, observer: Connection
) -> None:
    first = replicas[0]
    scene = Scene(first, clock)
    (schedule_id,) = _due(scene, clock)
    assert scene.scan().written == 1
    (run_id,) = first.runs.queued(clock(), 10)

    taken = _race_on_locked_row(
        holder,
        observer,
        runs,
        run_id,
        [
            lambda s=store: s.runs.start(run_id, clock(), RunLease("replica", clock()))
            for store in replicas
        ],
    )
    assert sorted(run is None for run in taken) == [False, True]
    (run,) = [run for run in taken if run is not None]

    dispatchers = [Scene(store, clock).dispatcher() for store in replicas]
    finished = _race_on_locked_row(
        holder,
        observer,
        runs,
        run_id,
        [lambda d=dispatcher: d.settle(run, FAILED, clock()) for dispatcher in dispatchers],
    )
    assert sorted(finished) == [False, True]
    assert scene.schedule(schedule_id).consecutive_failures == 1
    assert len(scene.events(schedule_id, "schedule.run_accounted")) == 1


def _terminal(store: SqlStore, count: int) -> list[UUID]:
    updated = NOW - RETENTION_PERIOD - timedelta(days=1)
    views = []
    for _ in range(count):
        schedule_id = uuid4()
        record = ScheduleRecord(
            schedule_id, ALICE.owner, "CANCELLED", None, 1, None, 0, updated, updated
        )
        views.append(ScheduleView(record, RevisionRecord(schedule_id, 1, "{}", "alice", updated)))
    store.schedules.import_many(views)
    return [view.schedule.schedule_id for view in views]


def test_a_sweep_finding_another_replica_sweeping_deletes_nothing_and_skips_held_rows(
    replicas: tuple[SqlStore, SqlStore], holder: Connection
) -> None:
    first, second = replicas
    expired = _terminal(first, 5)
    cutoff = NOW - RETENTION_PERIOD

    hold(holder, RETENTION)  # another replica is sweeping
    assert second.schedules.purge_terminal(cutoff, 100) == 0
    holder.rollback()

    with row_locked(holder, schedules, expired[0]):  # a run's accounting holds this one
        sweep = Beside(lambda: second.schedules.purge_terminal(cutoff, 100))
        assert sweep.outcome() == len(expired) - 1, "done without waiting for the held row"
    remaining = [i for i in expired if first.schedules.get(ALICE.owner, i) is not None]
    assert remaining == [expired[0]]
    assert first.schedules.purge_terminal(cutoff, 100) == 1, "the next sweep takes it"
