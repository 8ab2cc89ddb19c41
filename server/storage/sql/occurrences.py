"""The occurrence ledger over SQL; a decision and its session and run commit together."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from sqlalchemy import Engine, RowMapping, insert, select

from server.storage.jsontext import canonical_json
from server.storage.records import Materialization, OccurrenceRecord, Owner
from server.storage.sql.keyset import keyset_page, owned_by
from server.storage.sql.sessions import message_rows, session_row
from server.storage.tables import (
    runs,
    schedule_occurrences,
    schedules,
    session_messages,
    sessions,
)


def _occurrence(row: RowMapping) -> OccurrenceRecord:
    return OccurrenceRecord(
        occurrence_id=row["id"],
        schedule_id=row["schedule_id"],
        schedule_revision=row["schedule_revision"],
        nominal_fire_at=row["nominal_fire_at"],
        disposition=row["disposition"],
        session_id=row["session_id"],
        run_id=row["run_id"],
        reason_code=row["reason_code"],
        authority_version=row["authority_version"],
        materialized_at=row["materialized_at"],
        links_erased_at=row["links_erased_at"],
        created_at=row["created_at"],
    )


class SqlOccurrenceRepository:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def record(self, materialization: Materialization) -> None:
        occurrence = materialization.occurrence
        with self._engine.begin() as connection:
            # The occurrence goes first: its links are deferred to commit time.
            connection.execute(
                insert(schedule_occurrences),
                {
                    "id": occurrence.occurrence_id,
                    "schedule_id": occurrence.schedule_id,
                    "schedule_revision": occurrence.schedule_revision,
                    "nominal_fire_at": occurrence.nominal_fire_at,
                    "disposition": occurrence.disposition,
                    "session_id": occurrence.session_id,
                    "run_id": occurrence.run_id,
                    "reason_code": occurrence.reason_code,
                    "authority_version": occurrence.authority_version,
                    "materialized_at": occurrence.materialized_at,
                    "links_erased_at": occurrence.links_erased_at,
                    "created_at": occurrence.created_at,
                },
            )
            if materialization.session is not None:
                connection.execute(insert(sessions), session_row(materialization.session))
            if materialization.messages:
                connection.execute(insert(session_messages), message_rows(materialization.messages))
            run = materialization.run
            if run is not None:
                connection.execute(
                    insert(runs),
                    {
                        "id": run.run_id,
                        "tenant_id": run.owner.tenant_id,
                        "principal_id": run.owner.principal_id,
                        "session_id": run.session_id,
                        "status": run.status,
                        "priority": run.priority,
                        "limits": canonical_json(run.limits),
                        "scheduled_for": run.scheduled_for,
                        "deadline_at": run.deadline_at,
                        "created_at": run.created_at,
                        "updated_at": run.updated_at,
                    },
                )

    def page(
        self,
        owner: Owner,
        schedule_id: UUID,
        after: tuple[datetime, UUID] | None,
        limit: int,
    ) -> list[OccurrenceRecord]:
        occ = schedule_occurrences.c
        query = keyset_page(
            select(schedule_occurrences)
            .join(schedules, schedules.c.id == occ.schedule_id)
            .where(occ.schedule_id == schedule_id, owned_by(schedules, owner)),
            occ.nominal_fire_at,
            occ.id,
            after,
            limit,
            newest_first=True,
        )
        with self._engine.connect() as connection:
            rows = connection.execute(query).mappings().all()
        return [_occurrence(row) for row in rows]
