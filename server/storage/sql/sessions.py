"""Sessions and their transcripts over SQL."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy import Engine, RowMapping, insert, select, update

from server.storage.jsontext import canonical_json, load_object
from server.storage.records import MessageRecord, Owner, SessionRecord
from server.storage.sql.keyset import keyset_page, owned_by
from server.storage.tables import session_messages, sessions


def session_row(record: SessionRecord) -> dict[str, Any]:
    return {
        "id": record.session_id,
        "tenant_id": record.owner.tenant_id,
        "principal_id": record.owner.principal_id,
        "title": record.title,
        "last_activity_at": record.last_activity_at,
        "folder_id": record.folder_id,
        "metadata": canonical_json(record.metadata),
        "created_at": record.created_at,
    }


def message_rows(records: Sequence[MessageRecord]) -> list[dict[str, Any]]:
    return [
        {
            "id": m.message_id,
            "session_id": m.session_id,
            "role": m.role,
            "text": m.text,
            "scheduler_seed": m.opening_instruction,
            "created_at": m.created_at,
        }
        for m in records
    ]


def _session(row: RowMapping) -> SessionRecord:
    return SessionRecord(
        session_id=row["id"],
        owner=Owner(row["tenant_id"], row["principal_id"]),
        title=row["title"],
        last_activity_at=row["last_activity_at"],
        folder_id=row["folder_id"],
        metadata=load_object(row["metadata"]),
        created_at=row["created_at"],
    )


class SqlSessionRepository:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def add(self, session: SessionRecord, messages: Sequence[MessageRecord]) -> None:
        with self._engine.begin() as connection:
            connection.execute(insert(sessions), session_row(session))
            if messages:
                connection.execute(insert(session_messages), message_rows(messages))

    def get(self, owner: Owner, session_id: UUID) -> SessionRecord | None:
        query = select(sessions).where(sessions.c.id == session_id, owned_by(sessions, owner))
        with self._engine.connect() as connection:
            row = connection.execute(query).mappings().first()
        return None if row is None else _session(row)

    def page(
        self, owner: Owner, after: tuple[datetime, UUID] | None, limit: int
    ) -> list[SessionRecord]:
        query = keyset_page(
            select(sessions).where(owned_by(sessions, owner)),
            sessions.c.last_activity_at,
            sessions.c.id,
            after,
            limit,
            newest_first=True,
        )
        with self._engine.connect() as connection:
            rows = connection.execute(query).mappings().all()
        return [_session(row) for row in rows]

    def visible_messages(
        self,
        owner: Owner,
        session_id: UUID,
        after: tuple[datetime, UUID] | None,
        limit: int,
    ) -> list[MessageRecord]:
        m = session_messages.c
        query = keyset_page(
            select(session_messages)
            .join(sessions, sessions.c.id == m.session_id)
            .where(
                m.session_id == session_id,
                m.scheduler_seed.is_(False),
                owned_by(sessions, owner),
            ),
            m.created_at,
            m.id,
            after,
            limit,
            newest_first=False,
        )
        with self._engine.connect() as connection:
            rows = connection.execute(query).mappings().all()
        return [
            MessageRecord(
                message_id=row["id"],
                session_id=row["session_id"],
                role=row["role"],
                text=row["text"],
                opening_instruction=row["scheduler_seed"],
                created_at=row["created_at"],
            )
            for row in rows
        ]

    def move(self, owner: Owner, session_id: UUID, folder_id: UUID | None) -> SessionRecord:
        statement = (
            update(sessions)
            .where(sessions.c.id == session_id, owned_by(sessions, owner))
            .values(folder_id=folder_id)
        )
        with self._engine.begin() as connection:
            connection.execute(statement)
        moved = self.get(owner, session_id)
        if moved is None:
            raise LookupError(session_id)
        return moved
