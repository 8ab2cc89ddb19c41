"""The schedule routes' answers: schedules, their occurrences and projections, one model each.

Built from storage records as ``server.api.responses`` builds the rest. Only
the point read (``ScheduleDetail``) carries the complete instruction; list
rows carry the bounded ``instruction_preview``. Both say how the civil rule
placed the next firing (``next_fire_adjustment``), from the calculator the
projection and the worker use, and, only while it is overdue, since when
(``overdue_since``, left out otherwise). A stored definition's cadence and limits go
out as stored.
"""

# No postponed annotations: pydantic builds these schemas from the annotations.

from datetime import datetime, time
from typing import Annotated, Any
from uuid import UUID

from pydantic import Field, SerializeAsAny, SkipValidation

from server.api.request_schemas import Cadence, Limits, LocalTime, Open
from server.api.responses import Instant, open_vocabulary
from server.control.projection import Projection as ProjectionAnswer
from server.definitions.checks import PREVIEW_LENGTH, instruction_preview
from server.domain.cadence import CadenceError, parse_cadence
from server.domain.projection import NoticeReason, adjustment_at
from server.domain.states import Disposition, RunStatus, ScheduleState
from server.storage.jsontext import load_object
from server.storage.records import LastOutcome as LastOutcomeRecord
from server.storage.records import OccurrenceRecord, ScheduleView
from server.storage.records import ScheduleCounts as ScheduleCountsRecord

StoredCadence = SkipValidation[SerializeAsAny[Cadence]]
"""A stored definition's cadence, sent as stored (it was checked when written)."""
StoredLimits = SkipValidation[SerializeAsAny[Limits]]
"""A stored definition's limits, sent as stored (they were checked when written)."""


_ADJUSTMENT = (
    "How a clock change placed the firing: MOVED_TO_TRANSITION (its wall time did not exist"
    " that day) or EARLIER_OF_TWO (it happened twice; the earlier fires); null when neither."
    " Others may be added."
)
_LAST_OUTCOME = "The latest firing's outcome; null when the schedule never fired."
_FAILURE_REASON = "Why the run FAILED, e.g. deadline_exceeded."
_PAST_RUN_STATUS = (
    f"The firing's run: {', '.join(RunStatus)}; null when there is no run (not MATERIALIZED,"
    " or its session was erased). Older servers omit it."
)
_OVERDUE_SINCE = (
    "Present only while the schedule is overdue: its next_fire_at passed more than the"
    " server's overdue threshold (60 s by default) ago with no decision; the instant it came"
    " due. Older servers omit it."
)


class LastOutcome(Open):
    """What became of the schedule's latest firing."""

    nominal_fire_at: Instant
    disposition: str = Field(description=open_vocabulary(Disposition))
    reason_code: str | None
    run_status: str | None = Field(description=f"{', '.join(RunStatus)} when a run exists.")
    failure_reason: str | None = Field(description=_FAILURE_REASON)
    session_id: UUID | None
    needs_attention: bool

    @classmethod
    def of(cls, outcome: LastOutcomeRecord) -> "LastOutcome":
        return cls(
            nominal_fire_at=outcome.nominal_fire_at,
            disposition=outcome.disposition,
            reason_code=outcome.reason_code,
            run_status=outcome.run_status,
            failure_reason=outcome.failure_reason,
            session_id=outcome.session_id,
            needs_attention=outcome.needs_attention,
        )


class ScheduleCounts(Open):
    """The caller's schedules per view, with the same optional search."""

    current: int = Field(ge=0, description="ACTIVE and PAUSED.")
    history: int = Field(ge=0, description="COMPLETED and CANCELLED.")
    needs_attention: int = Field(ge=0, description="Any state, needing attention (overdue too).")

    @classmethod
    def of(cls, counts: ScheduleCountsRecord) -> "ScheduleCounts":
        return cls(
            current=counts.current,
            history=counts.history,
            needs_attention=counts.needs_attention,
        )


class _ScheduleHead(Open):
    """The fields a schedule's summary and its detail share, from the schedule's record."""

    schedule_id: UUID
    state: str = Field(description=open_vocabulary(ScheduleState))
    pause_reason: str | None
    current_revision: int
    next_fire_at: Instant | None
    next_fire_adjustment: str | None = Field(description=_ADJUSTMENT)
    created_at: Instant
    updated_at: Instant
    last_outcome: LastOutcome | None = Field(description=_LAST_OUTCOME)
    overdue_since: Instant | None = Field(
        default=None, description=_OVERDUE_SINCE, exclude_if=lambda value: value is None
    )


