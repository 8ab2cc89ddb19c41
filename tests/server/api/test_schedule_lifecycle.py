"""Create, read, update, pause, resume and cancel through HTTP: the schedule's state machine."""

from __future__ import annotations

from uuid import UUID

import httpx
import pytest

from server.storage.records import Owner, ScheduleChange
from server.storage.sql.store import SqlStore
from tests.server.api.conftest import Clock, as_, create, definition, definition_of, error_code


async def test_create_answers_201_with_detail_and_next_firing(client: httpx.AsyncClient) -> None:
    detail = await create(client)
    assert detail["state"] == "ACTIVE"
    assert detail["current_revision"] == 1
    assert detail["next_fire_at"] == "2026-12-01T08:00:00Z"  # 09:00 Paris, after 09:00 UTC now
    assert detail["revision"]["timezone"] == "Europe/Paris"
    assert detail["revision"]["created_by_principal_id"] == "alice"
    assert detail["revision"]["instruction"] == definition()["instruction"]


async def test_once_revision_timezone_is_utc(client: httpx.AsyncClient) -> None:
    detail = await create(client, cadence={"kind": "ONCE", "at": "2026-12-24T17:00:00+01:00"})
    assert detail["revision"]["timezone"] == "UTC"
    assert detail["revision"]["cadence"] == {"kind": "ONCE", "at": "2026-12-24T16:00:00Z"}
    assert detail["next_fire_at"] == "2026-12-24T16:00:00Z"


async def test_once_in_the_past_is_an_invalid_definition(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/schedules",
        json=definition(cadence={"kind": "ONCE", "at": "2026-01-01T00:00:00Z"}),
        headers={"Idempotency-Key": "k"},
    )
    assert response.status_code == 422
    assert response.json()["error"]["details"] == {"field": "cadence.at", "reason": "not_in_future"}


async def test_point_read_returns_the_complete_instruction_list_only_a_preview(
    client: httpx.AsyncClient,
) -> None:
    long_text = "Read every page of the quarterly report and summarize it. " * 40
    created = await create(client, instruction=long_text)
    listed = (await client.get("/v1/schedules")).json()["items"][0]
    assert "instruction" not in listed
    assert len(listed["instruction_preview"]) <= 160
    assert listed["instruction_preview"].endswith("…")
    read = (await client.get(f"/v1/schedules/{created['schedule_id']}")).json()
    assert read["revision"]["instruction"] == long_text


async def test_create_without_idempotency_key_is_request_invalid(client: httpx.AsyncClient) -> None:
    response = await client.post("/v1/schedules", json=definition())
    assert response.status_code == 400
    assert error_code(response) == "request.invalid"


async def test_same_idempotency_key_and_body_returns_the_same_schedule(
    client: httpx.AsyncClient,
) -> None:
    first = await create(client, key="key-1")
    again = await create(client, key="key-1")
    assert again["schedule_id"] == first["schedule_id"]
    listed = (await client.get("/v1/schedules")).json()["items"]
    assert len(listed) == 1


async def test_same_idempotency_key_different_body_conflicts(client: httpx.AsyncClient) -> None:
    await create(client, key="key-1")
    response = await client.post(
        "/v1/schedules", json=definition(title="Other"), headers={"Idempotency-Key": "key-1"}
    )
    assert response.status_code == 409
    assert error_code(response) == "request.idempotency_conflict"


async def test_idempotency_keys_are_per_principal(client: httpx.AsyncClient) -> None:
    mine = await create(client, key="shared")
    response = await client.post(
        "/v1/schedules",
        json=definition(title="Carol's"),
        headers={"Idempotency-Key": "shared", **as_("carol")},
    )
    assert response.status_code == 201
    assert response.json()["schedule_id"] != mine["schedule_id"]


async def test_update_writes_revision_and_keeps_unknown_fields(client: httpx.AsyncClient) -> None:
    created = await create(client, x_client_note={"color": "teal"})
    body = definition_of(created) | {"title": "Evening digest"}
    response = await client.patch(
        f"/v1/schedules/{created['schedule_id']}",
        json={"expected_revision": 1, "definition": body},
    )
    assert response.status_code == 200
    detail = response.json()
    assert detail["current_revision"] == 2
    assert detail["revision"]["title"] == "Evening digest"
    assert detail["revision"]["x_client_note"] == {"color": "teal"}


async def test_update_with_an_unchanged_definition_writes_no_revision(
    client: httpx.AsyncClient, store: SqlStore
) -> None:
    created = await create(client)
    response = await client.patch(
        f"/v1/schedules/{created['schedule_id']}",
        json={"expected_revision": 1, "definition": definition_of(created)},
    )
    assert response.status_code == 200
    assert response.json()["current_revision"] == 1
    assert len(store.schedules.revisions(UUID(created["schedule_id"]))) == 1


async def test_stale_expected_revision_conflicts_and_changes_nothing(
    client: httpx.AsyncClient,
) -> None:
    created = await create(client)
    path = f"/v1/schedules/{created['schedule_id']}"
    changed = definition_of(created) | {"title": "Two"}
    await client.patch(path, json={"expected_revision": 1, "definition": changed})
    stale = definition_of(created) | {"title": "Three"}
    response = await client.patch(path, json={"expected_revision": 1, "definition": stale})
    assert response.status_code == 409
    assert error_code(response) == "schedule.revision_conflict"
    assert response.json()["error"]["details"] == {"current_revision": 2}
    assert (await client.get(path)).json()["revision"]["title"] == "Two"
    for action in ("pause", "resume"):
        refused = await client.post(f"{path}/{action}", json={"expected_revision": 1})
        assert refused.status_code == 409
    cancel = await client.delete(path, params={"expected_revision": 1})
    assert error_code(cancel) == "schedule.revision_conflict"


