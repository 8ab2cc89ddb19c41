"""Rows as immutable values: what the repositories accept and return.

These are storage-shaped (a revision's definition is its canonical JSON text),
so the routes decide presentation and the repositories stay dumb.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

from server.domain.states import (
    AuditEventKind,
    Disposition,
    PauseReason,
    RunStatus,
    ScheduleState,
)


@dataclass(frozen=True, slots=True)
class Owner:
    """Whose data a read or write is confined to (tenant and principal)."""

    tenant_id: str
    principal_id: str


@dataclass(frozen=True, slots=True)
class ScheduleRecord:
    """The mutable control record of one schedule."""

    schedule_id: UUID
    owner: Owner
    state: ScheduleState
    pause_reason: PauseReason | None
    current_revision: int
    next_fire_at: datetime | None
    consecutive_failures: int
    created_at: datetime
    updated_at: datetime
    active_since: datetime | None = None
    """When its current cadence last became ACTIVE: creation, last resume or last edit.

    None on a record not yet stored; a stored schedule always has one.
    """
    active_until: datetime | None = None
    """When that ACTIVE span ended (pause, cancel, completion); None while ACTIVE or unknown."""


@dataclass(frozen=True, slots=True)
class RevisionRecord:
    """One immutable revision; ``definition`` is canonical JSON text.

    ``authority_version`` is the author's authority version when the revision
    was written (create or update); the worker fires it only while the
    principal's present version is the same. None on imported revisions
    (demo data, databases older than the worker), which no version pins.
    """

    schedule_id: UUID
    revision: int
    definition: str
    created_by_principal_id: str
    created_at: datetime
    authority_version: str | None = None


@dataclass(frozen=True, slots=True)
class LastOutcome:
    """What became of a schedule's latest occurrence (the latest nominal instant).

    ``run_status`` and ``failure_reason`` are the linked run's, while the
    occurrence still links one; ``needs_attention`` is the outcome's own
    verdict (MISSED, SKIPPED_OVERLAP, AUTHORIZATION_FAILED,
    CONFIGURATION_FAILED, or a FAILED run), kept on the schedule's row in the
    transaction that wrote the occurrence or ended the run.
    """

    nominal_fire_at: datetime
    disposition: Disposition
    reason_code: str | None
    run_status: RunStatus | None
    failure_reason: str | None
    session_id: UUID | None
    needs_attention: bool


@dataclass(frozen=True, slots=True)
class ScheduleView:
    """A schedule with its current revision, as every read needs both.

    ``last_outcome`` is filled by the reads that show a schedule (the point
    read and the list) and None when it never fired; the scheduler's own
    reads leave it None.
    """

    schedule: ScheduleRecord
    revision: RevisionRecord
    last_outcome: LastOutcome | None = None


@dataclass(frozen=True, slots=True)
class ScheduleCounts:
    """How many of an owner's schedules each view holds."""

    current: int
    history: int
    needs_attention: int


@dataclass(frozen=True, slots=True)
class IdempotencyClaim:
    """A create's Idempotency-Key and the hash of the request it stands for."""

    key: str
    request_hash: str


@dataclass(frozen=True, slots=True)
class AuditEvent:
    """One append-only audit fact; payloads never carry instructions or secrets."""

    event_type: AuditEventKind
    owner: Owner
    actor: str
    occurred_at: datetime
    schedule_id: UUID | None = None
    revision: int | None = None
    payload: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ScheduleChange:
    """A decided mutation: the record's new fields, maybe a new revision, and its events."""

    state: ScheduleState
    pause_reason: PauseReason | None
    next_fire_at: datetime | None
    consecutive_failures: int
    updated_at: datetime
    new_revision: RevisionRecord | None
    events: tuple[AuditEvent, ...]


@dataclass(frozen=True, slots=True)
class OccurrenceRecord:
    """One entry of the occurrence ledger: what the scheduler decided for an instant."""

    occurrence_id: UUID
    schedule_id: UUID
    schedule_revision: int
    nominal_fire_at: datetime
    disposition: Disposition
    session_id: UUID | None
    run_id: UUID | None
    reason_code: str | None
    authority_version: str | None
    materialized_at: datetime | None
    links_erased_at: datetime | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class PastOccurrence:
    """A ledger entry with how its run stands: what a calendar shows of a past instant.

    ``run_status`` and ``failure_reason`` are the linked run's; both None when
    the occurrence links no run (it did not materialize, or its session was erased).
    """

    occurrence: OccurrenceRecord
    run_status: RunStatus | None
    failure_reason: str | None


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """A conversation in the sidebar; ``metadata`` holds ``schedule_id`` when materialized."""

    session_id: UUID
    owner: Owner
    title: str
    last_activity_at: datetime
    folder_id: UUID | None
    metadata: dict[str, object]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class MessageRecord:
    """One transcript message.

    ``opening_instruction`` marks a firing's opening message: the schedule's
    instruction, delivered to the executor and hidden from the transcript
    (stored in the ``scheduler_seed`` column).
    """

    message_id: UUID
    session_id: UUID
    role: str
    text: str
    opening_instruction: bool
    created_at: datetime


