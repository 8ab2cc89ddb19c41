"""The scheduler's heartbeat: each replica's row, moved by its worker's scans, on both backends.

A scan ticks at most once per interval: inside its batch's transaction when a
batch ran, with an upsert of its own when idle; idle ticks forget replicas
silent past retention, at most every tenth of it. The rows are what
``GET /v1/scheduler`` reads.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from server.storage.records import Heartbeat, SchedulerReplica
from server.worker.heartbeat import (
    FORGET_SHARE,
    HEARTBEAT_INTERVAL,
    SILENT_RETENTION,
    Pulse,
    this_replica,
)
from server.worker.worker import ScheduleWorker
from tests.clock import Clock
from tests.server.scene import Scene

pytestmark = pytest.mark.each_backend


def _worker(scene: Scene, replica: SchedulerReplica) -> ScheduleWorker:
    return scene.worker(pulse=Pulse(replica))


def _ticks(scene: Scene) -> dict[str, Any]:
    return {tick.replica.replica_id: tick.last_tick_at for tick in scene.store.replicas.ticks()}


def _due_once_in(scene: Scene, clock: Clock, seconds: int) -> None:
    at = (clock.now + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")
    scene.create(cadence={"kind": "ONCE", "at": at})


def test_an_idle_scan_ticks_at_once_then_at_most_once_an_interval(
    scene: Scene, clock: Clock
) -> None:
    replica = this_replica(clock.now)
    worker = _worker(scene, replica)
    worker.run_once(clock.now)
    started = clock.now
    assert _ticks(scene) == {replica.replica_id: started}
    clock.advance(HEARTBEAT_INTERVAL - timedelta(milliseconds=1))
    worker.run_once(clock.now)
    assert _ticks(scene) == {replica.replica_id: started}, "not again within the interval"
    clock.advance(milliseconds=1)
    worker.run_once(clock.now)
    assert _ticks(scene) == {replica.replica_id: clock.now}
    (row,) = scene.store.replicas.ticks()
    assert row.replica == replica, "who it is stays as it was first written"


def test_a_scan_that_ran_a_batch_ticks_in_the_batch_transaction_not_one_of_its_own(
    scene: Scene, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    _due_once_in(scene, clock, 10)
    replica = this_replica(clock.now)
    worker = _worker(scene, replica)

    def no_transaction_of_its_own(heartbeat: Heartbeat) -> None:
        raise AssertionError("a batch's heartbeat took a transaction of its own")

    monkeypatch.setattr(scene.store.replicas, "tick", no_transaction_of_its_own)
    clock.advance(seconds=10)
    assert worker.run_once(clock.now).written == 1
    assert _ticks(scene) == {replica.replica_id: clock.now}


def test_a_batch_that_rolls_back_takes_its_heartbeat_with_it(
    scene: Scene, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    _due_once_in(scene, clock, 10)
    worker = _worker(scene, this_replica(clock.now))

    def write_nothing(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the batch's writes failed")

    monkeypatch.setattr("server.storage.sql.batch_claims._write_all", write_nothing)
    monkeypatch.setattr("server.storage.sql.batch_claims.write_locked_change", write_nothing)
    clock.advance(seconds=10)
    assert worker.run_once(clock.now).failed == 1
    assert _ticks(scene) == {}, "no tick committed by a transaction that rolled back"


def test_an_idle_tick_forgets_replicas_silent_past_retention_and_keeps_the_others(
    scene: Scene, clock: Clock
) -> None:
    gone, quiet = this_replica(clock.now), this_replica(clock.now)
    scene.store.replicas.tick(Heartbeat(gone, clock.now))
    scene.store.replicas.tick(Heartbeat(quiet, clock.now + timedelta(minutes=1)))
    clock.advance(SILENT_RETENTION + timedelta(seconds=30))
    survivor = this_replica(clock.now)
    _worker(scene, survivor).run_once(clock.now)
    assert set(_ticks(scene)) == {quiet.replica_id, survivor.replica_id}
    assert scene.store.replicas.forget_silent(clock.now + timedelta(seconds=1)) == 2
    assert _ticks(scene) == {}


def test_an_idle_tick_forgets_replicas_silent_past_the_retention_it_was_given(
    scene: Scene, clock: Clock
) -> None:
    gone = this_replica(clock.now)
    scene.store.replicas.tick(Heartbeat(gone, clock.now))
    clock.advance(seconds=9)
    survivor = this_replica(clock.now)
    scene.worker(pulse=Pulse(survivor, retention=timedelta(seconds=8))).run_once(clock.now)
    assert set(_ticks(scene)) == {survivor.replica_id}


def test_idle_ticks_forget_at_most_every_tenth_of_the_retention(scene: Scene, clock: Clock) -> None:
    worker = _worker(scene, this_replica(clock.now))
    worker.run_once(clock.now)
    gone = this_replica(clock.now)
    scene.store.replicas.tick(Heartbeat(gone, clock.now - SILENT_RETENTION))
    clock.advance(HEARTBEAT_INTERVAL)
    worker.run_once(clock.now)
    assert gone.replica_id in _ticks(scene), "not again within a tenth of the retention"
    clock.advance(SILENT_RETENTION / FORGET_SHARE - HEARTBEAT_INTERVAL)
    worker.run_once(clock.now)
    assert gone.replica_id not in _ticks(scene)


def test_each_replica_keeps_a_row_of_its_own_newest_first(scene: Scene, clock: Clock) -> None:
    first, second = this_replica(clock.now), this_replica(clock.now)
    assert first.replica_id != second.replica_id, "random per process start"
    _worker(scene, first).run_once(clock.now)
    clock.advance(seconds=2)
    _worker(scene, second).run_once(clock.now)
    ticks = scene.store.replicas.ticks()
    assert [tick.replica.replica_id for tick in ticks] == [second.replica_id, first.replica_id]
