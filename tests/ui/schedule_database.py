"""What the embedded server stored, read straight from the data folder's SQLite file.

The UI tests take their expectations from here rather than from copies of the
demo data's titles: the demo may change, the rule the test proves does not.
Reads open the file read-only, so a test can never alter what the app serves.
Identifiers are normalised to ``uuid.UUID`` because SQLAlchemy stores them as
32 hex digits without dashes.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

CURRENT_STATES = ("ACTIVE", "PAUSED")
HISTORY_STATES = ("COMPLETED", "CANCELLED")


@dataclass(frozen=True, slots=True)
class StoredSchedule:
    schedule_id: UUID
    state: str
    current_revision: int
    title: str
    instruction: str
    browser_profile_id: UUID | None
    updated_at: str


@dataclass(frozen=True, slots=True)
class StoredProfile:
    profile_id: UUID
    display_name: str
    state: str
    allowed_origins: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StoredSession:
    session_id: UUID
    title: str
    schedule_id: UUID | None
    last_activity_at: str


class ScheduleDatabase:
    def __init__(self, path: Path) -> None:
        self.path = path

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)) as connection:
            yield connection

    def schedules(self) -> list[StoredSchedule]:
        """Every schedule with its current revision, in the list routes' order."""
        query = """
            SELECT s.id, s.state, s.current_revision, r.definition, s.updated_at
            FROM schedules AS s
            JOIN schedule_revisions AS r
              ON r.schedule_id = s.id AND r.revision = s.current_revision
            ORDER BY s.updated_at DESC, s.id DESC
        """
        with self._connection() as connection:
            rows = connection.execute(query).fetchall()
        found = []
        for raw_id, state, revision, definition_text, updated_at in rows:
            definition: dict[str, Any] = json.loads(definition_text)
            profile = definition.get("browser_profile_id")
            found.append(
                StoredSchedule(
                    schedule_id=_uuid(raw_id),
                    state=str(state),
                    current_revision=int(revision),
                    title=str(definition["title"]),
                    instruction=str(definition["instruction"]),
                    browser_profile_id=_uuid(profile) if profile else None,
                    updated_at=str(updated_at),
                )
            )
        return found

    def schedules_in(self, states: tuple[str, ...]) -> list[StoredSchedule]:
        return [schedule for schedule in self.schedules() if schedule.state in states]

    def cadence(self, schedule_id: UUID) -> dict[str, Any]:
        """The cadence of the schedule's current revision, as stored (the wire shape)."""
        with self._connection() as connection:
            (definition_text,) = connection.execute(
                "SELECT r.definition FROM schedules AS s JOIN schedule_revisions AS r"
                " ON r.schedule_id = s.id AND r.revision = s.current_revision WHERE s.id = ?",
                (schedule_id.hex,),
            ).fetchone()
        cadence: dict[str, Any] = json.loads(definition_text)["cadence"]
        return cadence

    def schedule(self, schedule_id: UUID) -> StoredSchedule:
        for schedule in self.schedules():
            if schedule.schedule_id == schedule_id:
                return schedule
        raise LookupError(f"no schedule {schedule_id} in {self.path}")

    def last_firing(self, schedule_id: UUID) -> datetime | None:
        """The schedule's latest occurrence's nominal instant (UTC), None when it never fired."""
        with self._connection() as connection:
            (latest,) = connection.execute(
                "SELECT max(nominal_fire_at) FROM schedule_occurrences WHERE schedule_id = ?",
                (schedule_id.hex,),
            ).fetchone()
        return None if latest is None else stored_instant(str(latest))

    def active_since(self, schedule_id: UUID) -> datetime:
        """When the schedule's current ACTIVE span began (UTC): nothing before it is expected."""
        with self._connection() as connection:
            (since,) = connection.execute(
                "SELECT active_since FROM schedules WHERE id = ?", (schedule_id.hex,)
            ).fetchone()
        return stored_instant(str(since))

    def decided_instants(self, schedule_id: UUID) -> set[datetime]:
        """The nominal instants (UTC) the scheduler recorded a decision for."""
        with self._connection() as connection:
            rows = connection.execute(
                "SELECT nominal_fire_at FROM schedule_occurrences WHERE schedule_id = ?",
                (schedule_id.hex,),
            ).fetchall()
        return {stored_instant(str(nominal)) for (nominal,) in rows}

    def needs_attention(self) -> list[StoredSchedule]:
        """Schedules the Needs attention filter must list, by the rule of docs/API.md.

        PAUSED by the failure limit, or a latest occurrence that did not end
        in a completed run: any disposition but MATERIALIZED, or a FAILED run.
        """
        query = """
            SELECT s.id FROM schedules AS s
            WHERE (s.state = 'PAUSED' AND s.pause_reason = 'failure_limit')
               OR EXISTS (
                    SELECT 1 FROM schedule_occurrences AS o
                    LEFT JOIN runs AS r ON r.id = o.run_id
                    WHERE o.schedule_id = s.id
                      AND o.nominal_fire_at = (
                            SELECT max(latest.nominal_fire_at) FROM schedule_occurrences AS latest
                            WHERE latest.schedule_id = s.id)
                      AND (o.disposition <> 'MATERIALIZED' OR r.status = 'FAILED'))
        """
        with self._connection() as connection:
            ids = {_uuid(raw) for (raw,) in connection.execute(query).fetchall()}
        return [schedule for schedule in self.schedules() if schedule.schedule_id in ids]

    def failed_runs(self) -> dict[UUID, list[datetime]]:
        """Schedules whose firings ran and FAILED: their nominal instants (UTC), newest first."""
        query = """
            SELECT o.schedule_id, o.nominal_fire_at FROM schedule_occurrences AS o
            JOIN runs AS r ON r.id = o.run_id
            WHERE r.status = 'FAILED'
            ORDER BY o.nominal_fire_at DESC
        """
        with self._connection() as connection:
            rows = connection.execute(query).fetchall()
        found: dict[UUID, list[datetime]] = {}
        for raw_id, nominal in rows:
            found.setdefault(_uuid(raw_id), []).append(stored_instant(str(nominal)))
        return found

    def profiles(self) -> list[StoredProfile]:
        with self._connection() as connection:
            rows = connection.execute(
                "SELECT id, display_name, state, allowed_origins FROM browser_profiles "
                "ORDER BY display_name, id"
            ).fetchall()
        return [
            StoredProfile(
                profile_id=_uuid(raw_id),
                display_name=str(name),
                state=str(state),
                allowed_origins=tuple(json.loads(origins)),
            )
            for raw_id, name, state, origins in rows
        ]

    def sessions(self) -> list[StoredSession]:
        """Newest activity first, as ``GET /v1/sessions`` orders them."""
        with self._connection() as connection:
            rows = connection.execute(
                "SELECT id, title, metadata, last_activity_at FROM sessions "
                "ORDER BY last_activity_at DESC, id DESC"
            ).fetchall()
        found = []
        for raw_id, title, metadata_text, last_activity_at in rows:
            metadata: dict[str, Any] = json.loads(metadata_text or "{}")
            found.append(
                StoredSession(
                    session_id=_uuid(raw_id),
                    title=str(title),
                    schedule_id=_maybe_uuid(metadata.get("schedule_id")),
                    last_activity_at=str(last_activity_at),
                )
            )
        return found

    def scheduled_groups(self) -> dict[UUID, list[StoredSession]]:
        """Schedules with two or more sessions (the sidebar's groups), newest group first."""
        sessions = self.sessions()
        counts = Counter(s.schedule_id for s in sessions if s.schedule_id is not None)
        groups: dict[UUID, list[StoredSession]] = {}
        for session in sessions:
            if session.schedule_id is not None and counts[session.schedule_id] >= 2:
                groups.setdefault(session.schedule_id, []).append(session)
        return groups

    def visible_messages(self, session_id: UUID) -> list[tuple[str, str]]:
        """``(role, text)`` oldest first, without the scheduler's hidden seed message."""
        with self._connection() as connection:
            rows = connection.execute(
                "SELECT role, text, session_id FROM session_messages "
                "WHERE scheduler_seed = 0 ORDER BY created_at, id"
            ).fetchall()
        return [(str(role), str(text)) for role, text, raw in rows if _uuid(raw) == session_id]


def stored_instant(text: str) -> datetime:
    """An instant as SQLite keeps it (UTC, with or without an offset), aware."""
    moment = datetime.fromisoformat(text)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _uuid(value: object) -> UUID:
    if isinstance(value, bytes):
        return UUID(bytes=value) if len(value) == 16 else UUID(value.decode())
    return UUID(str(value))


def _maybe_uuid(value: object) -> UUID | None:
    if not isinstance(value, str):
        return None
    try:
        return UUID(value)
    except ValueError:
        return None