@dataclass(frozen=True, slots=True)
class RunRecord:
    """A durable run as the scheduler queues it (execution belongs elsewhere).

    ``failure_reason`` is a FAILED run's stable reason code, None otherwise.
    """

    run_id: UUID
    owner: Owner
    session_id: UUID
    status: RunStatus
    priority: int
    limits: dict[str, object]
    scheduled_for: datetime
    deadline_at: datetime
    created_at: datetime
    updated_at: datetime
    failure_reason: str | None = None


@dataclass(frozen=True, slots=True)
class ProfileRecord:
    """A website sign-in the principal owns; no credential material is stored."""

    profile_id: UUID
    owner: Owner
    display_name: str
    state: str
    allowed_origins: tuple[str, ...]
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class FolderRecord:
    """A folder that holds chat sessions (never scheduled ones)."""

    folder_id: UUID
    owner: Owner
    name: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Materialization:
    """Everything one occurrence decision writes, committed together or not at all."""

    occurrence: OccurrenceRecord
    session: SessionRecord | None = None
    messages: tuple[MessageRecord, ...] = ()
    run: RunRecord | None = None


@dataclass(frozen=True, slots=True)
class DueSchedule:
    """A due schedule as the firing rules see it, read while its claim is held.

    ``last_nominal_at`` is the newest nominal instant in its ledger (None before
    the first); ``run_in_flight`` is true when its newest MATERIALIZED
    occurrence links a run that is not terminal; ``active_runs`` counts the
    owner's QUEUED and RUNNING runs.
    """

    view: ScheduleView
    last_nominal_at: datetime | None
    run_in_flight: bool
    active_runs: int


@dataclass(frozen=True, slots=True)
class OccurrencePlan:
    """What one claimed schedule's transaction writes: maybe an occurrence, always its change.

    ``materialization`` is None when nothing is owed after all (only the cached
    ``next_fire_at`` is repaired); ``change`` carries the schedule's new fields
    and every audit event of the decision.
    """

    materialization: Materialization | None
    change: ScheduleChange


@dataclass(frozen=True, slots=True)
class ClaimedRun:
    """A run taken from the queue for execution, with what an executor needs to start it.

    ``instruction`` is the session's opening message (never log it);
    ``delivered_at`` is when the scheduler queued it. The agent fields and
    ``requested_scopes`` come from the revision that fired (empty for a run
    no schedule made): exactly what the agent may use, never more.
    """

    run_id: UUID
    owner: Owner
    session_id: UUID
    schedule_id: UUID | None
    occurrence_id: UUID | None
    nominal_fire_at: datetime | None
    instruction: str
    limits: dict[str, object]
    delivered_at: datetime
    deadline_at: datetime
    requested_scopes: tuple[str, ...] = ()
    agent_id: str | None = None
    agent_version: str | None = None
    policy_profile: str | None = None
    browser_profile_id: str | None = None


@dataclass(frozen=True, slots=True)
class RunLease:
    """Who executes a RUNNING run, and until when that holds unless renewed.

    The holding dispatcher renews it while the run executes; once
    ``expires_at`` has passed its holder is taken to be gone, and another
    dispatcher may take the run over and deliver it again.
    """

    holder: str
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class BatchOutcome:
    """What one batch transaction of the worker did with each schedule it claimed.

    ``claimed`` in claim order; each claimed id is in exactly one of the
    others: ``written`` (its plan committed), ``held`` (admission said wait:
    nothing written), ``passed_over`` (another replica held its owner's
    admission turn: nothing decided, still due) or ``failed`` (its plan or
    its writes raised: nothing of it written, the cause given).
    """

    claimed: tuple[UUID, ...] = ()
    written: tuple[UUID, ...] = ()
    held: tuple[UUID, ...] = ()
    passed_over: tuple[UUID, ...] = ()
    failed: tuple[tuple[UUID, BaseException], ...] = ()
    occurrences: tuple[OccurrenceRecord, ...] = ()
    """The occurrences the written plans recorded (for the worker's observer)."""


@dataclass(frozen=True, slots=True)
class SchedulerReplica:
    """One process running the scheduler, as its heartbeat row names it."""

    replica_id: str
    host: str
    version: str
    started_at: datetime


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """``replica``'s worker loop ran at ``at``; rows silent since ``forget_before`` may go."""

    replica: SchedulerReplica
    at: datetime
    forget_before: datetime | None = None


@dataclass(frozen=True, slots=True)
class ReplicaTick:
    """A replica's heartbeat row as stored: who, and when its loop last ran."""

    replica: SchedulerReplica
    last_tick_at: datetime


@dataclass(frozen=True, slots=True)
class DueBacklog:
    """An owner's ACTIVE schedules whose next firing has come, and the earliest of them."""

    count: int
    oldest_due_at: datetime | None


@dataclass(frozen=True, slots=True)
class CalendarFeed:
    """A private iCalendar feed: one schedule's firings, or (``schedule_id`` None) all of them."""

    feed_id: UUID
    owner: Owner
    schedule_id: UUID | None
    name: str
    created_at: datetime
