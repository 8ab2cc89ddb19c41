"""The answers of docs/API.md as JSON Schema, for the published OpenAPI document.

Routes build their answers with ``server.api.wire``; these models describe the
same shapes so a generated client gets them right, and nothing validates a
response through them. The schemathesis suite
(tests/server/api/test_schemathesis.py) checks every real answer against these
schemas, so a drift fails a test. Every object allows properties beyond the
ones listed: servers may add fields.
"""

# No postponed annotations: pydantic builds these schemas from the annotations.

from typing import Annotated, Any
from uuid import UUID

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from server.api.request_schemas import Cadence, Limits, LocalTime, Open
from server.control.definition import PREVIEW_LENGTH

_ADJUSTMENT = (
    "How a clock change placed the firing: MOVED_TO_TRANSITION (its wall time did not exist"
    " that day) or EARLIER_OF_TWO (it happened twice; the earlier fires); null when neither."
    " Others may be added."
)


class LastOutcome(Open):
    """What became of the schedule's latest firing."""

    nominal_fire_at: AwareDatetime
    disposition: str = Field(
        description="MATERIALIZED, MISSED, SKIPPED_OVERLAP, AUTHORIZATION_FAILED,"
        " CONFIGURATION_FAILED; others may be added."
    )
    reason_code: str | None
    run_status: str | None = Field(
        description="QUEUED, RUNNING, COMPLETED, FAILED, CANCELLED when a run exists."
    )
    failure_reason: str | None = Field(description="Why the run FAILED, e.g. deadline_exceeded.")
    session_id: UUID | None
    needs_attention: bool


_LAST_OUTCOME = "The latest firing's outcome; null when the schedule never fired."


class ScheduleCounts(Open):
    """The caller's schedules per view, with the same optional search."""

    current: int = Field(ge=0, description="ACTIVE and PAUSED.")
    history: int = Field(ge=0, description="COMPLETED and CANCELLED.")
    needs_attention: int = Field(ge=0, description="Any state, needing attention.")


class ScheduleSummary(Open):
    schedule_id: UUID
    title: str
    state: str = Field(description="ACTIVE, PAUSED, COMPLETED, CANCELLED; others may be added.")
    pause_reason: str | None
    current_revision: int
    next_fire_at: AwareDatetime | None
    next_fire_adjustment: str | None = Field(description=_ADJUSTMENT)
    cadence: Cadence
    instruction_preview: str = Field(max_length=PREVIEW_LENGTH)
    browser_profile_id: UUID | None
    created_at: AwareDatetime
    updated_at: AwareDatetime
    last_outcome: LastOutcome | None = Field(description=_LAST_OUTCOME)


class RevisionBody(Open):
    revision: int
    title: str
    instruction: str
    agent_id: UUID
    agent_version: str
    policy_profile: str
    requested_scopes: list[str]
    browser_profile_id: UUID | None
    limits: Limits
    run_timeout_seconds: int
    cadence: Cadence
    timezone: str | None
    misfire_grace_seconds: int
    max_consecutive_failures: int
    created_by_principal_id: str
    created_at: AwareDatetime


class ScheduleDetail(Open):
    schedule_id: UUID
    state: str
    pause_reason: str | None
    current_revision: int
    next_fire_at: AwareDatetime | None
    next_fire_adjustment: str | None = Field(description=_ADJUSTMENT)
    consecutive_failures: int
    created_at: AwareDatetime
    updated_at: AwareDatetime
    last_outcome: LastOutcome | None = Field(description=_LAST_OUTCOME)
    revision: RevisionBody


class Occurrence(Open):
    occurrence_id: UUID
    schedule_revision: int
    nominal_fire_at: AwareDatetime
    disposition: str
    session_id: UUID | None
    run_id: UUID | None
    reason_code: str | None
    materialized_at: AwareDatetime | None
    links_erased_at: AwareDatetime | None
    created_at: AwareDatetime


LocalDate = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$", description="YYYY-MM-DD")]


class ProjectedFiring(Open):
    at: AwareDatetime
    local_date: LocalDate = Field(description="The firing's date in the schedule's zone.")
    local_time: LocalTime = Field(description="The firing's wall time in the schedule's zone.")
    scheduled_date: LocalDate = Field(description="The date the cadence selected.")
    scheduled_time: LocalTime = Field(description="The wall time the cadence names.")
    adjustment: str | None = Field(description=_ADJUSTMENT)


class ProjectionNotice(Open):
    local_date: LocalDate = Field(
        description="The selected date; for DAY_NOT_IN_MONTH and NOT_A_LEAP_YEAR no real date."
    )
    reason: str = Field(
        description="DATE_DOES_NOT_EXIST, DAY_NOT_IN_MONTH, NOT_A_LEAP_YEAR; others may be added."
    )


class PastOccurrence(Open):
    occurrence_id: UUID
    nominal_fire_at: AwareDatetime
    disposition: str
    reason_code: str | None
    session_id: UUID | None


class Projection(Open):
    """The schedule's firings, non-firing dates and past occurrences in the window."""

    schedule_id: UUID
    state: str
    pause_reason: str | None
    current_revision: int
    timezone: str
    from_: AwareDatetime = Field(alias="from")
    to: AwareDatetime
    as_if_resumed: bool = Field(description="PAUSED: the firings it would make if resumed now.")
    firings: list[ProjectedFiring]
    notices: list[ProjectionNotice]
    past: list[PastOccurrence] = Field(description="Oldest first.")


class BrowserProfile(Open):
    profile_id: UUID
    display_name: str
    state: str = Field(description="READY, PENDING, EXPIRED, REVOKED; others may be added.")
    allowed_origins: list[str]


class Session(Open):
    session_id: UUID
    title: str
    last_activity_at: AwareDatetime
    folder_id: UUID | None
    metadata: dict[str, Any]


class Message(Open):
    message_id: UUID
    role: str = Field(description="user or assistant; others may be added.")
    text: str
    created_at: AwareDatetime


class Folder(Open):
    folder_id: UUID
    name: str


class Principal(Open):
    principal_id: str
    tenant_id: str
    display_name: str
    scopes: list[str]


class ProbeStatus(Open):
    """The process is up (``ok``) or ready for traffic (``ready``)."""

    status: str


class SchedulePage(Open):
    items: list[ScheduleSummary]
    next_cursor: str | None


class OccurrencePage(Open):
    items: list[Occurrence]
    next_cursor: str | None


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


class ErrorEnvelope(BaseModel):
    """Every non-2xx answer."""

    model_config = ConfigDict(extra="allow")
    error: ErrorBody
