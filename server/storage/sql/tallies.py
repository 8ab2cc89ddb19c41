"""``Store.tallies`` over SQL: counting queries, each served by an index.

The backlog and the overdue count through the due index (state,
``next_fire_at``, …); the runs through ``ix_runs_status``, so none reads the
rows themselves.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Engine, func, select

from server.domain.states import ScheduleState
from server.storage.tables import runs, schedules
from server.storage.tallies import Tallies

__all__ = ["count_tallies"]


def count_tallies(engine: Engine, now: datetime, overdue_before: datetime | None = None) -> Tallies:
    backlog = select(func.count()).where(
        schedules.c.state == ScheduleState.ACTIVE, schedules.c.next_fire_at <= now
    )
    by_status = select(runs.c.status, func.count()).group_by(runs.c.status)
    with engine.connect() as connection:
        due = int(connection.execute(backlog).scalar_one())
        statuses = {str(status): int(count) for status, count in connection.execute(by_status)}
        overdue = None
        if overdue_before is not None:
            late = backlog.where(schedules.c.next_fire_at < overdue_before)
            overdue = int(connection.execute(late).scalar_one())
    return Tallies(due_backlog=due, runs_by_status=statuses, overdue=overdue)
