"""Black box: an edit on a ``--no-worker`` server after a ONCE came due keeps its firing.

With real processes: ``serve --no-worker``, a ONCE
due in a few seconds, a PATCH after it came due; then a restart with the
worker. The instant has exactly one occurrence and the schedule is COMPLETED.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from devtools.served_process import TOKEN, served, write_principals
from server.identity import ALL_SCOPES
from tests.server.api.conftest import definition

DUE_IN = timedelta(seconds=1)
"""Ahead of the create (an instant in the past is refused); the PATCH waits it out."""
PAST_DUE = timedelta(seconds=0.5)
"""How long after the due instant the PATCH comes: it is due by then on the server's clock too."""


def _client(base_url: str) -> httpx.Client:
    return httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10)


def test_a_patch_on_a_no_worker_server_after_the_due_instant_leaves_one_occurrence(
    tmp_path: Path,
) -> None:
    principals = write_principals(tmp_path / "principals.toml", ALL_SCOPES)
    database = f"sqlite:///{tmp_path / 'team.db'}"
    with served(database, principals, "--no-worker") as replica, _client(replica.base_url) as http:
        at = (datetime.now(UTC) + DUE_IN).replace(microsecond=0) + timedelta(seconds=1)
        cadence = {"kind": "ONCE", "at": at.strftime("%Y-%m-%dT%H:%M:%SZ")}
        created = http.post(
            "/v1/schedules",
            json=definition(title="Due soon", cadence=cadence),
            headers={"Idempotency-Key": "due-soon"},
        )
        assert created.status_code == 201, created.text
        body: dict[str, Any] = created.json()
        path = f"/v1/schedules/{body['schedule_id']}"
        time.sleep(max(0.0, (at + PAST_DUE - datetime.now(UTC)).total_seconds()))
        renamed = {**definition(title="Renamed", cadence=cadence)}
        patched = http.patch(path, json={"expected_revision": 1, "definition": renamed})
        assert patched.status_code == 409, patched.text
        assert patched.json()["error"]["code"] == "schedule.terminal"
    with served(database, principals) as primary, _client(primary.base_url) as http:
        detail = http.get(path).json()
        occurrences = http.get(f"{path}/occurrences").json()["items"]
    assert (detail["state"], detail["next_fire_at"]) == ("COMPLETED", None)
    assert [(o["schedule_revision"], o["disposition"]) for o in occurrences] == [
        (1, "MATERIALIZED")
    ]
