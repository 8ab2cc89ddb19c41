"""The agenda's reads over SQL (``server.storage.agenda_port``), each on an index.

- ``zones``: a loose index scan of ``ix_schedules_wall_clock`` in one recursive
  statement per state, one ``min(cadence_zone) > previous`` per zone, never a
  walk of the owner's rows;
- ``candidates``: a UNION ALL of one range scan of the same index per
  wall-clock range of the band (the ranges are disjoint), 200 ranges a statement;
- ``recorded``: the ledger's band through ``ix_occurrences_nominal``, each
  occurrence with its run's status (none when erased);
- ``definitions``: the current definitions the agenda has not cached yet.

Every read filters as the schedule list does (``schedules.list_filters``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy import Engine, and_, func, select, tuple_, union_all

from server.storage.agenda_port import AgendaFilter, Candidate, Recorded, WallRange
from server.storage.records import Owner
from server.storage.sql.keyset import owned_by
from server.storage.sql.schedules import list_filters
from server.storage.sql.search_index import unindexed
from server.storage.tables import runs, schedule_occurrences, schedule_revisions, schedules

__all__ = ["SqlAgendaRows", "candidates_query", "zones_query"]

_DEFINITIONS_AT_ONCE = 500
_RANGES_AT_ONCE = 200
"""Under SQLite's 500 terms of a compound SELECT (an owner may use every zone)."""


def _filters(owner: Owner, states: frozenset[str], where: AgendaFilter) -> list[Any]:
    return list_filters(
        owner,
        states,
        words=where.words,
        needs_attention=where.needs_attention,
        overdue_before=where.overdue_before,
    )


def _in_range(wall: WallRange) -> Any:
    return and_(
        schedules.c.state == wall.state,
        schedules.c.cadence_zone == wall.zone,
        schedules.c.cadence_wall_time.between(wall.low, wall.high),
    )


def candidates_query(owner: Owner, ranges: Sequence[WallRange], where: AgendaFilter) -> Any:
    """The schedules named by the wall ranges: one indexed range scan per range.

    An OR of the ranges under the owner's filters would walk every one of the
    owner's rows in ``ix_schedules_wall_clock``; the ranges are disjoint, so
    a UNION ALL of one scan each reads only the rows in them.
    """
    columns = (
        schedules.c.id,
        schedules.c.state,
        schedules.c.created_at,
        schedules.c.current_revision,
        schedules.c.cadence_key,
    )
    return union_all(
        *(
            select(*columns).where(
                *_filters(owner, frozenset({wall.state}), where), _in_range(wall)
            )
            for wall in ranges
        )
    )


def zones_query(owner: Owner, state: str) -> Any:
    """The owner's zones in ``state``, in order: a loose index scan in one statement.

    A recursive step asks the index for the least zone after the last one
    found, so the statement reads one index entry per zone, never the rows.
    """

    def least(*after: Any) -> Any:
        return select(func.min(schedules.c.cadence_zone)).where(
            owned_by(schedules, owner), schedules.c.state == state, *after
        )

    first = least(schedules.c.cadence_zone.is_not(None)).scalar_subquery().label("zone")
    walk = select(first).cte("zones", recursive=True)
    step = select(least(schedules.c.cadence_zone > walk.c.zone).scalar_subquery()).where(
        walk.c.zone.is_not(None)
    )
    walk = walk.union_all(step)
    return select(walk.c.zone).where(walk.c.zone.is_not(None))


class SqlAgendaRows:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def zones(self, owner: Owner, states: Collection[str]) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        with self._engine.connect() as connection:
            for state in sorted(states):
                query = zones_query(owner, state)
                found += [(state, zone) for zone in connection.execute(query).scalars()]
        return found

    def candidates(
        self, owner: Owner, ranges: Sequence[WallRange], where: AgendaFilter
    ) -> list[Candidate]:
        if not ranges:
            return []
        found: list[Candidate] = []
        with self._engine.connect() as connection:
            for first in range(0, len(ranges), _RANGES_AT_ONCE):
                query = candidates_query(owner, ranges[first : first + _RANGES_AT_ONCE], where)
                found.extend(Candidate(*row) for row in connection.execute(query))
        return found

    def recorded(
        self, owner: Owner, start: datetime, end: datetime, where: AgendaFilter
    ) -> list[Recorded]:
        at = schedule_occurrences.c.nominal_fire_at
        conditions = _filters(owner, frozenset(), where)  # every state
        if self._engine.dialect.name == "sqlite":
            # Without statistics SQLite would walk the owner's schedules; the
            # band's few occurrences must drive the join instead.
            conditions = [
                unindexed(schedules.c.tenant_id) == owner.tenant_id,
                unindexed(schedules.c.principal_id) == owner.principal_id,
                *conditions[1:],
            ]
        query = (
            select(
                schedule_occurrences.c.schedule_id,
                at,
                schedule_occurrences.c.disposition,
                schedule_occurrences.c.reason_code,
                runs.c.status,
                schedules.c.state,
                schedules.c.current_revision,
                schedules.c.cadence_zone,
            )
            .select_from(
                schedule_occurrences.join(
                    schedules, schedules.c.id == schedule_occurrences.c.schedule_id
                ).outerjoin(runs, runs.c.id == schedule_occurrences.c.run_id)
            )
            .where(at >= start, at < end, *conditions)
        )
        with self._engine.connect() as connection:
            return [Recorded(*row) for row in connection.execute(query)]

    def definitions(self, revisions: Collection[tuple[UUID, int]]) -> dict[tuple[UUID, int], str]:
        asked = sorted(revisions)
        found: dict[tuple[UUID, int], str] = {}
        key = tuple_(schedule_revisions.c.schedule_id, schedule_revisions.c.revision)
        with self._engine.connect() as connection:
            for first in range(0, len(asked), _DEFINITIONS_AT_ONCE):
                chunk = asked[first : first + _DEFINITIONS_AT_ONCE]
                query = select(
                    schedule_revisions.c.schedule_id,
                    schedule_revisions.c.revision,
                    schedule_revisions.c.definition,
                ).where(key.in_(chunk))
                for schedule_id, revision, definition in connection.execute(query):
                    found[schedule_id, revision] = definition
        return found
