"""Definition validation, authority checks, website binding and the secret scanner."""

from __future__ import annotations

import logging
from typing import Any
from uuid import uuid4

import httpx
import pytest
from sqlalchemy import text

from server.storage.sql.store import SqlStore
from tests.server.api.conftest import (
    add_profile,
    as_,
    create,
    definition,
    definition_of,
    error_code,
)


async def post(client: httpx.AsyncClient, body: dict[str, Any], **headers: str) -> httpx.Response:
    return await client.post(
        "/v1/schedules", json=body, headers={"Idempotency-Key": str(uuid4()), **headers}
    )


@pytest.mark.parametrize(
    ("changes", "field", "reason"),
    [
        ({"title": ""}, "title", "empty"),
        ({"instruction": None}, "instruction", "missing_field"),
        ({"agent_id": "not-a-uuid"}, "agent_id", "invalid_uuid"),
        ({"requested_scopes": ["admin"]}, "requested_scopes", "unknown_scope"),
        ({"run_timeout_seconds": 0}, "run_timeout_seconds", "not_positive"),
        ({"misfire_grace_seconds": 10**7}, "misfire_grace_seconds", "above_ceiling"),
        ({"limits": {"max_steps": 1}}, "limits.max_model_calls", "missing_field"),
        (
            {
                "cadence": {
                    "kind": "WEEKLY",
                    "local_time": "08:00",
                    "weekdays": [1, 1],
                    "timezone": "UTC",
                }
            },
            "cadence.weekdays",
            "weekday_duplicate",
        ),
        (
            {"cadence": {"kind": "DAILY", "local_time": "08:00", "timezone": "Mars/Olympus"}},
            "cadence.timezone",
            "invalid_timezone",
        ),
        (
            {"cadence": {"kind": "ONCE", "at": "2026-12-24T17:00:00"}},
            "cadence.at",
            "naive_datetime",
        ),
        ({"browser_profile_id": str(uuid4())}, "requested_scopes", "browser_scope_required"),
    ],
)
async def test_invalid_definitions_name_field_and_reason(
    client: httpx.AsyncClient, changes: dict[str, Any], field: str, reason: str
) -> None:
    response = await post(client, definition(**changes))
    assert response.status_code == 422
    assert error_code(response) == "schedule.invalid_definition"
    assert response.json()["error"]["details"] == {"field": field, "reason": reason}


async def test_requested_scope_not_held_is_refused(client: httpx.AsyncClient) -> None:
    response = await post(
        client, definition(requested_scopes=["schedule.cancel"]), **as_("nocancel")
    )
    assert response.status_code == 422
    assert error_code(response) == "schedule.scope_not_granted"
    assert response.json()["error"]["details"]["scope"] == "schedule.cancel"


async def test_binding_a_ready_profile_of_the_owner_succeeds(
    client: httpx.AsyncClient, store: SqlStore
) -> None:
    profile = add_profile(store, "alice", "READY")
    created = await create(client)
    body = definition_of(created) | {
        "browser_profile_id": str(profile),
        "requested_scopes": ["browser.profile.read"],
    }
    response = await client.patch(
        f"/v1/schedules/{created['schedule_id']}", json={"expected_revision": 1, "definition": body}
    )
    assert response.status_code == 200
    assert response.json()["revision"]["browser_profile_id"] == str(profile)
    listed = (await client.get("/v1/schedules")).json()["items"][0]
    assert listed["browser_profile_id"] == str(profile)


@pytest.mark.parametrize(
    ("owner", "state", "reason"),
    [("alice", "EXPIRED", "not_ready"), ("carol", "READY", "not_found"), (None, None, "not_found")],
)
async def test_binding_a_foreign_missing_or_unready_profile_is_refused(
    client: httpx.AsyncClient,
    store: SqlStore,
    owner: str | None,
    state: str | None,
    reason: str,
) -> None:
    profile = uuid4() if owner is None or state is None else add_profile(store, owner, state)
    body = definition(browser_profile_id=str(profile), requested_scopes=["browser.profile.read"])
    response = await post(client, body)
    assert response.status_code == 422
    assert error_code(response) == "schedule.browser_profile_unavailable"
    assert response.json()["error"]["details"]["reason"] == reason


async def test_unchanged_definition_bound_to_a_since_expired_profile_is_still_200(
    client: httpx.AsyncClient, store: SqlStore
) -> None:
    profile = add_profile(store, "alice", "READY")
    body = definition(browser_profile_id=str(profile), requested_scopes=["browser.profile.read"])
    created = (await post(client, body)).json()
    with store.engine.begin() as connection:
        connection.execute(
            text("UPDATE browser_profiles SET state = 'EXPIRED' WHERE id = :id"),
            {"id": profile.hex},
        )
    response = await client.patch(
        f"/v1/schedules/{created['schedule_id']}",
        json={"expected_revision": 1, "definition": definition_of(created)},
    )
    assert response.status_code == 200, response.text
    assert response.json()["current_revision"] == 1
    changed = definition_of(created) | {"title": "Renamed while the sign-in is expired"}
    refused = await client.patch(
        f"/v1/schedules/{created['schedule_id']}",
        json={"expected_revision": 1, "definition": changed},
    )
    assert error_code(refused) == "schedule.browser_profile_unavailable"


async def test_binding_without_holding_browser_scope_is_refused(
    client: httpx.AsyncClient, store: SqlStore
) -> None:
    profile = add_profile(store, "nobrowser", "READY")
    body = definition(browser_profile_id=str(profile), requested_scopes=["browser.profile.read"])
    response = await post(client, body, **as_("nobrowser"))
    assert error_code(response) == "schedule.scope_not_granted"


SECRETS = [
    "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "AKIA" + "IOSFODNN7EXAMPLE",
    "xoxb-" + "123456789012-abcdefghijkl",
    "sk-" + "proj-abcdefghijklmnopqrstuvwxyz123456",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "-----BEGIN RSA PRIVATE KEY-----",
    "password: Tr0ub4dor&3x",
    "https://admin:hunter22@db.internal.example.com",
    "Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345",
]


@pytest.mark.parametrize("secret", SECRETS)
async def test_secret_shaped_instructions_are_refused_and_never_stored_or_echoed(
    client: httpx.AsyncClient, store: SqlStore, secret: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    instruction = f"Log in to the dashboard with {secret} and export the report."
    response = await post(client, definition(instruction=instruction))
    assert response.status_code == 422
    assert error_code(response) == "schedule.secret_detected"
    assert response.json()["error"]["details"]["field"] == "instruction"
    assert secret not in response.text
    assert secret not in caplog.text
    with store.engine.connect() as connection:
        for table in (
            "schedules",
            "schedule_revisions",
            "audit_events",
            "schedule_idempotency_keys",
        ):
            dump = str(connection.execute(text(f"SELECT * FROM {table}")).all())
            assert secret not in dump


async def test_ordinary_instructions_mentioning_passwords_are_accepted(
    client: httpx.AsyncClient,
) -> None:
    created = await create(
        client, instruction="Remind me to rotate the password for the shared drive on Friday."
    )
    assert created["state"] == "ACTIVE"


async def test_validation_errors_never_echo_the_input(client: httpx.AsyncClient) -> None:
    secret = "ghp_" + "Z" * 36
    response = await client.patch(
        f"/v1/schedules/{uuid4()}", json={"expected_revision": "x", "definition": secret}
    )
    assert response.status_code == 400
    assert error_code(response) == "request.invalid"
    assert secret not in response.text
