"""What the server asks of storage, as Protocols every adapter implements.

All methods are synchronous: routes run in FastAPI's threadpool and async
callers go through ``anyio.to_thread``. Reads are always confined to an
``Owner``; another principal's row is simply absent. List methods take the
keyset position *after which* to continue and return at most ``limit`` rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from typing import Protocol
from uuid import UUID

from server.storage.records import (
    AuditEvent,
    FolderRecord,
    IdempotencyClaim,
    Materialization,
    MessageRecord,
    OccurrenceRecord,
    Owner,
    ProfileRecord,
    RevisionRecord,
    ScheduleChange,
    ScheduleRecord,
    ScheduleView,
    SessionRecord,
)


class IdempotencyKeyReused(Exception):
    """The key was used before for a different request."""


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

    def page(
        self,
        owner: Owner,
        states: frozenset[str],
        after: tuple[datetime, UUID] | None,
        limit: int,
    ) -> list[ScheduleView]:
        """Newest ``updated_at`` first, then ``schedule_id`` desc; ``states`` empty = all."""
        ...

    def apply(self, seen: ScheduleRecord, change: ScheduleChange) -> bool:
        """Write ``change`` only if the row still matches ``seen`` (compare and set)."""
        ...

    def due(self, now: datetime, limit: int) -> list[UUID]:
        """ACTIVE schedules whose ``next_fire_at`` has come, earliest first."""
        ...


class OccurrenceRepository(Protocol):
    def record(self, materialization: Materialization) -> None:
        """Insert an occurrence with its session, messages and run in one transaction."""
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
        """Oldest first, without the scheduler's hidden seed message."""
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


class Store(Protocol):
    """Every repository of one database."""

    @property
    def schedules(self) -> ScheduleRepository: ...
    @property
    def occurrences(self) -> OccurrenceRepository: ...
    @property
    def sessions(self) -> SessionRepository: ...
    @property
    def profiles(self) -> ProfileRepository: ...
    @property
    def folders(self) -> FolderRepository: ...
    @property
    def audit(self) -> AuditLog: ...

    def is_empty(self) -> bool:
        """True when no schedule, session, profile or folder exists yet."""
        ...

    def readiness(self) -> Readiness:
        """Whether the database answers and its schema is at the newest migration."""
        ...

    def close(self) -> None: ...
