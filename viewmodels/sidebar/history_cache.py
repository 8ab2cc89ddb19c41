"""The device's history cache: what the sidebar knows about each session.

Kept per session: id, title, last activity, folder, ``schedule_id`` (absent
unless the server sent a UUID string) and, for a scheduled session, when its
firing was due. The server's value wins
on every reconciliation. Stored through ``DeviceStorage`` as plain JSON; an
entry that does not read back (older app, hand-edited file) is skipped, never
fatal. Expanded groups are device state too, stored beside it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

from transport.models import SessionSummary
from viewmodels.ports import DeviceStorage, JsonValue

HISTORY_KEY = "sidebar.history"
EXPANDED_KEY = "sidebar.expanded_groups"


@dataclass(frozen=True, slots=True)
class CachedSession:
    session_id: UUID
    title: str
    last_activity_at: datetime
    folder_id: UUID | None
    schedule_id: UUID | None
    fired_at: datetime | None = None
    """The firing that created a scheduled session: when it was due."""
    order: tuple[float, int] = field(init=False, compare=False, repr=False)
    """Sort key of the history's activity order: newest first, then session id descending."""

    def __post_init__(self) -> None:
        order = (-self.last_activity_at.timestamp(), -self.session_id.int)
        object.__setattr__(self, "order", order)

    @classmethod
    def from_summary(cls, summary: SessionSummary) -> CachedSession:
        return cls(
            session_id=summary.session_id,
            title=summary.title,
            last_activity_at=summary.last_activity_at,
            folder_id=summary.folder_id,
            schedule_id=summary.schedule_id,
            fired_at=summary.fired_at,
        )

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "session_id": str(self.session_id),
            "title": self.title,
            "last_activity_at": self.last_activity_at.isoformat(),
            "folder_id": str(self.folder_id) if self.folder_id else None,
            "schedule_id": str(self.schedule_id) if self.schedule_id else None,
            "fired_at": self.fired_at.isoformat() if self.fired_at else None,
        }

    @classmethod
    def from_json(cls, value: JsonValue) -> CachedSession | None:
        if not isinstance(value, dict):
            return None
        try:
            moment = datetime.fromisoformat(str(value["last_activity_at"]))
            if moment.tzinfo is None:
                return None
            return cls(
                session_id=UUID(str(value["session_id"])),
                title=str(value["title"]),
                last_activity_at=moment,
                folder_id=_uuid_or_none(value.get("folder_id")),
                schedule_id=_uuid_or_none(value.get("schedule_id")),
                fired_at=_instant_or_none(value.get("fired_at")),
            )
        except (KeyError, ValueError):
            return None


def _uuid_or_none(value: JsonValue) -> UUID | None:
    return UUID(value) if isinstance(value, str) else None


def _instant_or_none(value: JsonValue) -> datetime | None:
    if not isinstance(value, str):
        return None
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo is not None else None


async def load_history(storage: DeviceStorage) -> list[CachedSession]:
    raw = await storage.get(HISTORY_KEY)
    if not isinstance(raw, list):
        return []
    sessions = (CachedSession.from_json(item) for item in raw)
    return [session for session in sessions if session is not None]


async def save_history(storage: DeviceStorage, sessions: list[CachedSession]) -> None:
    await storage.set(HISTORY_KEY, [session.to_json() for session in sessions])


async def load_expanded(storage: DeviceStorage) -> set[UUID]:
    raw = await storage.get(EXPANDED_KEY)
    expanded: set[UUID] = set()
    if isinstance(raw, list):
        for item in raw:
            if isinstance(item, str):
                try:
                    expanded.add(UUID(item))
                except ValueError:
                    continue
    return expanded


async def save_expanded(storage: DeviceStorage, expanded: Iterable[UUID]) -> None:
    ids: list[JsonValue] = [str(schedule_id) for schedule_id in sorted(expanded, key=str)]
    await storage.set(EXPANDED_KEY, ids)
