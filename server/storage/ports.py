"""What the server asks of storage, as Protocols every adapter implements.

All methods are synchronous: routes run in FastAPI's threadpool and async
callers go through ``anyio.to_thread``. Reads are always confined to an
``Owner``; another principal's row is simply absent. List methods take the
keyset position *after which* to continue and return at most ``limit`` rows.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from enum import StrEnum
from typing import Protocol
from uuid import UUID

from server.storage.agenda_port import AgendaRows
from server.storage.density_port import DensityRows
from server.storage.faults import StorageFaults
from server.storage.next_fire_order import NextFirePosition
from server.storage.records import (
    AuditEvent,
    BatchOutcome,
    CalendarFeed,
    ClaimedRun,
    DueBacklog,
    DueSchedule,
    FolderRecord,
    Heartbeat,
    IdempotencyClaim,
    Materialization,
    MessageRecord,
    OccurrencePlan,
    OccurrenceRecord,
    Owner,
    PastOccurrence,
    ProfileRecord,
    ReplicaTick,
    RevisionRecord,
    RunLease,
    RunRecord,
    ScheduleChange,
    ScheduleCounts,
    ScheduleRecord,
    ScheduleView,
    SessionRecord,
)
from server.storage.tallies import Tallies


class IdempotencyKeyReused(Exception):
    """The key was used before for a different request."""


class BatchFailed(Exception):
    """A worker's batch rolled back after its claim; every claimed schedule is still due.

    The cause is chained; its message is never shown (it could quote an
    instruction), only its type.
    """

    def __init__(self, claimed: Sequence[UUID]) -> None:
        super().__init__(f"{len(claimed)} claimed schedules rolled back")
        self.claimed = tuple(claimed)


class Readiness(StrEnum):
    """Whether the store can serve requests now (``GET /readyz``), and if not, why."""

    READY = "ready"
    DATABASE_UNREACHABLE = "database_unreachable"
    MIGRATIONS_PENDING = "migrations_pending"


class ScheduleRepository(Protocol):
    def create(
        self,
        schedule: ScheduleRecord,
        revision: RevisionRecord,
        claim: IdempotencyClaim,
        events: Sequence[AuditEvent],
    ) -> UUID:
        """Insert a new schedule, or return the one an earlier identical request created.

        Raises ``IdempotencyKeyReused`` when the key stands for another request.
        """
        ...

    def import_many(
        self, views: Sequence[ScheduleView], history: Sequence[RevisionRecord] = ()
    ) -> None:
        """Bulk insert with earlier revisions (demo data, benchmarks); no idempotency, no events."""
        ...

    def get(self, owner: Owner, schedule_id: UUID) -> ScheduleView | None: ...

    def active_since(self, owner: Owner, schedule_ids: Collection[UUID]) -> dict[UUID, datetime]:
        """When each of the owner's ACTIVE schedules among ``schedule_ids`` last became ACTIVE."""
        ...

    def revisions(self, schedule_id: UUID) -> list[RevisionRecord]:
        """Every revision of one schedule, oldest first (the run's pinned one is among them)."""
        ...

    def page(
        self,
        owner: Owner,
        states: frozenset[str],
        after: tuple[datetime, UUID] | None,
        limit: int,
        *,
        words: Sequence[str] = (),
        needs_attention: bool = False,
        overdue_before: datetime | None = None,
    ) -> list[ScheduleView]:
        """Newest ``updated_at`` first, then ``schedule_id`` desc, each with its last outcome.

        ``states`` empty = all. ``words`` (folded, ``search_text.search_words``)
        must each occur in the current title or instruction; ``needs_attention``
        keeps the schedules PAUSED by the failure limit or whose last outcome
        needs attention, and, given ``overdue_before``, the ACTIVE ones whose
        ``next_fire_at`` is before it (overdue). All filters apply before
        ``after`` and ``limit``.
        """
        ...

    def next_fire_page(
        self,
        owner: Owner,
        states: frozenset[str],
        after: NextFirePosition | None,
        limit: int,
        *,
        words: Sequence[str] = (),
        needs_attention: bool = False,
        overdue_before: datetime | None = None,
    ) -> list[ScheduleView]:
        """As ``page``, soonest first: ACTIVE by ``next_fire_at``, then PAUSED, then the rest.

        The order and its positions are ``server.storage.next_fire_order``'s.
        """
        ...

    def counts(
        self, owner: Owner, words: Sequence[str] = (), overdue_before: datetime | None = None
    ) -> ScheduleCounts:
        """The owner's current, history and needs-attention totals among ``words`` matches.

        Given ``overdue_before``, needs-attention counts the overdue ones too (as
        ``page`` says).
        """
        ...

    def due_backlog(self, owner: Owner, now: datetime) -> DueBacklog:
        """The owner's ACTIVE schedules whose ``next_fire_at`` has come at ``now``."""
        ...

    def apply(self, seen: ScheduleRecord, change: ScheduleChange) -> bool:
        """Write ``change`` only if the row still matches ``seen`` (compare and set)."""
        ...

    def due(self, now: datetime, limit: int) -> list[UUID]:
        """ACTIVE schedules whose ``next_fire_at`` has come, earliest first."""
        ...

    def next_fire_after(self, instant: datetime) -> datetime | None:
        """The earliest ``next_fire_at`` of an ACTIVE schedule strictly after ``instant``."""
        ...

    def lacking_next_fire(self, limit: int) -> list[UUID]:
        """ACTIVE schedules whose ``next_fire_at`` is null (a broken cache to repair)."""
        ...

    def purge_terminal(self, before: datetime, limit: int) -> int:
        """Delete up to ``limit`` terminal schedules last updated before ``before``.

        Idempotency rows, occurrences, revisions, then the schedule, in one
        transaction; never sessions or runs. Returns how many went: 0 at once
        while another process sharing the database is sweeping.
        """
        ...


