"""JSON bodies of docs/API.md for the tests and the benches: one set of builders, two ways
to call them.

The ``*_json(**changes)`` builders hold every resource's complete, valid body
once; a keyword replaces a field (an aware ``datetime`` becomes an RFC 3339
instant, a ``UUID`` its string). The readable builders (``summary("a")``,
``session("s", schedule="digest", ...)``) are those same bodies named by
readable ids (``uid("a")`` is a stable UUID) for scenarios that speak of
several resources at once.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid5

from server.api.request_schemas import DEFINITION_EXAMPLE

NOW = datetime(2026, 12, 1, 7, 0, tzinfo=UTC)
"""The fake clock's instant in every view-model scenario unless a test moves it."""

_NAMESPACE = UUID("6f1c1d2e-0000-4000-8000-000000000000")


def uid(name: str) -> UUID:
    """A stable UUID for a readable name, so tests speak of "s1" not of hex."""
    return uuid5(_NAMESPACE, name)


def instant(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _with(body: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    for name, value in changes.items():
        if isinstance(value, datetime):
            value = instant(value)
        elif isinstance(value, UUID):
            value = str(value)
        body[name] = value
    return body


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
    return _with(body, changes)


def once_cadence_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"kind": "ONCE", "at": "2026-12-24T17:00:00Z"}
    return _with(body, changes)


def monthly_cadence_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "kind": "MONTHLY",
        "local_time": "18:00:00",
        "days_of_month": [1, 15],
        "last_day": True,
        "timezone": "Asia/Tokyo",
    }
    return _with(body, changes)


def yearly_cadence_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "kind": "YEARLY",
        "local_time": "07:00:00",
        "dates": [{"month": 2, "day": 29}],
        "timezone": "UTC",
    }
    return _with(body, changes)


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
    return _with(body, changes)


def summary_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "schedule_id": str(SCHEDULE_ID),
        "title": "Morning news digest",
        "state": "ACTIVE",
        "pause_reason": None,
        "current_revision": 3,
        "next_fire_at": "2026-12-01T16:00:00Z",
        "next_fire_adjustment": None,
        "cadence": {"kind": "DAILY", "local_time": "09:00:00", "timezone": "Europe/Paris"},
        "instruction_preview": INSTRUCTION[:40],
        "browser_profile_id": None,
        "created_at": "2026-11-01T10:00:00Z",
        "updated_at": "2026-11-02T10:00:00Z",
        "last_outcome": last_outcome_json(),
    }
    return _with(body, changes)


def last_outcome_json(**changes: Any) -> dict[str, Any]:
    """A failed run's outcome: the case a row warns about."""
    body: dict[str, Any] = {
        "nominal_fire_at": "2026-11-30T16:00:00Z",
        "disposition": "MATERIALIZED",
        "reason_code": None,
        "run_status": "FAILED",
        "failure_reason": "deadline_exceeded",
        "session_id": str(SESSION_ID),
        "needs_attention": True,
    }
    return _with(body, changes)


def counts_json(**changes: Any) -> dict[str, Any]:
    return _with({"current": 12, "history": 3, "needs_attention": 2}, changes)


def definition_json(**changes: Any) -> dict[str, Any]:
    """A complete, valid definition (what a create or a full-definition update sends).

    The server's own OpenAPI example, so the example is proven valid by every test.
    """
    return _with(copy.deepcopy(DEFINITION_EXAMPLE), changes)


def revision_json(**changes: Any) -> dict[str, Any]:
    """A revision as the point read answers it: a definition plus what the server derives."""
    definition = definition_json(
        instruction=INSTRUCTION,
        agent_id=AGENT_ID,
        requested_scopes=["browser.profile.read"],
        browser_profile_id=PROFILE_ID,
        cadence=cadence_json(),
    )
    body: dict[str, Any] = {
        "revision": 3,
        **definition,
        "timezone": "America/Los_Angeles",
        "created_by_principal_id": "alice",
        "created_at": "2026-11-02T10:00:00Z",
    }
    return _with(body, changes)


