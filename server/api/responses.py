"""The answers of docs/API.md: one pydantic model per shape, which both renders and describes it.

Each model's ``of`` builds it from storage records and validates it;
``answer`` serializes it as the HTTP response; the published OpenAPI document
takes its schemas from the same classes. Instants go out in UTC with ``Z``,
ids as strings; every object allows properties beyond the listed ones
(servers may add fields). The schedule routes' shapes are in
``server.api.schedule_responses``; the rest, and what both share, are here.
"""

# No postponed annotations: pydantic builds these schemas from the annotations.

from collections.abc import Mapping
from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any
from uuid import UUID

from fastapi import Response
from pydantic import AfterValidator, AwareDatetime, BaseModel, Field

from server.api.request_schemas import Open
from server.control.scheduler_status import SchedulerStatus as SchedulerStatusRecord
from server.domain.states import ProfileState, SchedulerState
from server.identity import Principal as Caller
from server.storage.records import FolderRecord, MessageRecord, ProfileRecord, SessionRecord


def _in_utc(value: datetime) -> datetime:
    return value if value.tzinfo is UTC else value.astimezone(UTC)


Instant = Annotated[AwareDatetime, AfterValidator(_in_utc)]
"""An aware instant; it goes out in UTC, written with ``Z``."""


def open_vocabulary(values: type[StrEnum]) -> str:
    """A field's description naming today's values of a set the server may extend."""
    return f"{', '.join(values)}; others may be added."


def answer(
    body: BaseModel, status_code: int = 200, headers: Mapping[str, str] | None = None
) -> Response:
    """``body`` as the HTTP answer, serialized by its own model."""
    return Response(
        body.model_dump_json(by_alias=True),
        status_code=status_code,
        headers=headers,
        media_type="application/json",
    )


class BrowserProfile(Open):
    profile_id: UUID
    display_name: str
    state: str = Field(description=open_vocabulary(ProfileState))
    allowed_origins: list[str]

    @classmethod
    def of(cls, record: ProfileRecord) -> "BrowserProfile":
        return cls(
            profile_id=record.profile_id,
            display_name=record.display_name,
            state=record.state,
            allowed_origins=list(record.allowed_origins),
        )


class Session(Open):
    session_id: UUID
    title: str
    last_activity_at: Instant
    folder_id: UUID | None
    metadata: dict[str, Any]

    @classmethod
    def of(cls, record: SessionRecord) -> "Session":
        return cls(
            session_id=record.session_id,
            title=record.title,
            last_activity_at=record.last_activity_at,
            folder_id=record.folder_id,
            metadata=record.metadata,
        )


class Message(Open):
    message_id: UUID
    role: str = Field(description="user or assistant; others may be added.")
    text: str
    created_at: Instant

    @classmethod
    def of(cls, record: MessageRecord) -> "Message":
        return cls(
            message_id=record.message_id,
            role=record.role,
            text=record.text,
            created_at=record.created_at,
        )


class Folder(Open):
    folder_id: UUID
    name: str

    @classmethod
    def of(cls, record: FolderRecord) -> "Folder":
        return cls(folder_id=record.folder_id, name=record.name)


class Principal(Open):
    principal_id: str
    tenant_id: str
    display_name: str
    scopes: list[str]

    @classmethod
    def of(cls, caller: Caller) -> "Principal":
        return cls(
            principal_id=caller.principal_id,
            tenant_id=caller.tenant_id,
            display_name=caller.display_name,
            scopes=sorted(caller.scopes),
        )


class ProbeStatus(Open):
    """The process is up (``ok``) or ready for traffic (``ready``)."""

    status: str


class SchedulerStatus(Open):
    """Whether firings are happening, for the whole cluster, with the caller's due backlog."""

    state: str = Field(
        description=f"{open_vocabulary(SchedulerState)} late: the newest heartbeat of any"
        " replica is older than 30 s; stopped: older than 2 min, or none ever (server options)."
    )
    last_tick_at: Instant | None = Field(
        description="The newest heartbeat of any replica; null when none ever ticked."
    )
    replicas_running: int = Field(ge=0, description="Replicas whose heartbeat is not late.")
    oldest_due_at: Instant | None = Field(
        description="The earliest next_fire_at among the caller's due schedules; null if none."
    )
    due_backlog: int = Field(
        ge=0, description="The caller's ACTIVE schedules whose next firing has come."
    )

    @classmethod
    def of(cls, status: SchedulerStatusRecord) -> "SchedulerStatus":
        return cls(
            state=status.state,
            last_tick_at=status.last_tick_at,
            replicas_running=status.replicas_running,
            oldest_due_at=status.oldest_due_at,
            due_backlog=status.due_backlog,
        )


class BrowserProfilePage(Open):
    items: list[BrowserProfile]
    next_cursor: str | None


class SessionPage(Open):
    items: list[Session]
    next_cursor: str | None


class MessagePage(Open):
    items: list[Message]
    next_cursor: str | None


class FolderPage(Open):
    items: list[Folder]
    next_cursor: str | None


class ErrorBody(Open):
    code: str = Field(description="Stable and machine-readable: see docs/API.md.")
    message: str = Field(description="For people; never parse it.")
    details: dict[str, Any]


class ErrorEnvelope(Open):
    """Every non-2xx answer."""

    error: ErrorBody
