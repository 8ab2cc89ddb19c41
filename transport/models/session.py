"""The sidebar's history: sessions, their messages and their folders.

A session a schedule materialized carries ``metadata.schedule_id``. Metadata is
free-form server data, so ``SessionSummary.schedule_id`` reads it defensively:
anything but a UUID string (in its canonical hyphenated form, any case) is
absent, and a wrong value never fails the whole page; metadata that is not an
object reads as empty. ``folder_id`` (null for an unfiled chat) is lenient.
Strict: identities, and what the sidebar and transcript show and order by
(title, last activity, role, text, time).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from pydantic import Field, field_validator

from transport.models.base import Instant, Lenient, WireModel, known_member
from transport.models.enums import MessageRole


class SessionSummary(WireModel):
    """One row of ``GET /v1/sessions`` (also the answer of a folder move)."""

    session_id: UUID
    title: str
    last_activity_at: Instant
    folder_id: Lenient[UUID] = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_validator("metadata", mode="before")
    @classmethod
    def _odd_metadata_is_empty(cls, value: object) -> object:
        return value if isinstance(value, dict) else {}

    @property
    def schedule_id(self) -> UUID | None:
        """The schedule that materialized this session, or None for a chat."""
        raw = self.metadata.get("schedule_id")
        if not isinstance(raw, str):
            return None
        try:
            parsed = UUID(raw)
        except ValueError:
            return None
        return parsed if str(parsed) == raw.lower() else None

    @property
    def fired_at(self) -> datetime | None:
        """When the firing that created this session was due (``metadata.nominal_fire_at``).

        Read as defensively as ``schedule_id``: only an aware ISO 8601 instant
        on a scheduled session counts; anything else is absent.
        """
        raw = self.metadata.get("nominal_fire_at")
        if self.schedule_id is None or not isinstance(raw, str):
            return None
        try:
            moment = datetime.fromisoformat(raw)
        except ValueError:
            return None
        return moment if moment.tzinfo is not None else None


class SessionMessage(WireModel):
    """One transcript message; the scheduler's seed instruction is never listed."""

    message_id: UUID
    role: str
    text: str
    created_at: Instant

    @property
    def known_role(self) -> MessageRole | None:
        return known_member(MessageRole, self.role)


class Folder(WireModel):
    """A user folder of chat sessions (servers without folders answer 404)."""

    folder_id: UUID
    name: str