def detail_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "schedule_id": str(SCHEDULE_ID),
        "state": "PAUSED",
        "pause_reason": "failure_limit",
        "current_revision": 3,
        "next_fire_at": None,
        "next_fire_adjustment": None,
        "consecutive_failures": 2,
        "created_at": "2026-11-01T10:00:00Z",
        "updated_at": "2026-11-02T10:00:00Z",
        "last_outcome": last_outcome_json(),
        "revision": revision_json(),
    }
    return _with(body, changes)


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
    return _with(body, changes)


def profile_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "profile_id": str(PROFILE_ID),
        "display_name": "Work Google",
        "state": "READY",
        "allowed_origins": ["https://mail.google.com", "https://calendar.google.com"],
    }
    return _with(body, changes)


def session_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "session_id": str(SESSION_ID),
        "title": "Morning news digest",
        "last_activity_at": "2026-11-30T16:05:00Z",
        "folder_id": None,
        "metadata": {"schedule_id": str(SCHEDULE_ID)},
    }
    return _with(body, changes)


def message_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "message_id": str(MESSAGE_ID),
        "role": "assistant",
        "text": "Here is your digest.",
        "created_at": "2026-11-30T16:04:00Z",
    }
    return _with(body, changes)


def folder_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"folder_id": str(FOLDER_ID), "name": "Travel"}
    return _with(body, changes)


def principal_json(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "principal_id": "alice",
        "tenant_id": "acme",
        "display_name": "Alice Example",
        "scopes": ["schedule.read", "schedule.write"],
    }
    return _with(body, changes)


def agenda_item_json(**changes: Any) -> dict[str, Any]:
    """One ``GET /v1/agenda`` item: a future firing of a daily 09:00 Paris schedule."""
    body: dict[str, Any] = {
        "schedule_id": str(SCHEDULE_ID),
        "title": "Morning news digest",
        "state": "ACTIVE",
        "timezone": "Europe/Paris",
        "cadence": {"kind": "DAILY", "local_time": "09:00:00", "timezone": "Europe/Paris"},
        "at": "2026-12-01T08:00:00Z",
        "local_date": "2026-12-01",
        "local_time": "09:00:00",
        "scheduled_date": "2026-12-01",
        "scheduled_time": "09:00:00",
        "adjustment": None,
        "as_if_resumed": False,
        "disposition": None,
        "reason_code": None,
        "run_status": None,
        "clash_count": 1,
        "may_overlap": False,
    }
    return _with(body, changes)


def agenda_density_json(
    start: datetime,
    counts: list[int],
    *,
    step: timedelta = timedelta(hours=1),
    bucket: str = "hour",
    timezone: str = "UTC",
) -> dict[str, Any]:
    """A ``GET /v1/agenda/density`` answer: buckets ``step`` apart from ``start``, one per count."""
    starts = [start + step * index for index in range(len(counts) + 1)]
    buckets = [{"start": instant(at), "count": n} for at, n in zip(starts, counts, strict=False)]
    return {
        "from": instant(starts[0]),
        "to": instant(starts[-1]),
        "bucket": bucket,
        "timezone": timezone,
        "buckets": buckets,
    }


def scheduler_json(**changes: Any) -> dict[str, Any]:
    """``GET /v1/scheduler``: stopped 25 min before ``NOW``, one schedule due since 06:48."""
    body: dict[str, Any] = {
        "state": "stopped",
        "last_tick_at": "2026-12-01T06:35:00Z",
        "replicas_running": 0,
        "oldest_due_at": "2026-12-01T06:48:00Z",
        "due_backlog": 1,
    }
    return _with(body, changes)


