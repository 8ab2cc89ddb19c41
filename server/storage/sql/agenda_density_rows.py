"""The busy hours' two grouped reads over SQL (``server.storage.density_port``).

- ``cadence_groups``: the caller's schedules counted per (state, cadence key)
  from ``ix_schedules_cadence_groups`` alone, then those created after the
  window's start counted apart per creation instant. Such a schedule was
  also last updated after the start, so that second read is a range of the
  list's index, empty for a window that starts now.
- ``ledger_groups``: the window's occurrences through ``ix_occurrences_nominal``,
  counted per (state, cadence key, creation as above, instant).

Each answer has a row per distinct cadence (and instant), not per schedule.
Both filter as the schedule list does (``schedules.list_filters``).
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, and_, case, func, select

from server.domain.states import ScheduleState
from server.storage.agenda_port import AgendaFilter
from server.storage.density_port import CadenceGroup, LedgerGroup
from server.storage.records import Owner
from server.storage.sql.schedules import list_filters
from server.storage.sql.search_index import unindexed
from server.storage.tables import schedule_occurrences, schedules

__all__ = ["SqlDensityRows"]


def _filters(owner: Owner, states: Collection[str], where: AgendaFilter) -> list[Any]:
    return list_filters(
        owner,
        frozenset(states),
        words=where.words,
        needs_attention=where.needs_attention,
        overdue_before=where.overdue_before,
    )


def _created_after(start: datetime) -> Any:
    return case(
        (
            and_(schedules.c.state == ScheduleState.ACTIVE, schedules.c.created_at > start),
            schedules.c.created_at,
        ),
        else_=None,
    ).label("created")


class SqlDensityRows:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def cadence_groups(
        self, owner: Owner, states: Collection[str], start: datetime, where: AgendaFilter
    ) -> list[CadenceGroup]:
        scope = _filters(owner, states, where)
        every = (
            select(schedules.c.state, schedules.c.cadence_key, func.count())
            .where(*scope, schedules.c.cadence_key.is_not(None))
            .group_by(schedules.c.state, schedules.c.cadence_key)
        )
        recent = (
            select(schedules.c.state, schedules.c.cadence_key, schedules.c.created_at, func.count())
            .where(
                *scope,
                schedules.c.cadence_key.is_not(None),
                schedules.c.state == ScheduleState.ACTIVE,
                schedules.c.updated_at > start,
                schedules.c.created_at > start,
            )
            .group_by(schedules.c.state, schedules.c.cadence_key, schedules.c.created_at)
        )
        with self._engine.connect() as connection:
            totals = {(state, key): count for state, key, count in connection.execute(every)}
            groups: list[CadenceGroup] = []
            for state, key, created_at, count in connection.execute(recent):
                # .get: a schedule created between the two reads is in the second only.
                totals[state, key] = totals.get((state, key), count) - count
                groups.append(CadenceGroup(key, state, created_at, count))
        groups += [CadenceGroup(key, state, None, n) for (state, key), n in totals.items() if n > 0]
        return groups

    def ledger_groups(
        self, owner: Owner, start: datetime, end: datetime, where: AgendaFilter
    ) -> list[LedgerGroup]:
        at = schedule_occurrences.c.nominal_fire_at
        created = _created_after(start)
        conditions = _filters(owner, (), where)  # every state
        if self._engine.dialect.name == "sqlite":
            # Without statistics SQLite would walk the owner's schedules; the
            # window's few occurrences must drive the join instead.
            conditions = [
                unindexed(schedules.c.tenant_id) == owner.tenant_id,
                unindexed(schedules.c.principal_id) == owner.principal_id,
                *conditions[1:],
            ]
        query = (
            select(schedules.c.cadence_key, schedules.c.state, created, at, func.count())
            .select_from(
                schedule_occurrences.join(
                    schedules, schedules.c.id == schedule_occurrences.c.schedule_id
                )
            )
            .where(at >= start, at < end, *conditions)
            .group_by(schedules.c.state, schedules.c.cadence_key, created, at)
        )
        with self._engine.connect() as connection:
            return [LedgerGroup(*row) for row in connection.execute(query)]
