"""A run re-checks its schedule's bound website sign-in as it starts: the owner's, READY,
``browser.profile.read`` requested and held; otherwise it fails as
``browser_profile_unavailable`` without reaching the executor, and the ordinary
failure accounting applies."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

from sqlalchemy import delete, update

from server.identity import ALL_SCOPES
from server.storage.records import ClaimedRun
from server.storage.tables import browser_profiles, runs
from server.worker.executor import RunResult
from server.worker.run_dispatch import RunDispatcher
from tests.server.api.conftest import Clock, add_profile
from tests.server.scene import Scene, directory, principal

BROWSER_SCOPE = "browser.profile.read"


class RecordingExecutor:
    """Completes every run it is handed, remembering which."""

    def __init__(self) -> None:
        self.executed: list[UUID] = []

    async def execute(self, run: ClaimedRun) -> RunResult:
        self.executed.append(run.run_id)
        return RunResult.completed("Done.")


def bound_schedule(scene: Scene, *, failures: int = 3) -> tuple[UUID, UUID]:
    profile_id = add_profile(scene.store, "alice", "READY")
    view = scene.create(
        browser_profile_id=str(profile_id),
        requested_scopes=[BROWSER_SCOPE],
        max_consecutive_failures=failures,
    )
    return view.schedule.schedule_id, profile_id


def fire(scene: Scene, clock: Clock, schedule_id: UUID) -> None:
    due_at = scene.schedule(schedule_id).next_fire_at
    assert due_at is not None
    clock.now = due_at + timedelta(seconds=5)
    assert scene.scan().written == 1


async def start_runs(scene: Scene, executor: RecordingExecutor) -> int:
    dispatcher = RunDispatcher(scene.store, executor, scene.clock, identity=scene.identity)
    return await dispatcher.dispatch_once()


def set_profile_state(scene: Scene, profile_id: UUID, state: str) -> None:
    with scene.store.engine.begin() as connection:
        connection.execute(
            update(browser_profiles).where(browser_profiles.c.id == profile_id).values(state=state)
        )


def run_statuses(scene: Scene) -> list[str]:
    with scene.store.engine.connect() as connection:
        return list(connection.execute(runs.select().with_only_columns(runs.c.status)).scalars())


def accounted_failure(scene: Scene, schedule_id: UUID) -> object:
    (event,) = scene.events(schedule_id, "schedule.run_accounted")
    return event.payload["failure"]


async def test_a_run_whose_profile_is_still_ready_reaches_the_executor(
    scene: Scene, clock: Clock
) -> None:
    schedule_id, _ = bound_schedule(scene)
    fire(scene, clock, schedule_id)
    executor = RecordingExecutor()

    assert await start_runs(scene, executor) == 1

    assert len(executor.executed) == 1
    assert run_statuses(scene) == ["COMPLETED"]
    assert scene.schedule(schedule_id).consecutive_failures == 0


async def test_a_profile_revoked_after_the_firing_fails_the_run_before_the_executor(
    scene: Scene, clock: Clock
) -> None:
    schedule_id, profile_id = bound_schedule(scene)
    fire(scene, clock, schedule_id)  # READY when it fired: the run is queued
    set_profile_state(scene, profile_id, "REVOKED")
    executor = RecordingExecutor()

    assert await start_runs(scene, executor) == 1

    assert executor.executed == []
    assert run_statuses(scene) == ["FAILED"]
    assert accounted_failure(scene, schedule_id) == {
        "reason": "browser_profile_unavailable",
        "error_class": "ProfileNotReady",
    }
    assert scene.schedule(schedule_id).consecutive_failures == 1


async def test_a_profile_gone_fails_the_run(scene: Scene, clock: Clock) -> None:
    schedule_id, profile_id = bound_schedule(scene)
    fire(scene, clock, schedule_id)
    with scene.store.engine.begin() as connection:
        connection.execute(delete(browser_profiles).where(browser_profiles.c.id == profile_id))

    await start_runs(scene, RecordingExecutor())

    assert accounted_failure(scene, schedule_id) == {
        "reason": "browser_profile_unavailable",
        "error_class": "ProfileNotFound",
    }


async def test_the_scope_withdrawn_from_the_owner_fails_the_run(scene: Scene, clock: Clock) -> None:
    schedule_id, _ = bound_schedule(scene)
    fire(scene, clock, schedule_id)
    scene.identity = directory(principal("alice", scopes=ALL_SCOPES - {BROWSER_SCOPE}))
    executor = RecordingExecutor()

    await start_runs(scene, executor)

    assert executor.executed == []
    assert accounted_failure(scene, schedule_id) == {
        "reason": "browser_profile_unavailable",
        "error_class": "ScopeNotHeld",
    }


async def test_repeated_unavailable_profiles_pause_the_schedule_at_its_failure_limit(
    scene: Scene, clock: Clock
) -> None:
    schedule_id, profile_id = bound_schedule(scene, failures=2)
    for _ in range(2):
        fire(scene, clock, schedule_id)
        set_profile_state(scene, profile_id, "EXPIRED")
        await start_runs(scene, RecordingExecutor())
        set_profile_state(scene, profile_id, "READY")  # READY again at each firing

    record = scene.schedule(schedule_id)
    assert (record.state, record.pause_reason, record.consecutive_failures) == (
        "PAUSED",
        "failure_limit",
        2,
    )


async def test_a_run_of_an_unbound_schedule_is_not_checked(scene: Scene, clock: Clock) -> None:
    schedule_id = scene.create().schedule.schedule_id
    fire(scene, clock, schedule_id)
    scene.identity = directory(principal("alice", scopes={"schedule.read"}))
    executor = RecordingExecutor()

    await start_runs(scene, executor)

    assert len(executor.executed) == 1
    assert run_statuses(scene) == ["COMPLETED"]