def feed_json(**changes: Any) -> dict[str, Any]:
    """One feed of ``GET /v1/feeds`` (no address: only its creation answers with one)."""
    body: dict[str, Any] = {
        "feed_id": str(uid("feed")),
        "schedule_id": str(SCHEDULE_ID),
        "name": "Morning news digest",
        "created_at": "2026-12-01T06:30:00Z",
    }
    return _with(body, changes)


def page_json(*items: dict[str, Any], next_cursor: str | None = None) -> dict[str, Any]:
    return {"items": list(items), "next_cursor": next_cursor}


def envelope_json(code: str, message: str = "refused", **details: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details}}


# Readable builders: the bodies above, named by readable ids.


def summary(
    name: str,
    *,
    title: str | None = None,
    preview: str = "Summarize the overnight news",
    revision: int = 1,
    next_fire_at: datetime | None = None,
    **changes: Any,
) -> dict[str, Any]:
    return summary_json(
        **{
            "schedule_id": uid(name),
            "title": title or f"Schedule {name}",
            "instruction_preview": preview,
            "current_revision": revision,
            "next_fire_at": next_fire_at,
            "updated_at": "2026-11-20T10:00:00Z",
            **changes,
        }
    )


def revision_body(
    number: int = 3, *, title: str = "Morning news digest", **changes: Any
) -> dict[str, Any]:
    return revision_json(
        **{
            "revision": number,
            "title": title,
            "instruction": "Summarize the overnight news from my feeds, then list three headlines.",
            "agent_id": uid("agent"),
            "requested_scopes": [],
            "browser_profile_id": None,
            "limits": limits_json(max_model_calls=None, max_cost="5", reserve_model_calls=None),
            "max_consecutive_failures": 3,
            "created_by_principal_id": "local",
            "created_at": "2026-11-20T10:00:00Z",
            **changes,
        }
    )


def detail(
    name: str,
    *,
    state: str = "ACTIVE",
    pause_reason: str | None = None,
    revision: dict[str, Any] | None = None,
    consecutive_failures: int = 1,
    **changes: Any,
) -> dict[str, Any]:
    rev = revision or revision_body()
    return detail_json(
        **{
            "schedule_id": uid(name),
            "state": state,
            "pause_reason": pause_reason,
            "current_revision": rev["revision"],
            "consecutive_failures": consecutive_failures,
            "updated_at": "2026-11-20T10:00:00Z",
            "revision": rev,
            **changes,
        }
    )


def profile(name: str, *, origins: list[str] | None = None, **changes: Any) -> dict[str, Any]:
    if origins is not None:
        changes["allowed_origins"] = origins
    return profile_json(**{"profile_id": uid(name), "display_name": f"Profile {name}", **changes})


def principal(scopes: list[str] | None = None) -> dict[str, Any]:
    return principal_json(
        scopes=scopes
        if scopes is not None
        else ["schedule.read", "schedule.write", "browser.profile.read", "session.read"]
    )


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
    return session_json(
        session_id=uid(name),
        title=title or f"Session {name}",
        last_activity_at=last_activity_at,
        folder_id=uid(folder) if folder else None,
        metadata=meta,
    )


def message(name: str, *, role: str, text: str, created_at: datetime) -> dict[str, Any]:
    return message_json(message_id=uid(name), role=role, text=text, created_at=created_at)


def page(items: list[dict[str, Any]], next_cursor: str | None = None) -> dict[str, Any]:
    return page_json(*items, next_cursor=next_cursor)


def error(code: str, message: str = "", **details: Any) -> dict[str, Any]:
    return envelope_json(code, message, **details)


# The month projection (GET /v1/schedules/{id}/projection).

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
    **run: str | None,
) -> dict[str, Any]:
    """A projection's past occurrence; ``run`` adds ``run_status`` and ``failure_reason``
    as given (an older server sends neither)."""
    return {
        "occurrence_id": str(uid(name)),
        "nominal_fire_at": instant(nominal_fire_at),
        "disposition": disposition,
        "reason_code": reason_code,
        "session_id": str(uid(session)) if session else None,
        **run,
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
