"""Black box: ``schedule-server serve`` fires a due DAILY schedule and answers its run over HTTP.

The schedule is in the database before the server starts (``import_due``):
DAILY at a minute read from the clock just before, due at that instant with
an hour's grace. The server fires it at its first scan, so nothing depends on
how long the server takes to start or how fast a request arrives; the test
only polls, as any HTTP client must, until the firing shows.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from devtools.served_process import TOKEN, served, write_principals
from server.identity import ALL_SCOPES
from server.storage.sql.store import SqlStore
from tests.polling import eventually_found
from tests.server.runtime.due_schedules import import_due

WITHIN = 30.0  # seconds for the firing to be seen


def _wire(instant: datetime) -> str:
    return instant.isoformat().replace("+00:00", "Z")


def test_a_due_daily_schedule_fires_once_and_its_answer_is_readable(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'team.db'}"
    principals = write_principals(tmp_path / "principals.toml", ALL_SCOPES)
    SqlStore.open(database).close()  # migrated, as a first start would
    due_at, (schedule_id,) = import_due(database, ["alice"])
    path = f"/v1/schedules/{schedule_id}"
    with (
        served(database, principals) as server,
        httpx.Client(
            base_url=server.base_url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10
        ) as http,
    ):

        def answered() -> list[dict[str, Any]]:
            sessions = http.get("/v1/sessions").json()["items"]
            if not sessions:
                return []
            messages = http.get(f"/v1/sessions/{sessions[0]['session_id']}/messages")
            answers: list[dict[str, Any]] = messages.json()["items"]
            return [sessions[0], *answers] if answers else []

        session, *messages = eventually_found(
            answered, "the server shows the firing", WITHIN, every=0.2
        )
        occurrences = http.get(f"{path}/occurrences").json()["items"]
        detail = http.get(path).json()

    (occurrence,) = occurrences
    assert occurrence["disposition"] == "MATERIALIZED"
    assert occurrence["nominal_fire_at"] == _wire(due_at)
    assert occurrence["session_id"] == session["session_id"]
    assert session["title"] == detail["revision"]["title"] == "Morning news digest"
    assert session["metadata"]["schedule_id"] == str(schedule_id)
    (answer,) = messages
    assert answer["role"] == "assistant"
    assert answer["text"].startswith("No agent runtime is attached to this schedule server")
    assert detail["next_fire_at"] == _wire(due_at + timedelta(days=1)), "the same time tomorrow"
    assert detail["state"] == "ACTIVE"
