"""Runs handed to a real agent runtime over HTTP (the executor protocol), on both databases.

The runtime is ``tests/agent_runtime.py``: a real HTTP server on loopback that
checks signatures with its own HMAC. The server side is the real pieces: the
service creates, a worker fires, ``RunDispatcher`` with ``HttpExecutor``
delivers and records. Deadlines are real seconds: a run's budget is its
deadline less the scene's clock when it is delivered.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from uuid import UUID

import pytest

from server.storage.records import MessageRecord
from server.worker.http_executor import HttpExecutor
from server.worker.run_dispatch import RunDispatcher
from tests.agent_runtime import (
    SECRET,
    AgentRuntime,
    Delivery,
    Reply,
    agent_runtime,
    completes,
    fails,
)
from tests.polling import eventually
from tests.server.scene import ALICE, Scene

INSTRUCTION = "Read the quarterly figures and write the board a two-line summary."


pytestmark = pytest.mark.each_backend


@asynccontextmanager
async def _delivering(
    scene: Scene, runtime: AgentRuntime, secret: bytes = SECRET
) -> AsyncIterator[RunDispatcher]:
    """A dispatcher handing runs to ``runtime``; its connections closed on the way out."""
    executor = HttpExecutor(
        runtime.url, secret, scene.clock, first_retry=timedelta(milliseconds=20)
    )
    try:
        yield RunDispatcher(scene.store, executor, scene.clock)
    finally:
        await executor.aclose()


def _fire(scene: Scene, schedule_id: UUID) -> None:
    due_at = scene.schedule(schedule_id).next_fire_at
    assert due_at is not None
    scene.clock.now = due_at + timedelta(seconds=5)
    assert scene.scan().written == 1


def _created(scene: Scene, **changes: object) -> UUID:
    view = scene.create(instruction=INSTRUCTION, **changes)
    return view.schedule.schedule_id


def _transcript(scene: Scene, session_id: UUID) -> list[MessageRecord]:
    return scene.store.sessions.visible_messages(ALICE.owner, session_id, None, 100)


def _run_of(scene: Scene, schedule_id: UUID, index: int = -1) -> tuple[UUID, UUID]:
    occurrence = [o for o in scene.ledger(schedule_id) if o.run_id is not None][index]
    assert occurrence.run_id is not None and occurrence.session_id is not None
    return occurrence.run_id, occurrence.session_id


def _status(scene: Scene, run_id: UUID) -> str:
    run = scene.store.runs.get(run_id)
    assert run is not None
    return run.status


async def test_each_answer_becomes_an_assistant_message_of_the_runs_session(
    scene: Scene, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    schedule_id = _created(scene, requested_scopes=["session.read"])
    _fire(scene, schedule_id)
    with agent_runtime(completes("Revenue rose 4%.", "Costs held flat.")) as runtime:
        async with _delivering(scene, runtime) as dispatcher:
            assert await dispatcher.dispatch_once() == 1
    run_id, session_id = _run_of(scene, schedule_id)
    assert _status(scene, run_id) == "COMPLETED"
    transcript = _transcript(scene, session_id)
    assert [(m.role, m.text) for m in transcript] == [
        ("assistant", "Revenue rose 4%."),
        ("assistant", "Costs held flat."),
    ]
    (delivery,) = runtime.deliveries
    assert delivery.signed
    document = delivery.document
    assert document["run_id"] == str(run_id)
    assert document["schedule_id"] == str(schedule_id)
    assert document["session_id"] == str(session_id)
    assert document["instruction"] == INSTRUCTION
    assert document["requested_scopes"] == ["session.read"]
    assert document["limits"]["max_steps"] > 0
    assert document["deadline_at"].endswith("Z") and document["delivered_at"].endswith("Z")
    assert document["principal_id"] == "alice"
    assert INSTRUCTION not in caplog.text and SECRET.decode() not in caplog.text


async def test_a_failed_run_counts_toward_the_failure_limit_and_pauses_the_schedule_at_it(
    scene: Scene,
) -> None:
    schedule_id = _created(scene, max_consecutive_failures=2)
    failing = fails("tool.browser.profile_unavailable", "ProfileUnavailable")
    with agent_runtime(failing) as runtime:
        async with _delivering(scene, runtime) as dispatcher:
            _fire(scene, schedule_id)
            assert await dispatcher.dispatch_once() == 1
            assert scene.schedule(schedule_id).consecutive_failures == 1
            _fire(scene, schedule_id)
            assert await dispatcher.dispatch_once() == 1
    record = scene.schedule(schedule_id)
    assert (record.state, record.pause_reason, record.consecutive_failures) == (
        "PAUSED",
        "failure_limit",
        2,
    )
    accounted = scene.events(schedule_id, "schedule.run_accounted")
    assert [e.payload["failure"] for e in accounted] == [
        {"reason": "tool.browser.profile_unavailable", "error_class": "ProfileUnavailable"}
    ] * 2
    assert _transcript(scene, _run_of(scene, schedule_id)[1]) == []


async def test_a_runtime_that_stalls_past_the_deadline_fails_the_run_and_its_answer_is_dropped(
    scene: Scene,
) -> None:
    schedule_id = _created(scene, run_timeout_seconds=1)
    stalls = lambda _d: Reply(200, {"status": "COMPLETED", "answers": ["Too late."]}, 3.0)  # noqa: E731
    with agent_runtime(stalls) as runtime:
        _fire(scene, schedule_id)
        async with _delivering(scene, runtime) as dispatcher:
            assert await dispatcher.dispatch_once() == 1
        run_id, session_id = _run_of(scene, schedule_id)
        assert _status(scene, run_id) == "FAILED"
        runtime.released.set()  # the runtime answers now, to a closed request
        eventually(
            lambda: len(runtime.replied) == len(runtime.deliveries), "the runtime's late answer"
        )
    assert _status(scene, run_id) == "FAILED"
    assert _transcript(scene, session_id) == []
    (accounted,) = scene.events(schedule_id, "schedule.run_accounted")
    assert accounted.payload["failure"] == {
        "reason": "deadline_exceeded",
        "error_class": "DeadlineExceeded",
    }


async def test_a_second_answer_for_a_run_that_ended_is_dropped(scene: Scene) -> None:
    numbered = lambda d: Reply(200, {"status": "COMPLETED", "answers": [f"Answer {d.number}."]})  # noqa: E731
    schedule_id = _created(scene)
    _fire(scene, schedule_id)
    with agent_runtime(numbered) as runtime:
        executor = HttpExecutor(runtime.url, SECRET, scene.clock)
        dispatcher = RunDispatcher(scene.store, executor, scene.clock)
        (run,) = scene.start_queued()
        try:
            assert dispatcher.settle(run, await executor.execute(run), scene.clock())
            # The same run delivered again (a replica holding a stale claim): answered, dropped.
            assert not dispatcher.settle(run, await executor.execute(run), scene.clock())
        finally:
            await executor.aclose()
    assert [d.number for d in runtime.deliveries] == [1, 2]
    assert runtime.deliveries[0].body == runtime.deliveries[1].body
    assert [m.text for m in _transcript(scene, run.session_id)] == ["Answer 1."]
    assert len(scene.events(schedule_id, "schedule.run_accounted")) == 1


async def test_a_runtime_that_refuses_the_signature_fails_the_run_with_no_answer(
    scene: Scene,
) -> None:
    schedule_id = _created(scene)
    _fire(scene, schedule_id)
    with agent_runtime(completes("Never sent.")) as runtime:
        wrong = b"another-secret-that-the-runtime-does-not-share"
        async with _delivering(scene, runtime, wrong) as dispatcher:
            assert await dispatcher.dispatch_once() == 1
    (delivery,) = runtime.deliveries
    assert not delivery.signed
    run_id, session_id = _run_of(scene, schedule_id)
    assert _status(scene, run_id) == "FAILED"
    assert _transcript(scene, session_id) == []
    (accounted,) = scene.events(schedule_id, "schedule.run_accounted")
    assert accounted.payload["failure"] == {"reason": "executor_refused", "error_class": "HTTP401"}


async def test_a_503_is_retried_with_the_same_body_and_the_replay_creates_nothing_twice(
    scene: Scene,
) -> None:
    def unavailable_once(delivery: Delivery) -> Reply:
        if delivery.number == 1:
            return Reply(503, {"error": "warming up"})
        return Reply(200, {"status": "COMPLETED", "answers": ["Done once."], "cost": "0.01"})

    schedule_id = _created(scene)
    _fire(scene, schedule_id)
    before = scene.counts()
    with agent_runtime(unavailable_once) as runtime:
        async with _delivering(scene, runtime) as dispatcher:
            assert await dispatcher.dispatch_once() == 1
            assert await dispatcher.dispatch_once() == 0, "nothing is left to deliver"
    first, second = runtime.deliveries
    assert first.body == second.body, "a retry replays the same request"
    assert first.signed and second.signed
    run_id, session_id = _run_of(scene, schedule_id)
    assert _status(scene, run_id) == "COMPLETED"
    assert [m.text for m in _transcript(scene, session_id)] == ["Done once."]
    after = scene.counts()
    assert after == {**before, "session_messages": before["session_messages"] + 1}
    assert len(scene.events(schedule_id, "schedule.run_accounted")) == 1


async def test_an_unreachable_runtime_is_retried_until_the_deadline_then_the_run_fails(
    scene: Scene, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    schedule_id = _created(scene, run_timeout_seconds=1)
    _fire(scene, schedule_id)
    with agent_runtime(completes("unused")) as runtime:
        url = runtime.url  # the port is closed once the block ends
    executor = HttpExecutor(url, SECRET, scene.clock, first_retry=timedelta(milliseconds=50))
    try:
        assert await RunDispatcher(scene.store, executor, scene.clock).dispatch_once() == 1
    finally:
        await executor.aclose()
    run_id, _session_id = _run_of(scene, schedule_id)
    assert _status(scene, run_id) == "FAILED"
    retries = [r for r in caplog.records if "could not be reached" in r.getMessage()]
    assert len(retries) >= 2, "connection failures are retried with backoff"
    assert INSTRUCTION not in caplog.text and SECRET.decode() not in caplog.text
