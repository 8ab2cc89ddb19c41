"""gate.schedule.offline_results: the occurrence pages return every disposition and its links.

A client that was offline while a schedule fired reads the ledger later and
finds each decision, newest first, with the session and run of every
materialized one (and the answer in that session), read over HTTP.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any
from uuid import UUID

import httpx
from sqlalchemy import text

from server.app import create_app
from server.identity import ALL_SCOPES
from server.storage.jsontext import load_object
from server.worker.executor import RunResult
from tests.server.api.conftest import Clock
from tests.server.scene import ALICE, Scene, directory, principal


def _fire(scene: Scene, clock: Clock, schedule_id: UUID, late: timedelta) -> None:
    due_at = scene.schedule(schedule_id).next_fire_at
    assert due_at is not None
    clock.now = due_at + late
    assert scene.scan().written == 1


def _break_definition(scene: Scene, schedule_id: UUID) -> None:
    """The stored revision stops passing validation (its limits are gone)."""
    view = scene.store.schedules.get(ALICE.owner, schedule_id)
    assert view is not None
    payload = load_object(view.revision.definition)
    del payload["limits"]
    with scene.store.engine.begin() as connection:
        connection.execute(
            text("UPDATE schedule_revisions SET definition = :definition WHERE schedule_id = :id"),
            {"definition": json.dumps(payload), "id": schedule_id.hex},
        )


async def _every_page(http: httpx.AsyncClient, path: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    cursor = None
    while True:
        query = "limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = (await http.get(f"{path}?{query}")).json()
        items.extend(page["items"])
        cursor = page["next_cursor"]
        if cursor is None:
            return items


async def test_occurrence_pages_return_every_disposition_with_its_session_and_run(
    scene: Scene, clock: Clock
) -> None:
    schedule_id = scene.create(
        requested_scopes=["session.read"], max_consecutive_failures=10, run_timeout_seconds=86400
    ).schedule.schedule_id
    second = timedelta(seconds=5)
    _fire(scene, clock, schedule_id, second)
    await scene.carry_out_queued(RunResult.completed("Here is the digest."))
    _fire(
        scene, clock, schedule_id, timedelta(minutes=1)
    )  # its run (a day long) stays in flight...
    _fire(scene, clock, schedule_id, second)  # ...so this instant is skipped
    await scene.carry_out_queued(RunResult.failed("model.refused", "ModelRefused"))
    _fire(scene, clock, schedule_id, timedelta(hours=2))  # beyond the hour of grace
    scene.identity = directory(principal(scopes=ALL_SCOPES - {"session.read"}))
    _fire(scene, clock, schedule_id, second)
    scene.identity = directory(ALICE)
    _break_definition(scene, schedule_id)
    _fire(scene, clock, schedule_id, second)

    app = create_app(scene.store, directory(ALICE), clock, cursor_secret=b"s" * 32)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://server",
        headers={"Authorization": "Bearer token-alice"},
    ) as http:
        ledger = await _every_page(http, f"/v1/schedules/{schedule_id}/occurrences")
        transcripts = {
            o["session_id"]: (await http.get(f"/v1/sessions/{o['session_id']}/messages")).json()
            for o in ledger
            if o["session_id"]
        }

    assert [(o["disposition"], o["reason_code"]) for o in ledger] == [
        ("CONFIGURATION_FAILED", "definition_invalid"),
        ("AUTHORIZATION_FAILED", "scope_revoked"),
        ("MISSED", "misfire_grace_exceeded"),
        ("SKIPPED_OVERLAP", "previous_run_in_flight"),
        ("MATERIALIZED", None),
        ("MATERIALIZED", None),
    ]
    instants = [o["nominal_fire_at"] for o in ledger]
    assert instants == sorted(instants, reverse=True)
    for occurrence in ledger:
        linked = occurrence["disposition"] == "MATERIALIZED"
        assert (occurrence["session_id"] is not None) is linked
        assert (occurrence["run_id"] is not None) is linked
        assert (occurrence["materialized_at"] is not None) is linked
    failed_run, completed_run = (
        scene.store.runs.get(UUID(o["run_id"])) for o in ledger if o["run_id"]
    )
    assert completed_run is not None and completed_run.status == "COMPLETED"
    assert failed_run is not None and failed_run.status == "FAILED"
    assert str(completed_run.session_id) == ledger[-1]["session_id"]
    answer = transcripts[ledger[-1]["session_id"]]["items"]
    assert [(m["role"], m["text"]) for m in answer] == [("assistant", "Here is the digest.")]
    assert transcripts[ledger[-2]["session_id"]]["items"] == [], "the seed stays hidden"