class OccurrenceRepository(Protocol):
    def record(self, materialization: Materialization) -> None:
        """Insert an occurrence with its session, messages and run in one transaction."""
        ...

    def materialize_batch(
        self,
        now: datetime,
        plan: Callable[[DueSchedule], OccurrencePlan | None],
        excluding: Collection[UUID],
        limit: int,
        heartbeat: Heartbeat | None = None,
    ) -> BatchOutcome:
        """Claim up to ``limit`` due schedules, decide each with ``plan``, write all: one commit.

        Due schedules are claimed earliest ``next_fire_at`` first, leaving out
        ``excluding`` and those another worker (another replica) holds. The
        claim, the reads behind each ``DueSchedule`` and every write of the
        plans (occurrences, sessions, opening messages, runs, the schedules'
        changes and their events) are one transaction; a plan that raises or a
        row the database refuses fails that schedule alone (``BatchOutcome``).
        Raises ``BatchFailed`` when the whole batch rolled back after its claim.
        ``heartbeat``, when given, is written in the same transaction
        (``SchedulerReplicas.tick``).
        """
        ...

    def settle_then_apply(
        self,
        owner: Owner | None,
        schedule_id: UUID,
        now: datetime,
        settle: Callable[[DueSchedule], OccurrencePlan],
        decide: Callable[[DueSchedule], ScheduleChange | None],
    ) -> ScheduleView | None:
        """Hold one schedule's row, decide its due instant if it has one, then apply a change.

        One transaction holding the row as the worker's claim does: when the
        schedule is ACTIVE with ``next_fire_at <= now`` the plan ``settle``
        makes of it is written first, then ``decide`` sees the schedule as it
        stands and its change (if any) is written. None when the schedule is
        absent or not ``owner``'s (``owner`` None: anyone's); else the view
        as committed.
        """
        ...

    def page(
        self,
        owner: Owner,
        schedule_id: UUID,
        after: tuple[datetime, UUID] | None,
        limit: int,
    ) -> list[OccurrenceRecord]:
        """Newest ``nominal_fire_at`` first."""
        ...

    def window(
        self, owner: Owner, schedule_id: UUID, start: datetime, end: datetime
    ) -> list[PastOccurrence]:
        """The entries with ``nominal_fire_at`` in ``[start, end)``, oldest first, with runs."""
        ...