def _head(
    view: ScheduleView, definition: dict[str, Any], overdue_since: datetime | None
) -> dict[str, Any]:
    s = view.schedule
    outcome = view.last_outcome
    return {
        "schedule_id": s.schedule_id,
        "state": s.state,
        "pause_reason": s.pause_reason,
        "current_revision": s.current_revision,
        "next_fire_at": s.next_fire_at,
        "next_fire_adjustment": _adjustment(definition.get("cadence"), s.next_fire_at),
        "created_at": s.created_at,
        "updated_at": s.updated_at,
        "last_outcome": None if outcome is None else LastOutcome.of(outcome),
        "overdue_since": overdue_since,
    }


def _adjustment(cadence: object, next_fire_at: datetime | None) -> str | None:
    """How the civil rule placed the next firing, from the calculator the worker uses."""
    if next_fire_at is None or not isinstance(cadence, dict):
        return None
    try:
        return adjustment_at(parse_cadence(cadence), next_fire_at)
    except CadenceError:
        return None  # a stored cadence that no longer reads: nothing to say about it


class ScheduleSummary(_ScheduleHead):
    title: str
    cadence: StoredCadence
    instruction_preview: str = Field(max_length=PREVIEW_LENGTH)
    browser_profile_id: UUID | None

    @classmethod
    def of(cls, view: ScheduleView, overdue_since: datetime | None = None) -> "ScheduleSummary":
        definition = load_object(view.revision.definition)
        return cls(
            **_head(view, definition, overdue_since),
            title=definition.get("title"),
            cadence=definition.get("cadence"),
            instruction_preview=instruction_preview(str(definition.get("instruction", ""))),
            browser_profile_id=definition.get("browser_profile_id"),
        )


class RevisionBody(Open):
    """The current revision: its stored definition and the fields the server derives."""

    agent_id: UUID
    agent_version: str
    browser_profile_id: UUID | None
    cadence: StoredCadence
    instruction: str
    limits: StoredLimits
    max_consecutive_failures: int
    misfire_grace_seconds: int
    policy_profile: str
    requested_scopes: list[str]
    run_timeout_seconds: int
    title: str
    revision: int
    timezone: str | None
    created_by_principal_id: str
    created_at: Instant


class ScheduleDetail(_ScheduleHead):
    consecutive_failures: int
    revision: RevisionBody

    @classmethod
    def of(cls, view: ScheduleView, overdue_since: datetime | None = None) -> "ScheduleDetail":
        definition = load_object(view.revision.definition)
        cadence = definition.get("cadence")
        zone = cadence.get("timezone", "UTC") if isinstance(cadence, dict) else "UTC"
        revision = RevisionBody.model_validate(
            {
                **definition,
                "revision": view.revision.revision,
                "timezone": zone,
                "created_by_principal_id": view.revision.created_by_principal_id,
                "created_at": view.revision.created_at,
            }
        )
        return cls(
            **_head(view, definition, overdue_since),
            consecutive_failures=view.schedule.consecutive_failures,
            revision=revision,
        )


class Occurrence(Open):
    occurrence_id: UUID
    schedule_revision: int
    nominal_fire_at: Instant
    disposition: str
    session_id: UUID | None
    run_id: UUID | None
    reason_code: str | None
    materialized_at: Instant | None
    links_erased_at: Instant | None
    created_at: Instant

    @classmethod
    def of(cls, record: OccurrenceRecord) -> "Occurrence":
        return cls(
            occurrence_id=record.occurrence_id,
            schedule_revision=record.schedule_revision,
            nominal_fire_at=record.nominal_fire_at,
            disposition=record.disposition,
            session_id=record.session_id,
            run_id=record.run_id,
            reason_code=record.reason_code,
            materialized_at=record.materialized_at,
            links_erased_at=record.links_erased_at,
            created_at=record.created_at,
        )


LocalDate = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$", description="YYYY-MM-DD")]


