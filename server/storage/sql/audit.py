"""Append-only audit log: rows are inserted, never updated or deleted here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from sqlalchemy import Connection, Engine, insert, select

from server.domain.states import AuditEventKind
from server.storage.jsontext import canonical_json, load_object
from server.storage.records import AuditEvent, Owner
from server.storage.tables import audit_events

_INSERT = insert(audit_events)


def append_events(connection: Connection, events: Sequence[AuditEvent]) -> None:
    """Insert ``events`` inside the caller's transaction."""
    if not events:
        return
    connection.execute(_INSERT, event_rows(events))


def event_rows(events: Sequence[AuditEvent]) -> list[dict[str, Any]]:
    """The rows ``events`` insert (a batch of materializations inserts them all at once)."""
    return [
        {
            "event_type": event.event_type,
            "tenant_id": event.owner.tenant_id,
            "principal_id": event.owner.principal_id,
            "actor": event.actor,
            "schedule_id": event.schedule_id,
            "revision": event.revision,
            "payload": canonical_json(event.payload),
            "occurred_at": event.occurred_at,
        }
        for event in events
    ]


class SqlAuditLog:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def append(self, events: Sequence[AuditEvent]) -> None:
        with self._engine.begin() as connection:
            append_events(connection, events)

    def for_schedule(self, schedule_id: UUID) -> list[AuditEvent]:
        query = (
            select(audit_events)
            .where(audit_events.c.schedule_id == schedule_id)
            .order_by(audit_events.c.id)
        )
        with self._engine.connect() as connection:
            rows = connection.execute(query).mappings().all()
        return [
            AuditEvent(
                event_type=AuditEventKind(row["event_type"]),
                owner=Owner(row["tenant_id"], row["principal_id"]),
                actor=row["actor"],
                occurred_at=row["occurred_at"],
                schedule_id=row["schedule_id"],
                revision=row["revision"],
                payload=load_object(row["payload"]),
            )
            for row in rows
        ]
