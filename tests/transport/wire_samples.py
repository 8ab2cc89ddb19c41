"""Valid response bodies of docs/API.md, as the tests' starting point (JSON-ready dicts)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

SCHEDULE_ID = UUID("5a3d2c1b-0000-4000-8000-00000000a001")
AGENT_ID = UUID("5a3d2c1b-0000-4000-8000-00000000a002")
PROFILE_ID = UUID("5a3d2c1b-0000-4000-8000-00000000a003")
SESSION_ID = UUID("5a3d2c1b-0000-4000-8000-00000000a004")
FOLDER_ID = UUID("5a3d2c1b-0000-4000-8000-00000000a005")
OCCURRENCE_ID = UUID("5a3d2c1b-0000-4000-8000-00000000a006")
RUN_ID = UUID("5a3d2c1b-0000-4000-8000-00000000a007")
MESSAGE_ID = UUID("5a3d2c1b-0000-4000-8000-00000000a008")

INSTRUCTION = "Open the inbox and summarise every unread newsletter in five bullets."


def cadence_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "kind": "WEEKLY",
        "local_time": "08:00:00",
        "weekdays": [1, 3, 5],
        "timezone": "America/Los_Angeles",
    }
    body.update(changes)
    return body


def once_cadence_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"kind": "ONCE", "at": "2026-12-24T17:00:00Z"}
    body.update(changes)
    return body


def monthly_cadence_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "kind": "MONTHLY",
        "local_time": "18:00:00",
        "days_of_month": [1, 15],
        "last_day": True,
        "timezone": "Asia/Tokyo",
    }
    body.update(changes)
    return body


def yearly_cadence_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "kind": "YEARLY",
        "local_time": "07:00:00",
        "dates": [{"month": 2, "day": 29}],
        "timezone": "UTC",
    }
    body.update(changes)
    return body


def limits_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "max_steps": 20,
        "max_model_calls": 20,
        "max_tool_calls": 40,
        "max_cost": "5.00",
        "reserve_steps": 2,
        "reserve_model_calls": 2,
        "reserve_cost": "1.00",
    }
    body.update(changes)
    return body


def summary_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "schedule_id": str(SCHEDULE_ID),
        "title": "Morning news digest",
        "state": "ACTIVE",
        "pause_reason": None,
        "current_revision": 3,
        "next_fire_at": "2026-12-01T16:00:00Z",
        "cadence": {"kind": "DAILY", "local_time": "09:00:00", "timezone": "Europe/Paris"},
        "instruction_preview": INSTRUCTION[:40],
        "browser_profile_id": None,
        "created_at": "2026-11-01T10:00:00Z",
        "updated_at": "2026-11-02T10:00:00Z",
    }
    body.update(changes)
    return body


def revision_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "revision": 3,
        "title": "Morning news digest",
        "instruction": INSTRUCTION,
        "agent_id": str(AGENT_ID),
        "agent_version": "2026.11.2",
        "policy_profile": "default",
        "requested_scopes": ["browser.profile.read"],
        "browser_profile_id": str(PROFILE_ID),
        "limits": limits_json(),
        "run_timeout_seconds": 300,
        "cadence": cadence_json(),
        "timezone": "America/Los_Angeles",
        "misfire_grace_seconds": 3600,
        "max_consecutive_failures": 2,
        "created_by_principal_id": "alice",
        "created_at": "2026-11-02T10:00:00Z",
    }
    body.update(changes)
    return body


def detail_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "schedule_id": str(SCHEDULE_ID),
        "state": "PAUSED",
        "pause_reason": "failure_limit",
        "current_revision": 3,
        "next_fire_at": None,
        "consecutive_failures": 2,
        "created_at": "2026-11-01T10:00:00Z",
        "updated_at": "2026-11-02T10:00:00Z",
        "revision": revision_json(),
    }
    body.update(changes)
    return body


def occurrence_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "occurrence_id": str(OCCURRENCE_ID),
        "schedule_revision": 2,
        "nominal_fire_at": "2026-11-30T16:00:00Z",
        "disposition": "MATERIALIZED",
        "session_id": str(SESSION_ID),
        "run_id": str(RUN_ID),
        "reason_code": None,
        "authority_version": "v1",
        "materialized_at": "2026-11-30T16:00:02Z",
        "links_erased_at": None,
        "created_at": "2026-11-30T16:00:01Z",
    }
    body.update(changes)
    return body


def profile_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "profile_id": str(PROFILE_ID),
        "display_name": "Work Google",
        "state": "READY",
        "allowed_origins": ["https://mail.google.com", "https://calendar.google.com"],
    }
    body.update(changes)
    return body


def session_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "session_id": str(SESSION_ID),
        "title": "Morning news digest",
        "last_activity_at": "2026-11-30T16:05:00Z",
        "folder_id": None,
        "metadata": {"schedule_id": str(SCHEDULE_ID)},
    }
    body.update(changes)
    return body


def message_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "message_id": str(MESSAGE_ID),
        "role": "assistant",
        "text": "Here is your digest.",
        "created_at": "2026-11-30T16:04:00Z",
    }
    body.update(changes)
    return body


def folder_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"folder_id": str(FOLDER_ID), "name": "Travel"}
    body.update(changes)
    return body


def principal_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "principal_id": "alice",
        "tenant_id": "acme",
        "display_name": "Alice Example",
        "scopes": ["schedule.read", "schedule.write"],
    }
    body.update(changes)
    return body


def page_json(*items: dict[str, Any], next_cursor: str | None = None) -> dict[str, Any]:
    return {"items": list(items), "next_cursor": next_cursor}


def envelope_json(code: str, message: str = "refused", **details: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details}}