def _wall(value: time) -> str:
    return f"{value.hour:02d}:{value.minute:02d}:{value.second:02d}"


class ProjectedFiring(Open):
    at: Instant
    local_date: LocalDate = Field(description="The firing's date in the schedule's zone.")
    local_time: LocalTime = Field(description="The firing's wall time in the schedule's zone.")
    scheduled_date: LocalDate = Field(description="The date the cadence selected.")
    scheduled_time: LocalTime = Field(description="The wall time the cadence names.")
    adjustment: str | None = Field(description=_ADJUSTMENT)
    may_overlap: bool = Field(
        default=False,
        description=(
            "Its previous firing is closer than the run-time limit, so the overlap policy"
            " may skip it (as the agenda's item says). Older servers omit it."
        ),
    )


class ProjectionNotice(Open):
    local_date: LocalDate = Field(
        description="The selected date; for DAY_NOT_IN_MONTH and NOT_A_LEAP_YEAR no real date."
    )
    reason: str = Field(description=open_vocabulary(NoticeReason))


class PastOccurrence(Open):
    occurrence_id: UUID | None = Field(description="Null for an expected instant.")
    nominal_fire_at: Instant
    disposition: str | None = Field(description="Null for an expected instant.")
    reason_code: str | None
    session_id: UUID | None
    run_status: str | None = Field(description=_PAST_RUN_STATUS)
    failure_reason: str | None = Field(description=_FAILURE_REASON)
    expected: bool = Field(
        default=False,
        description=(
            "True: the cadence selected this instant while the schedule was ACTIVE, it is"
            " past the overdue threshold, and nothing was recorded (the scheduler did not"
            " run). False on recorded entries; older servers omit it."
        ),
    )


class Projection(Open):
    """The schedule's firings, non-firing dates and past occurrences in the window."""

    schedule_id: UUID
    state: str
    pause_reason: str | None
    current_revision: int
    timezone: str
    from_: Instant = Field(alias="from")
    to: Instant
    as_if_resumed: bool = Field(description="PAUSED: the firings it would make if resumed now.")
    firings: list[ProjectedFiring]
    notices: list[ProjectionNotice]
    past: list[PastOccurrence] = Field(description="Oldest first.")

    @classmethod
    def of(cls, projection: ProjectionAnswer) -> "Projection":
        s = projection.view.schedule
        return cls.model_validate(
            {
                "schedule_id": s.schedule_id,
                "state": s.state,
                "pause_reason": s.pause_reason,
                "current_revision": s.current_revision,
                "timezone": projection.zone,
                "from": projection.start,
                "to": projection.end,
                "as_if_resumed": projection.as_if_resumed,
                "firings": [
                    ProjectedFiring(
                        at=firing.at,
                        local_date=firing.local.date().isoformat(),
                        local_time=_wall(firing.local.time()),
                        scheduled_date=firing.scheduled_date.isoformat(),
                        scheduled_time=_wall(firing.scheduled_time),
                        adjustment=firing.adjustment,
                        may_overlap=overlap,
                    )
                    for firing, overlap in zip(
                        projection.firings, projection.may_overlap, strict=True
                    )
                ],
                "notices": [
                    ProjectionNotice(local_date=notice.local_date, reason=notice.reason)
                    for notice in projection.notices
                ],
                "past": sorted(
                    [
                        *(
                            PastOccurrence(
                                occurrence_id=p.occurrence.occurrence_id,
                                nominal_fire_at=p.occurrence.nominal_fire_at,
                                disposition=p.occurrence.disposition,
                                reason_code=p.occurrence.reason_code,
                                session_id=p.occurrence.session_id,
                                run_status=p.run_status,
                                failure_reason=p.failure_reason,
                            )
                            for p in projection.past
                        ),
                        *(
                            PastOccurrence(
                                occurrence_id=None,
                                nominal_fire_at=at,
                                disposition=None,
                                reason_code=None,
                                session_id=None,
                                run_status=None,
                                failure_reason=None,
                                expected=True,
                            )
                            for at in projection.expected
                        ),
                    ],
                    key=lambda entry: entry.nominal_fire_at,
                ),
            }
        )


class SchedulePage(Open):
    items: list[ScheduleSummary]
    next_cursor: str | None


class OccurrencePage(Open):
    items: list[Occurrence]
    next_cursor: str | None
