"""Records as the JSON of docs/API.md: instants in UTC with ``Z``, ids as strings.

Only the point read (``schedule_detail``) carries the complete instruction;
list rows carry the bounded ``instruction_preview``. Both say how the civil
rule placed the next firing (``next_fire_adjustment``), from the same
calculator the projection and the worker use.
"""

from __future__ import annotations

from datetime import UTC, datetime, time
from typing import Any

from server.control.definition import instruction_preview
from server.control.projection import Projection
from server.domain.cadence import CadenceError, parse_cadence
from server.domain.projection import adjustment_at
from server.identity import Principal
from server.storage.jsontext import load_object
from server.storage.records import (
    FolderRecord,
    LastOutcome,
    MessageRecord,
    OccurrenceRecord,
    ProfileRecord,
    ScheduleCounts,
    ScheduleView,
    SessionRecord,
)


def instant(value: datetime | None) -> str | None:
    if value is None:
        return None
    # isoformat: the same text as strftime plus microseconds when there are any,
    # at a fraction of the cost (a projection writes hundreds of instants).
    return value.astimezone(UTC).replace(tzinfo=None).isoformat() + "Z"


def _schedule_fields(view: ScheduleView, definition: dict[str, Any]) -> dict[str, Any]:
    s = view.schedule
    return {
        "schedule_id": str(s.schedule_id),
        "state": s.state,
        "pause_reason": s.pause_reason,
        "current_revision": s.current_revision,
        "next_fire_at": instant(s.next_fire_at),
        "next_fire_adjustment": _adjustment(definition.get("cadence"), s.next_fire_at),
        "created_at": instant(s.created_at),
        "updated_at": instant(s.updated_at),
        "last_outcome": last_outcome(view.last_outcome),
    }


def last_outcome(outcome: LastOutcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {
        "nominal_fire_at": instant(outcome.nominal_fire_at),
        "disposition": outcome.disposition,
        "reason_code": outcome.reason_code,
        "run_status": outcome.run_status,
        "failure_reason": outcome.failure_reason,
        "session_id": None if outcome.session_id is None else str(outcome.session_id),
        "needs_attention": outcome.needs_attention,
    }


def schedule_counts(counts: ScheduleCounts) -> dict[str, Any]:
    return {
        "current": counts.current,
        "history": counts.history,
        "needs_attention": counts.needs_attention,
    }


def _adjustment(cadence: object, next_fire_at: datetime | None) -> str | None:
    if next_fire_at is None or not isinstance(cadence, dict):
        return None
    try:
        return adjustment_at(parse_cadence(cadence), next_fire_at)
    except CadenceError:
        return None  # a stored cadence that no longer reads: nothing to say about it


def schedule_summary(view: ScheduleView) -> dict[str, Any]:
    definition = load_object(view.revision.definition)
    return {
        **_schedule_fields(view, definition),
        "title": definition.get("title"),
        "cadence": definition.get("cadence"),
        "instruction_preview": instruction_preview(str(definition.get("instruction", ""))),
        "browser_profile_id": definition.get("browser_profile_id"),
    }


def schedule_detail(view: ScheduleView) -> dict[str, Any]:
    definition = load_object(view.revision.definition)
    cadence = definition.get("cadence")
    zone = cadence.get("timezone", "UTC") if isinstance(cadence, dict) else "UTC"
    revision = {
        **definition,
        "revision": view.revision.revision,
        "timezone": zone,
        "created_by_principal_id": view.revision.created_by_principal_id,
        "created_at": instant(view.revision.created_at),
    }
    return {
        **_schedule_fields(view, definition),
        "consecutive_failures": view.schedule.consecutive_failures,
        "revision": revision,
    }


def occurrence(record: OccurrenceRecord) -> dict[str, Any]:
    return {
        "occurrence_id": str(record.occurrence_id),
        "schedule_revision": record.schedule_revision,
        "nominal_fire_at": instant(record.nominal_fire_at),
        "disposition": record.disposition,
        "session_id": None if record.session_id is None else str(record.session_id),
        "run_id": None if record.run_id is None else str(record.run_id),
        "reason_code": record.reason_code,
        "materialized_at": instant(record.materialized_at),
        "links_erased_at": instant(record.links_erased_at),
        "created_at": instant(record.created_at),
    }


def projection(answer: Projection) -> dict[str, Any]:
    s = answer.view.schedule
    return {
        "schedule_id": str(s.schedule_id),
        "state": s.state,
        "pause_reason": s.pause_reason,
        "current_revision": s.current_revision,
        "timezone": answer.zone,
        "from": instant(answer.start),
        "to": instant(answer.end),
        "as_if_resumed": answer.as_if_resumed,
        "firings": [
            {
                "at": instant(firing.at),
                "local_date": firing.local.date().isoformat(),
                "local_time": _wall(firing.local.time()),
                "scheduled_date": firing.scheduled_date.isoformat(),
                "scheduled_time": _wall(firing.scheduled_time),
                "adjustment": firing.adjustment,
            }
            for firing in answer.firings
        ],
        "notices": [
            {"local_date": notice.local_date, "reason": notice.reason} for notice in answer.notices
        ],
        "past": [
            {
                "occurrence_id": str(o.occurrence_id),
                "nominal_fire_at": instant(o.nominal_fire_at),
                "disposition": o.disposition,
                "reason_code": o.reason_code,
                "session_id": None if o.session_id is None else str(o.session_id),
            }
            for o in answer.past
        ],
    }


def _wall(value: time) -> str:
    return f"{value.hour:02d}:{value.minute:02d}:{value.second:02d}"


def profile(record: ProfileRecord) -> dict[str, Any]:
    return {
        "profile_id": str(record.profile_id),
        "display_name": record.display_name,
        "state": record.state,
        "allowed_origins": list(record.allowed_origins),
    }


def session(record: SessionRecord) -> dict[str, Any]:
    return {
        "session_id": str(record.session_id),
        "title": record.title,
        "last_activity_at": instant(record.last_activity_at),
        "folder_id": None if record.folder_id is None else str(record.folder_id),
        "metadata": record.metadata,
    }


def message(record: MessageRecord) -> dict[str, Any]:
    return {
        "message_id": str(record.message_id),
        "role": record.role,
        "text": record.text,
        "created_at": instant(record.created_at),
    }


def folder(record: FolderRecord) -> dict[str, Any]:
    return {"folder_id": str(record.folder_id), "name": record.name}


def principal(record: Principal) -> dict[str, Any]:
    return {
        "principal_id": record.principal_id,
        "tenant_id": record.tenant_id,
        "display_name": record.display_name,
        "scopes": sorted(record.scopes),
    }
