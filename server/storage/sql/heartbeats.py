"""The scheduler replicas' heartbeat rows over SQL: one upsert per tick, read whole.

``write_tick`` is the statement the worker's batch transaction runs among its
own writes (no transaction of its own), and ``SqlSchedulerReplicas.tick`` the
cheap one-transaction form an idle loop uses. Either may also delete the rows
of replicas silent since ``forget_before`` (retention). The table holds a row
per replica that ran lately, so reading it whole is a few rows.
"""

from __future__ import annotations

from datetime import datetime
from importlib import import_module
from typing import Any

from sqlalchemy import Connection, Engine, delete, select

from server.storage.records import Heartbeat, ReplicaTick, SchedulerReplica
from server.storage.tables import scheduler_replicas

__all__ = ["SqlSchedulerReplicas", "write_tick"]


def write_tick(connection: Connection, heartbeat: Heartbeat) -> None:
    """Insert or move forward ``heartbeat``'s row, and forget silent replicas if asked."""
    replica = heartbeat.replica
    # The dialect's own INSERT … ON CONFLICT, loaded for the database in use only.
    dialect = import_module(f"sqlalchemy.dialects.{connection.dialect.name}")
    insert: Any = dialect.insert(scheduler_replicas)
    connection.execute(
        insert.values(
            replica_id=replica.replica_id,
            host=replica.host,
            version=replica.version,
            started_at=replica.started_at,
            last_tick_at=heartbeat.at,
        ).on_conflict_do_update(
            index_elements=[scheduler_replicas.c.replica_id],
            set_={"last_tick_at": heartbeat.at},
        )
    )
    if heartbeat.forget_before is not None:
        connection.execute(
            delete(scheduler_replicas).where(
                scheduler_replicas.c.last_tick_at < heartbeat.forget_before
            )
        )


class SqlSchedulerReplicas:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def tick(self, heartbeat: Heartbeat) -> None:
        with self._engine.begin() as connection:
            write_tick(connection, heartbeat)

    def ticks(self) -> list[ReplicaTick]:
        query = select(scheduler_replicas).order_by(
            scheduler_replicas.c.last_tick_at.desc(), scheduler_replicas.c.replica_id
        )
        with self._engine.connect() as connection:
            rows = connection.execute(query).mappings().all()
        return [
            ReplicaTick(
                SchedulerReplica(row["replica_id"], row["host"], row["version"], row["started_at"]),
                row["last_tick_at"],
            )
            for row in rows
        ]

    def forget_silent(self, before: datetime) -> int:
        with self._engine.begin() as connection:
            gone: int = connection.execute(
                delete(scheduler_replicas).where(scheduler_replicas.c.last_tick_at < before)
            ).rowcount
        return gone
