"""The scheduler's replica is killed: a ``--no-worker`` replica says so, and the restart catches up.

Two real ``schedule-server`` processes on one PostgreSQL database: A runs the
scheduler, B runs with ``--no-worker``, both with small late and stopped
thresholds (server options; the defaults are 30 s and 2 min) and an overdue
threshold of 1 s. Twenty schedules, made while A runs, come due seconds after
A is killed with SIGKILL. Through B, ``GET /v1/scheduler`` turns ``late``
within the late threshold plus one heartbeat interval, then ``stopped``; the
due schedules read ``overdue_since`` and fill Needs attention. A restarted
replica fires each of them once, late but within their grace (MATERIALIZED,
never MISSED, never twice), and B says ``running`` with nothing overdue.
"""

from __future__ import annotations

import signal
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx
import pytest
from sqlalchemy import create_engine, func, select
from sqlalchemy.pool import NullPool

from devtools.api_bodies import definition_json
from devtools.served_process import EXIT_WAIT_SECONDS, TOKEN, served, write_principals
from server.identity import ALL_SCOPES
from server.storage.tables import schedule_occurrences
from server.worker.heartbeat import HEARTBEAT_INTERVAL
from tests.polling import eventually_found

LATE, STOPPED, OVERDUE = 6, 9, 1
WATCH = (
    "--scheduler-late-seconds",
    str(LATE),
    "--scheduler-stopped-seconds",
    str(STOPPED),
    "--overdue-after-seconds",
    str(OVERDUE),
)
DUE = 20
LEAD = timedelta(seconds=10)
"""How far ahead the twenty come due: their creation and A's kill fit in it on a loaded machine."""
SLACK = 4.0
"""Seconds a loaded machine may add to a threshold before the answer changes."""
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _get(base_url: str, path: str, **params: str) -> Any:
    response = httpx.get(f"{base_url}{path}", params=params, headers=AUTH, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


def _state_is(base_url: str, state: str) -> dict[str, Any] | None:
    status: dict[str, Any] = _get(base_url, "/v1/scheduler")
    return status if status["state"] == state else None


def _caught_up(base_url: str) -> dict[str, Any] | None:
    """The status once the scheduler runs and the caller's backlog is empty."""
    status = _state_is(base_url, "running")
    return status if status is not None and status["due_backlog"] == 0 else None


def _create_due_at(base_url: str, at: datetime) -> None:
    body = definition_json(cadence={"kind": "ONCE", "at": at.strftime("%Y-%m-%dT%H:%M:%SZ")})
    response = httpx.post(
        f"{base_url}/v1/schedules",
        json=body,
        headers={**AUTH, "Idempotency-Key": str(uuid4())},
        timeout=10,
    )
    assert response.status_code == 201, response.text


def _overdue(base_url: str) -> list[dict[str, Any]] | None:
    """Needs attention once it lists all twenty (each overdue a second after it came due)."""
    items: list[dict[str, Any]] = _get(
        base_url, "/v1/schedules", needs_attention="true", limit="100"
    )["items"]
    return items if len(items) == DUE else None


def _decided(database_url: str) -> list[tuple[str, int]]:
    """Each disposition recorded, and how many firings of one schedule at most."""
    engine = create_engine(database_url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            by_disposition = connection.execute(
                select(schedule_occurrences.c.disposition, func.count()).group_by(
                    schedule_occurrences.c.disposition
                )
            ).all()
    finally:
        engine.dispose()
    return [(str(disposition), int(count)) for disposition, count in by_disposition]


def _timeline(events: list[tuple[str, float, dict[str, Any]]], since: float) -> str:
    return "\n".join(
        f"{datetime.fromtimestamp(at, UTC):%H:%M:%S.%f}"[:-3]
        + f" (+{at - since:5.1f} s) {what}: {status}"
        for what, at, status in events
    )


def test_a_killed_scheduler_reads_late_then_stopped_through_a_no_worker_replica_and_catches_up(
    postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    principals = write_principals(tmp_path / "principals.toml", ALL_SCOPES)
    events: list[tuple[str, float, dict[str, Any]]] = []
    with served(postgres_url, principals, "--no-worker", *WATCH) as b:
        assert _state_is(b.base_url, "stopped"), "no replica ever ran"
        with served(postgres_url, principals, *WATCH) as a:
            before = eventually_found(lambda: _state_is(b.base_url, "running"), "A's first tick")
            events.append(("before the kill", time.time(), before))
            due_at = datetime.now(UTC).replace(microsecond=0) + LEAD
            for _ in range(DUE):
                _create_due_at(b.base_url, due_at)
            a.process.send_signal(signal.SIGKILL)
            a.process.communicate(timeout=EXIT_WAIT_SECONDS)
            killed = time.time()
            assert killed < due_at.timestamp(), "A was killed after the twenty came due"
        late = eventually_found(lambda: _state_is(b.base_url, "late"), "late", every=0.2)
        events.append(("late", time.time(), late))
        last_tick = datetime.fromisoformat(late["last_tick_at"]).timestamp()
        assert time.time() - last_tick <= LATE + SLACK
        assert time.time() - killed <= LATE + HEARTBEAT_INTERVAL.seconds + SLACK
        stopped = eventually_found(lambda: _state_is(b.base_url, "stopped"), "stopped", every=0.2)
        events.append(("stopped", time.time(), stopped))
        assert time.time() - killed <= STOPPED + HEARTBEAT_INTERVAL.seconds + SLACK
        assert stopped["replicas_running"] == 0
        waiting = eventually_found(lambda: _overdue(b.base_url), "the twenty overdue", every=0.2)
        overdue: dict[str, Any] = _get(b.base_url, "/v1/scheduler")
        events.append(("the twenty overdue", time.time(), overdue))
        assert overdue["due_backlog"] == DUE
        assert {item["overdue_since"] for item in waiting} == {
            due_at.strftime("%Y-%m-%dT%H:%M:%SZ")
        }
        assert _decided(postgres_url) == []
        with served(postgres_url, principals, *WATCH):
            after = eventually_found(
                lambda: _caught_up(b.base_url), "the restarted replica to fire the catch-up"
            )
            events.append(("after the restart", time.time(), after))
            assert _decided(postgres_url) == [("MATERIALIZED", DUE)], "late, not missed; once"
            listed = _get(b.base_url, "/v1/schedules", limit="100")["items"]
            assert not any("overdue_since" in item for item in listed)
            attention = _get(b.base_url, "/v1/schedules", needs_attention="true")["items"]
            assert attention == []
    with capsys.disabled():
        print(f"\n/v1/scheduler through the --no-worker replica:\n{_timeline(events, killed)}")
