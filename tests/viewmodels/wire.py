"""JSON bodies shaped exactly like ``API.md``, for respx routes in view-model tests."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID, uuid5

_NAMESPACE = UUID("6f1c1d2e-0000-4000-8000-000000000000")

NOW = datetime(2026, 12, 1, 7, 0, tzinfo=UTC)
"""The fake clock's instant in every scenario unless a test moves it."""


def uid(name: str) -> UUID:
    """A stable UUID for a readable name, so tests speak of "s1" not of hex."""
    return uuid5(_NAMESPACE, name)


def instant(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


DAILY_PARIS: dict[str, Any] = {
    "kind": "DAILY",
    "local_time": "09:00:00",
    "timezone": "Europe/Paris",
}


def summary(
    name: str,
    *,
    title: str | None = None,
    state: str = "ACTIVE",
    pause_reason: str | None = None,
    cadence: dict[str, Any] | None = None,
    next_fire_at: datetime | None = None,
    next_fire_adjustment: str | None = None,
    preview: str = "Summarize the overnight news",
    browser_profile_id: UUID | None = None,
    revision: int = 1,
) -> dict[str, Any]:
    return {
        "schedule_id": str(uid(name)),
        "title": title or f"Schedule {name}",
        "state": state,
        "pause_reason": pause_reason,
        "current_revision": revision,
        "next_fire_at": instant(next_fire_at) if next_fire_at else None,
        "next_fire_adjustment": next_fire_adjustment,
        "cadence": cadence or DAILY_PARIS,
        "instruction_preview": preview,
        "browser_profile_id": str(browser_profile_id) if browser_profile_id else None,
        "created_at": "2026-11-01T10:00:00Z",
        "updated_at": "2026-11-20T10:00:00Z",
    }


def revision_body(
    number: int = 3,
    *,
    title: str = "Morning news digest",
    browser_profile_id: UUID | None = None,
    requested_scopes: list[str] | None = None,
    cadence: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "revision": number,
        "title": title,
        "instruction": "Summarize the overnight news from my feeds, then list three headlines.",
        "agent_id": str(uid("agent")),
        "agent_version": "2026.11.2",
        "policy_profile": "default",
        "requested_scopes": requested_scopes if requested_scopes is not None else [],
        "browser_profile_id": str(browser_profile_id) if browser_profile_id else None,
        "limits": {
            "max_steps": 20,
            "max_model_calls": None,
            "max_tool_calls": 40,
            "max_cost": "5",
            "reserve_steps": 2,
            "reserve_model_calls": None,
            "reserve_cost": "1.00",
        },
        "run_timeout_seconds": 300,
        "cadence": cadence
        or {
            "kind": "WEEKLY",
            "local_time": "08:00:00",
            "weekdays": [1, 3, 5],
            "timezone": "America/Los_Angeles",
        },
        "timezone": "America/Los_Angeles",
        "misfire_grace_seconds": 3600,
        "max_consecutive_failures": 3,
        "created_by_principal_id": "local",
        "created_at": "2026-11-20T10:00:00Z",
    }
    body.update(extra)
    return body


def detail(
    name: str,
    *,
    state: str = "ACTIVE",
    pause_reason: str | None = None,
    revision: dict[str, Any] | None = None,
    next_fire_at: datetime | None = None,
    next_fire_adjustment: str | None = None,
    consecutive_failures: int = 1,
) -> dict[str, Any]:
    rev = revision or revision_body()
    return {
        "schedule_id": str(uid(name)),
        "state": state,
        "pause_reason": pause_reason,
        "current_revision": rev["revision"],
        "next_fire_at": instant(next_fire_at) if next_fire_at else None,
        "next_fire_adjustment": next_fire_adjustment,
        "consecutive_failures": consecutive_failures,
        "created_at": "2026-11-01T10:00:00Z",
        "updated_at": "2026-11-20T10:00:00Z",
        "revision": rev,
    }


def profile(name: str, *, state: str = "READY", origins: list[str] | None = None) -> dict[str, Any]:
    return {
        "profile_id": str(uid(name)),
        "display_name": f"Profile {name}",
        "state": state,
        "allowed_origins": origins
        if origins is not None
        else ["https://mail.google.com", "https://calendar.google.com"],
    }


def principal(scopes: list[str] | None = None) -> dict[str, Any]:
    return {
        "principal_id": "alice",
        "tenant_id": "acme",
        "display_name": "Alice Example",
        "scopes": scopes
        if scopes is not None
        else ["schedule.read", "schedule.write", "browser.profile.read", "session.read"],
    }


def session(
    name: str,
    *,
    last_activity_at: datetime,
    title: str | None = None,
    schedule: str | None = None,
    folder: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> dict[str, Any]:
    meta = dict(metadata or {})
    if schedule is not None:
        meta["schedule_id"] = str(uid(schedule))
    return {
        "session_id": str(uid(name)),
        "title": title or f"Session {name}",
        "last_activity_at": instant(last_activity_at),
        "folder_id": str(uid(folder)) if folder else None,
        "metadata": meta,
    }


def message(name: str, *, role: str, text: str, created_at: datetime) -> dict[str, Any]:
    return {
        "message_id": str(uid(name)),
        "role": role,
        "text": text,
        "created_at": instant(created_at),
    }


def page(items: list[dict[str, Any]], next_cursor: str | None = None) -> dict[str, Any]:
    return {"items": items, "next_cursor": next_cursor}


def error(code: str, message: str = "", **details: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details}}


PROJECTION_PATH = r"^/v1/schedules/(?P<schedule_id>[^/]+)/projection$"
"""The projection route as a respx ``path__regex``; registering it again replaces the route."""


def firing(
    at: datetime,
    *,
    local: datetime | None = None,
    scheduled: datetime | None = None,
    adjustment: str | None = None,
) -> dict[str, Any]:
    """One projected firing; ``local`` is ``at`` on the schedule zone's clock (aware or naive),
    ``scheduled`` the date and wall time the rule named (``local`` unless it moved)."""
    local = local or at
    scheduled = scheduled or local
    return {
        "at": instant(at),
        "local_date": local.date().isoformat(),
        "local_time": local.strftime("%H:%M:%S"),
        "scheduled_date": scheduled.date().isoformat(),
        "scheduled_time": scheduled.strftime("%H:%M:%S"),
        "adjustment": adjustment,
    }


def notice(local_date: str, reason: str) -> dict[str, Any]:
    return {"local_date": local_date, "reason": reason}


def past(
    name: str,
    nominal_fire_at: datetime,
    disposition: str = "MATERIALIZED",
    *,
    reason_code: str | None = None,
    session: str | None = None,
) -> dict[str, Any]:
    return {
        "occurrence_id": str(uid(name)),
        "nominal_fire_at": instant(nominal_fire_at),
        "disposition": disposition,
        "reason_code": reason_code,
        "session_id": str(uid(session)) if session else None,
    }


def projection(
    schedule_id: UUID | str,
    start: str,
    end: str,
    *,
    firings: list[dict[str, Any]] | None = None,
    notices: list[dict[str, Any]] | None = None,
    past_items: list[dict[str, Any]] | None = None,
    state: str = "ACTIVE",
    timezone: str = "Europe/London",
    as_if_resumed: bool = False,
) -> dict[str, Any]:
    """A projection answer for the window ``[start, end)`` (the request's own ``from``/``to``)."""
    return {
        "schedule_id": str(schedule_id),
        "state": state,
        "pause_reason": "user" if state == "PAUSED" else None,
        "current_revision": 1,
        "timezone": timezone,
        "from": start,
        "to": end,
        "as_if_resumed": as_if_resumed,
        "firings": firings or [],
        "notices": notices or [],
        "past": past_items or [],
    }
