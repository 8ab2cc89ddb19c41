"""gate.schedule.materialize_atomic: a crash after any write of a materialization leaves nothing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import event, text

from server.storage.sql.store import SqlStore
from tests.server.api.conftest import Clock
from tests.server.scene import Scene, copy_store

WRITES = ("INSERT", "UPDATE", "DELETE")


class Crash(Exception):
    """The process dies here (as far as the transaction can tell)."""


@contextmanager
def crash_after_write(store: SqlStore, number: int | None) -> Iterator[list[str]]:
    """Count write statements; raise right after the ``number``-th one completes."""
    seen: list[str] = []

    def after(*args: Any) -> None:
        statement: str = args[2]
        if statement.lstrip().upper().startswith(WRITES):
            seen.append(statement.split()[2] if statement.startswith("INSERT") else statement)
            if len(seen) == number:
                raise Crash

    event.listen(store.engine, "after_cursor_execute", after)
    try:
        yield seen
    finally:
        event.remove(store.engine, "after_cursor_execute", after)


def _due_scene(template: Path, folder: Path, clock: Clock) -> tuple[Scene, Any]:
    folder.mkdir()
    scene = Scene(copy_store(template, folder), clock)
    schedule_id = scene.create().schedule.schedule_id
    due_at = scene.schedule(schedule_id).next_fire_at
    assert due_at is not None
    clock.now = due_at + timedelta(seconds=2)
    return scene, schedule_id


def _writes_of_one_materialization(template: Path, folder: Path, clock: Clock) -> int:
    scene, _ = _due_scene(template, folder, clock)
    with crash_after_write(scene.store, None) as seen:
        assert scene.scan().written == 1
    scene.store.close()
    # occurrence, session, opening message, run, schedule advance, audit events
    assert len(seen) == 6, seen
    return len(seen)


def test_a_crash_after_each_write_leaves_nothing_partial_and_a_retry_finds_one_occurrence(
    template: Path, tmp_path: Path, clock: Clock
) -> None:
    writes = _writes_of_one_materialization(template, tmp_path / "dry", clock)
    for crash_at in range(1, writes + 1):
        scene, schedule_id = _due_scene(template, tmp_path / f"crash-{crash_at}", clock)
        try:
            before = (scene.schedule(schedule_id), scene.counts(), scene.events(schedule_id))
            with crash_after_write(scene.store, crash_at):
                report = scene.scan()
            assert (report.written, report.failed) == (0, 1)
            assert (
                scene.schedule(schedule_id),
                scene.counts(),
                scene.events(schedule_id),
            ) == before
            assert scene.store.schedules.due(clock(), 10) == [schedule_id], "still due"

            assert scene.scan().written == 1
            (occurrence,) = scene.ledger(schedule_id)
            assert occurrence.disposition == "MATERIALIZED"
            assert occurrence.session_id is not None and occurrence.run_id is not None
            run = scene.store.runs.get(occurrence.run_id)
            assert run is not None and run.session_id == occurrence.session_id
            assert run.status == "QUEUED"
            session = scene.store.sessions.get(scene.schedule(schedule_id).owner, run.session_id)
            assert session is not None
            assert session.metadata["occurrence_id"] == str(occurrence.occurrence_id)
            assert scene.counts() == {
                "schedule_occurrences": 1,
                "sessions": 1,
                "session_messages": 1,
                "runs": 1,
            }
        finally:
            scene.store.close()


def test_a_retry_after_an_unknown_commit_returns_the_committed_occurrence(
    scene: Scene, clock: Clock
) -> None:
    schedule_id = scene.create().schedule.schedule_id
    due_at = scene.schedule(schedule_id).next_fire_at
    assert due_at is not None
    clock.now = due_at + timedelta(seconds=2)
    assert scene.scan().written == 1
    committed = scene.ledger(schedule_id)
    advanced = scene.schedule(schedule_id).next_fire_at

    # The same scan again, as after a crash between commit and acknowledgement:
    # nothing is due any more.
    assert scene.scan().written == 0
    # Even with the cached next_fire_at wound back (a retry that never saw the
    # advance), the ledger holds the instant: no second occurrence, the cache
    # is rebuilt from the cadence.
    with scene.store.engine.begin() as connection:
        connection.execute(
            text("UPDATE schedules SET next_fire_at = :due WHERE id = :id"),
            {"due": due_at.replace(tzinfo=None), "id": schedule_id.hex},
        )
    scene.scan()
    assert scene.ledger(schedule_id) == committed
    assert scene.schedule(schedule_id).next_fire_at == advanced
    assert scene.count("runs") == 1
    (repaired,) = scene.events(schedule_id, "schedule.next_fire_repaired")
    assert advanced is not None
    assert repaired.payload["next_fire_at"] == advanced.isoformat()
