"""Black box: ``schedule-server serve`` fires a DAILY schedule and answers its run over HTTP."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from server.identity import ALL_SCOPES, token_digest
from tests.polling import eventually_found
from tests.server.api.conftest import definition
from tests.server.runtime.test_cli import free_port

WITHIN = 30.0  # seconds for the firing to be seen; polling, as any HTTP client must
LEAD = timedelta(seconds=8)  # from choosing the instant to its firing
ATTEMPTS = 3


def _principals(path: Path) -> None:
    scopes = ", ".join(f'"{scope}"' for scope in sorted(ALL_SCOPES))
    path.write_text(
        '[[principal]]\nid = "alice"\ntenant = "acme"\ndisplay_name = "Alice"\n'
        f'token_sha256 = "{token_digest("team-token")}"\nscopes = [{scopes}]\n'
    )


def _due_in_seconds(http: httpx.Client) -> tuple[dict[str, Any], datetime]:
    """A daily schedule whose first firing is seconds away, and that instant.

    A create that reached the server after the chosen instant would first
    fire tomorrow: it is cancelled and made again with a fresh instant, so
    the test does not depend on how fast a request arrives.
    """
    for attempt in range(ATTEMPTS):
        soon = (datetime.now(UTC) + LEAD).replace(microsecond=0)
        cadence = {"kind": "DAILY", "local_time": f"{soon:%H:%M:%S}", "timezone": "UTC"}
        created = http.post(
            "/v1/schedules",
            json=definition(title="Team standup notes", cadence=cadence),
            headers={"Idempotency-Key": f"standup-{attempt}"},
        )
        assert created.status_code == 201, created.text
        schedule: dict[str, Any] = created.json()
        first = soon if soon > _instant(schedule["created_at"]) else soon + timedelta(days=1)
        assert schedule["next_fire_at"] == _wire(first), "the first instant after the create"
        if first == soon:
            return schedule, soon
        path = f"/v1/schedules/{schedule['schedule_id']}"
        assert http.delete(path, params={"expected_revision": 1}).status_code == 200
    raise AssertionError(f"no create reached the server within {LEAD} in {ATTEMPTS} attempts")


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _wire(instant: datetime) -> str:
    return instant.isoformat().replace("+00:00", "Z")


def test_a_daily_schedule_due_in_seconds_fires_once_and_its_answer_is_readable(
    tmp_path: Path,
) -> None:
    principals = tmp_path / "principals.toml"
    _principals(principals)
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "server.cli",
        "serve",
        "--database",
        f"sqlite:///{tmp_path / 'team.db'}",
        "--port",
        str(port),
        "--principals",
        str(principals),
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        assert f"127.0.0.1:{port}" in process.stdout.readline()
        with httpx.Client(
            base_url=f"http://127.0.0.1:{port}",
            headers={"Authorization": "Bearer team-token"},
            timeout=10,
        ) as http:
            schedule, soon = _due_in_seconds(http)
            path = f"/v1/schedules/{schedule['schedule_id']}"

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
    finally:
        process.terminate()
        process.communicate(timeout=10)

    (occurrence,) = occurrences
    assert occurrence["disposition"] == "MATERIALIZED"
    assert occurrence["nominal_fire_at"] == schedule["next_fire_at"]
    assert occurrence["session_id"] == session["session_id"]
    assert session["title"] == "Team standup notes"
    assert session["metadata"]["schedule_id"] == schedule["schedule_id"]
    (answer,) = messages
    assert answer["role"] == "assistant"
    assert answer["text"].startswith("No agent runtime is attached to this schedule server")
    tomorrow = soon + timedelta(days=1)
    assert detail["next_fire_at"] == tomorrow.isoformat().replace("+00:00", "Z")
    assert detail["state"] == "ACTIVE"