async def test_pause_then_repeat_is_idempotent_and_clears_next_firing(
    client: httpx.AsyncClient,
) -> None:
    created = await create(client)
    path = f"/v1/schedules/{created['schedule_id']}/pause"
    first = (await client.post(path, json={"expected_revision": 1})).json()
    again = await client.post(path, json={"expected_revision": 1})
    assert first["state"] == "PAUSED"
    assert first["pause_reason"] == "user"
    assert first["next_fire_at"] is None
    assert again.status_code == 200
    assert again.json() == first


async def test_resume_never_backfills(client: httpx.AsyncClient, clock: Clock) -> None:
    created = await create(client)
    base = f"/v1/schedules/{created['schedule_id']}"
    await client.post(f"{base}/pause", json={"expected_revision": 1})
    clock.advance(days=3, hours=1)  # 2026-12-03T10:00Z, past three 09:00 Paris firings
    resumed = (await client.post(f"{base}/resume", json={"expected_revision": 1})).json()
    assert resumed["state"] == "ACTIVE"
    assert resumed["pause_reason"] is None
    assert resumed["next_fire_at"] == "2026-12-04T08:00:00Z"
    repeat = await client.post(f"{base}/resume", json={"expected_revision": 1})
    assert repeat.status_code == 200
    assert repeat.json()["updated_at"] == resumed["updated_at"]


async def test_cancel_is_terminal_idempotent_and_keeps_the_record(
    client: httpx.AsyncClient,
) -> None:
    created = await create(client)
    base = f"/v1/schedules/{created['schedule_id']}"
    cancelled = await client.delete(base, params={"expected_revision": 1})
    assert cancelled.status_code == 200
    assert cancelled.json()["state"] == "CANCELLED"
    assert cancelled.json()["next_fire_at"] is None
    again = await client.delete(base, params={"expected_revision": 1})
    assert again.status_code == 200
    assert (await client.get(base)).json()["state"] == "CANCELLED"


@pytest.mark.parametrize("action", ["pause", "resume", "update"])
async def test_mutating_a_cancelled_schedule_is_terminal(
    client: httpx.AsyncClient, action: str
) -> None:
    created = await create(client)
    base = f"/v1/schedules/{created['schedule_id']}"
    await client.delete(base, params={"expected_revision": 1})
    if action == "update":
        body = {"expected_revision": 1, "definition": definition_of(created) | {"title": "X"}}
        response = await client.patch(base, json=body)
    else:
        response = await client.post(f"{base}/{action}", json={"expected_revision": 1})
    assert response.status_code == 409
    assert error_code(response) == "schedule.terminal"


async def test_completed_schedule_refuses_cancel_and_pause(
    client: httpx.AsyncClient, store: SqlStore
) -> None:
    created = await create(client)
    view = store.schedules.get(Owner("acme", "alice"), UUID(created["schedule_id"]))
    assert view is not None
    completed = ScheduleChange("COMPLETED", None, None, 0, view.schedule.updated_at, None, ())
    assert store.schedules.apply(view.schedule, completed)
    base = f"/v1/schedules/{created['schedule_id']}"
    for response in (
        await client.delete(base, params={"expected_revision": 1}),
        await client.post(f"{base}/pause", json={"expected_revision": 1}),
        await client.post(f"{base}/resume", json={"expected_revision": 1}),
    ):
        assert response.status_code == 409
        assert error_code(response) == "schedule.terminal"


async def test_update_of_paused_schedule_stays_paused_without_next_firing(
    client: httpx.AsyncClient,
) -> None:
    created = await create(client)
    base = f"/v1/schedules/{created['schedule_id']}"
    await client.post(f"{base}/pause", json={"expected_revision": 1})
    body = definition_of(created) | {
        "cadence": {"kind": "WEEKLY", "local_time": "08:30", "weekdays": [1], "timezone": "UTC"}
    }
    updated = (await client.patch(base, json={"expected_revision": 1, "definition": body})).json()
    assert updated["state"] == "PAUSED"
    assert updated["next_fire_at"] is None
    assert updated["current_revision"] == 2
    resumed = (await client.post(f"{base}/resume", json={"expected_revision": 2})).json()
    assert resumed["next_fire_at"] == "2026-12-07T08:30:00Z"


async def test_update_of_active_schedule_recomputes_next_firing(
    client: httpx.AsyncClient,
) -> None:
    created = await create(client)
    body = definition_of(created) | {
        "cadence": {"kind": "DAILY", "local_time": "21:00:00", "timezone": "Asia/Tokyo"}
    }
    updated = await client.patch(
        f"/v1/schedules/{created['schedule_id']}", json={"expected_revision": 1, "definition": body}
    )
    assert updated.json()["next_fire_at"] == "2026-11-30T12:00:00Z"


async def test_audit_events_record_transitions_without_instructions(
    client: httpx.AsyncClient, store: SqlStore
) -> None:
    created = await create(client)
    base = f"/v1/schedules/{created['schedule_id']}"
    await client.post(f"{base}/pause", json={"expected_revision": 1})
    await client.post(f"{base}/resume", json={"expected_revision": 1})
    await client.delete(base, params={"expected_revision": 1})
    events = store.audit.for_schedule(UUID(created["schedule_id"]))
    assert [e.event_type for e in events] == [
        "schedule.created",
        "schedule.paused",
        "schedule.resumed",
        "schedule.cancelled",
    ]
    assert events[1].payload["previous_state"] == "ACTIVE"
    assert all("Summarize" not in str(e.payload) for e in events)
