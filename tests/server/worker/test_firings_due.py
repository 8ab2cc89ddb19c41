"""Due against decided: each due instant counts once however often it is retried.

The worker tells its observer of every due instant it meets for the first
time and of every decision, so ``schedule_firings_due_total`` minus
``schedule_firings_decided_total`` is what waits or fails, not how often the
worker tried.
"""

from __future__ import annotations

from collections import Counter

import pytest

from server.storage.records import OccurrenceRecord
from server.worker.worker import GIVE_UP_AFTER
from tests.server.scene import Scene


class Tally:
    """An observer that counts what the worker tells it."""

    def __init__(self) -> None:
        self.due = 0
        self.decided: Counter[str] = Counter()

    def occurrence_recorded(self, occurrence: OccurrenceRecord) -> None:
        self.decided[occurrence.disposition] += 1

    def firings_due(self, count: int) -> None:
        self.due += count

    def materialization_failed(self) -> None:
        return None


def test_a_failing_due_instant_counts_due_once_and_decided_once_when_given_up(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    scene.create(cadence={"kind": "DAILY", "local_time": "09:30:00", "timezone": "UTC"})
    tally = Tally()
    worker = scene.worker(observer=tally)

    def unreadable(*args: object) -> None:
        raise ValueError("a cadence that no longer reads")

    monkeypatch.setattr("server.worker.materializer.plan_occurrence", unreadable)
    scene.clock.advance(minutes=31)
    for attempt in range(1, GIVE_UP_AFTER + 1):
        report = worker.run_once(scene.clock())
        assert report.failed == 1, attempt
        assert tally.due == 1, f"counted once, not at attempt {attempt}"
        if attempt < GIVE_UP_AFTER:
            assert tally.decided == Counter(), "due but not decided while it fails"
            assert report.retry_at is not None
            scene.clock.now = report.retry_at
    assert tally.decided == Counter({"CONFIGURATION_FAILED": 1})


def test_a_due_instant_decided_at_once_counts_once_each_way(scene: Scene) -> None:
    scene.create(cadence={"kind": "DAILY", "local_time": "09:30:00", "timezone": "UTC"})
    tally = Tally()
    scene.clock.advance(minutes=31)
    assert scene.worker(observer=tally).run_once(scene.clock()).written == 1
    assert (tally.due, tally.decided) == (1, Counter({"MATERIALIZED": 1}))
