"""Two scheduler replicas, one killed: the other keeps ``running`` and forgets the dead row.

Two real ``schedule-server`` processes on one PostgreSQL database, both
running the scheduler, with small late and stopped thresholds and a short
heartbeat retention (``--scheduler-forget-seconds``; the default is 10 min).
A is killed with SIGKILL. Through B, ``GET /v1/scheduler`` says ``running``
at every poll, past the late threshold, while A's heartbeat row ages; B's
idle scan deletes A's row once it is older than the retention, and not before.
"""

from __future__ import annotations

import signal
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, select
from sqlalchemy.pool import NullPool

from devtools.served_process import EXIT_WAIT_SECONDS, TOKEN, served, write_principals
from server.identity import ALL_SCOPES
from server.storage.tables import scheduler_replicas
from server.worker.heartbeat import HEARTBEAT_INTERVAL
from tests.polling import eventually_found

LATE, STOPPED, RETENTION = 6, 9, 8
"""Seconds: the retention outlasts a heartbeat interval, so a live replica's row stays,
and the late threshold, so B's ``running`` while A's row ages proves A's silence is ignored."""
WATCH = (
    "--scheduler-late-seconds",
    str(LATE),
    "--scheduler-stopped-seconds",
    str(STOPPED),
    "--scheduler-forget-seconds",
    str(RETENTION),
)
SLACK = 4.0
"""Seconds a loaded machine may add before the surviving replica's scan forgets the row."""
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _status(base_url: str) -> dict[str, Any]:
    response = httpx.get(f"{base_url}/v1/scheduler", headers=AUTH, timeout=10)
    assert response.status_code == 200, response.text
    status: dict[str, Any] = response.json()
    return status


def _rows(database_url: str) -> dict[str, datetime]:
    """Each heartbeat row in storage: replica id to its last tick."""
    engine = create_engine(database_url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                select(scheduler_replicas.c.replica_id, scheduler_replicas.c.last_tick_at)
            ).all()
    finally:
        engine.dispose()
    return {str(replica_id): last_tick_at for replica_id, last_tick_at in rows}


def test_a_killed_scheduler_replica_leaves_the_other_running_and_its_row_goes_after_retention(
    postgres_url: str, tmp_path: Path
) -> None:
    principals = write_principals(tmp_path / "principals.toml", ALL_SCOPES)
    with served(postgres_url, principals, *WATCH) as a:
        (a_id,) = eventually_found(lambda: _rows(postgres_url), "A's first tick")
        with served(postgres_url, principals, *WATCH) as b:
            both = eventually_found(
                lambda: rows if len(rows := _rows(postgres_url)) == 2 else None, "B's first tick"
            )
            (b_id,) = set(both) - {a_id}
            eventually_found(
                lambda: _status(b.base_url)["replicas_running"] == 2, "both replicas running"
            )
            a.process.send_signal(signal.SIGKILL)
            a.process.communicate(timeout=EXIT_WAIT_SECONDS)
            killed = time.time()
            a_last_tick = _rows(postgres_url)[a_id].timestamp()

            def a_forgotten() -> dict[str, datetime] | None:
                status = _status(b.base_url)
                assert status["state"] == "running", status
                rows = _rows(postgres_url)
                return rows if a_id not in rows else None

            left = eventually_found(a_forgotten, "A's row to go", every=0.2)
            gone = time.time()
            assert set(left) == {b_id}
            assert gone - a_last_tick >= RETENTION, "forgotten only after the retention"
            assert gone - killed <= RETENTION + HEARTBEAT_INTERVAL.seconds + SLACK
            after = _status(b.base_url)
            assert (after["state"], after["replicas_running"]) == ("running", 1)