class RunRepository(Protocol):
    """The run queue as the scheduler's executor sees it."""

    def get(self, run_id: UUID) -> RunRecord | None: ...

    def queued(self, now: datetime, limit: int) -> list[UUID]:
        """QUEUED runs eligible at ``now``, highest priority then oldest first."""
        ...

    def overdue(self, now: datetime, limit: int) -> list[UUID]:
        """RUNNING runs past their deadline (a QUEUED run's time limit has not begun)."""
        ...

    def stranded(self, now: datetime, limit: int) -> list[UUID]:
        """RUNNING runs within their deadline whose lease lapsed before ``now`` (or that have none).

        Their holder is taken to be gone: another dispatcher may ``take_over``.
        """
        ...

    def start(self, run_id: UUID, now: datetime, lease: RunLease) -> ClaimedRun | None:
        """QUEUED -> RUNNING under ``lease``; None when the run was taken or ended meanwhile.

        The run's time limit counts from here: its deadline becomes ``now``
        plus the span it was queued with (its deadline less its creation).
        """
        ...

    def take_over(self, run_id: UUID, now: datetime, lease: RunLease) -> ClaimedRun | None:
        """A RUNNING run whose lease lapsed before ``now``, leased anew; None when it was not.

        The run keeps its deadline, so a second delivery carries the same body.
        """
        ...

    def renew(self, run_ids: Collection[UUID], lease: RunLease) -> int:
        """Extend to ``lease`` each of ``run_ids`` still RUNNING under its holder; how many."""
        ...

    def finish(
        self,
        run_id: UUID,
        status: str,
        messages: Sequence[MessageRecord],
        now: datetime,
        account: Callable[[ScheduleView, UUID], ScheduleChange],
        *,
        failure_reason: str | None = None,
    ) -> bool:
        """End an active run, append its answer and apply ``account`` to its schedule, at once.

        ``failure_reason`` is a FAILED run's stable reason code, kept on the
        run (a schedule's last outcome shows it). The same transaction brings
        the schedule's last outcome up to date. False, writing nothing, when
        the run had already ended: accounting therefore happens once per
        occurrence.
        """
        ...


class SessionRepository(Protocol):
    def add(self, session: SessionRecord, messages: Sequence[MessageRecord]) -> None: ...

    def get(self, owner: Owner, session_id: UUID) -> SessionRecord | None: ...

    def page(
        self, owner: Owner, after: tuple[datetime, UUID] | None, limit: int
    ) -> list[SessionRecord]:
        """Newest ``last_activity_at`` first, then ``session_id`` desc."""
        ...

    def visible_messages(
        self,
        owner: Owner,
        session_id: UUID,
        after: tuple[datetime, UUID] | None,
        limit: int,
    ) -> list[MessageRecord]:
        """Oldest first, without a firing's opening message (its instruction)."""
        ...

    def move(self, owner: Owner, session_id: UUID, folder_id: UUID | None) -> SessionRecord:
        """File a session; the caller has checked ownership and chat-ness."""
        ...


class ProfileRepository(Protocol):
    def add(self, profile: ProfileRecord) -> None: ...

    def get(self, owner: Owner, profile_id: UUID) -> ProfileRecord | None: ...

    def page(self, owner: Owner, after: tuple[str, UUID] | None, limit: int) -> list[ProfileRecord]:
        """Every state, ordered by display name then id."""
        ...


