"""Records as the JSON of docs/API.md: instants in UTC with ``Z``, ids as strings.

Only the point read (``schedule_detail``) carries the complete instruction;
list rows carry the bounded ``instruction_preview``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from server.identity import Principal
from server.scheduling.definition import instruction_preview
from server.storage.jsontext import load_object
from server.storage.records import (
    FolderRecord,
    MessageRecord,
    OccurrenceRecord,
    ProfileRecord,
    ScheduleView,
    SessionRecord,
)


def instant(value: datetime | None) -> str | None:
    if value is None:
        return None
    utc = value.astimezone(UTC)
    text = utc.strftime("%Y-%m-%dT%H:%M:%S")
    if utc.microsecond:
        text += f".{utc.microsecond:06d}"
    return text + "Z"


def _schedule_fields(view: ScheduleView) -> dict[str, Any]:
    s = view.schedule
    return {
        "schedule_id": str(s.schedule_id),
        "state": s.state,
        "pause_reason": s.pause_reason,
        "current_revision": s.current_revision,
        "next_fire_at": instant(s.next_fire_at),
        "created_at": instant(s.created_at),
        "updated_at": instant(s.updated_at),
    }


def schedule_summary(view: ScheduleView) -> dict[str, Any]:
    definition = load_object(view.revision.definition)
    return {
        **_schedule_fields(view),
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
        **_schedule_fields(view),
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