class FolderRepository(Protocol):
    def add(self, folder: FolderRecord) -> None: ...

    def get(self, owner: Owner, folder_id: UUID) -> FolderRecord | None: ...

    def page(self, owner: Owner, after: tuple[str, UUID] | None, limit: int) -> list[FolderRecord]:
        """Ordered by name then id."""
        ...


class AuditLog(Protocol):
    def append(self, events: Sequence[AuditEvent]) -> None: ...

    def for_schedule(self, schedule_id: UUID) -> list[AuditEvent]: ...


class SchedulerReplicas(Protocol):
    """The heartbeat rows of the processes running the scheduler (``worker/heartbeat.py``)."""

    def tick(self, heartbeat: Heartbeat) -> None:
        """Record that a replica's loop ran (insert or update its row), in one transaction.

        ``heartbeat.forget_before`` also deletes the rows of replicas silent since then.
        """
        ...

    def ticks(self) -> list[ReplicaTick]:
        """Every replica's row, the newest tick first."""
        ...

    def forget_silent(self, before: datetime) -> int:
        """Delete the rows of replicas whose last tick is before ``before``; how many."""
        ...


class CalendarFeeds(Protocol):
    """Private calendar feeds; a feed's secret is known here only by its digest."""

    def add(self, feed: CalendarFeed, secret_digest: str, *, most: int) -> bool:
        """Keep ``feed``; False (nothing kept) when its owner already keeps ``most``.

        Counting and adding are one turn per owner (creations racing each other
        wait for it), so the bound holds exactly on every backend.
        """
        ...

    def by_digest(self, secret_digest: str) -> CalendarFeed | None:
        """The feed whose secret has this digest; None when unknown or revoked."""
        ...

    def page(
        self, owner: Owner, after: tuple[datetime, UUID] | None, limit: int
    ) -> list[CalendarFeed]:
        """Newest first (created_at, then id, descending)."""
        ...

    def revoke(self, owner: Owner, feed_id: UUID) -> bool:
        """Delete ``owner``'s feed at once; False when it has no such feed."""
        ...


class Store(Protocol):
    """Every repository of one database."""

    @property
    def schedules(self) -> ScheduleRepository: ...
    @property
    def occurrences(self) -> OccurrenceRepository: ...
    @property
    def runs(self) -> RunRepository: ...
    @property
    def sessions(self) -> SessionRepository: ...
    @property
    def profiles(self) -> ProfileRepository: ...
    @property
    def folders(self) -> FolderRepository: ...
    @property
    def audit(self) -> AuditLog: ...
    @property
    def replicas(self) -> SchedulerReplicas: ...
    @property
    def feeds(self) -> CalendarFeeds: ...
    @property
    def agenda(self) -> AgendaRows: ...
    @property
    def density(self) -> DensityRows: ...

    def is_empty(self) -> bool:
        """True when no schedule, session, profile or folder exists yet."""
        ...

    def seeding(self) -> AbstractContextManager[None]:
        """Held while start-up data is looked for and loaded: one process at a time.

        Replicas starting together on one database take turns, so the first
        loads the demo into the empty store and the others find it loaded.
        """
        ...

    def readiness(self) -> Readiness:
        """Whether the database answers and its schema is at the newest migration."""
        ...

    @property
    def faults(self) -> StorageFaults:
        """This store's storage faults (``server/storage/faults.py``), recorded as they happen."""
        ...

    def probe_write(self) -> None:
        """Commit one cheap write that changes nothing; raises what the database answered."""
        ...

    def tallies(self, now: datetime, overdue_before: datetime | None = None) -> Tallies:
        """The due backlog at ``now``, the overdue schedules (``next_fire_at`` before
        ``overdue_before``) and the runs by status (``server/storage/tallies.py``)."""
        ...

    def compact_journal(self) -> None:
        """Give back journal space the database no longer needs (SQLite's WAL); may do nothing."""
        ...

    def close(self) -> None: ...
