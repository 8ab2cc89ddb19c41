"""The agenda's reads over SQL (``server.storage.agenda_port``), each on an index.

- ``zones``: a loose index scan of ``ix_schedules_wall_clock`` in one recursive
  statement per state, one ``min(cadence_zone) > previous`` per zone, never a
  walk of the owner's rows;
- ``band_schedules``: one range scan of the same index per wall-clock range of
  the band (the ranges are disjoint), driven by the ranges as rows (four arrays
  on PostgreSQL), 200 ranges a statement, counted per herd;
- ``members``: the herds' members the page shows: whole herds in one statement
  on ``ix_schedules_cadence_groups``, a page's first few a merge of one scan of
  ``ix_schedules_wall_clock`` per herd;
- ``recorded``: the ledger's band through ``ix_occurrences_nominal``, each
  occurrence with its run's status (none when erased);
- ``definitions``: the current definitions the agenda has not cached yet.

Every read filters as the schedule list does (``schedules.list_filters``), and
runs on PostgreSQL without parallel workers (``serial``); ``reading`` holds one
connection for a page's reads.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from functools import cache
from typing import Any
from uuid import UUID

from sqlalchemy import (
    Connection,
    Engine,
    Integer,
    String,
    TextClause,
    and_,
    case,
    column,
    func,
    literal,
    select,
    text,
    tuple_,
    union_all,
)

from server.domain.states import ScheduleState
from server.storage.agenda_port import (
    AgendaFilter,
    BandSchedules,
    Candidate,
    Herd,
    Recorded,
    WallRange,
)
from server.storage.records import Owner
from server.storage.sql.keyset import owned_by
from server.storage.sql.schedules import list_filters
from server.storage.sql.search_index import unindexed
from server.storage.tables import runs, schedule_occurrences, schedule_revisions, schedules

__all__ = [
    "SqlAgendaRows",
    "band_query",
    "first_members_query",
    "members_query",
    "serial",
    "zones_query",
]

_CANDIDATE_COLUMNS = (
    schedules.c.id,
    schedules.c.state,
    schedules.c.created_at,
    schedules.c.current_revision,
    schedules.c.cadence_key,
)

_DEFINITIONS_AT_ONCE = 500
_RANGES_AT_ONCE = 200
"""Under SQLite's 500 terms of a compound SELECT (a page may show many herds), and
few parameters for a band's ranges (an owner may use every zone)."""


@contextmanager
def serial(engine: Engine) -> Iterator[Connection]:
    """A connection whose statements PostgreSQL runs without parallel workers.

    The agenda's reads are many short index scans. PostgreSQL's estimate of a
    band's herds is far above what it finds, and the parallel plan it then
    picks spends longer starting its workers than the scans take.
    """
    with engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql("SET LOCAL max_parallel_workers_per_gather = 0")
        yield connection


def _filters(owner: Owner, states: frozenset[str], where: AgendaFilter) -> list[Any]:
    return list_filters(
        owner,
        states,
        words=where.words,
        needs_attention=where.needs_attention,
        overdue_before=where.overdue_before,
    )


def _per_state(owner: Owner, where: AgendaFilter) -> Callable[[str], list[Any]]:
    """The filters of one state, built once per state for a statement's many scans."""
    return cache(lambda state: _filters(owner, frozenset({state}), where))


_WALL_COLUMNS = {"state": String, "zone": String, "low": Integer, "high": Integer}
_WALL_ARRAYS = text(
    "SELECT * FROM unnest(CAST(:states AS VARCHAR[]), CAST(:zones AS VARCHAR[]),"
    " CAST(:lows AS INTEGER[]), CAST(:highs AS INTEGER[])) AS walls(state, zone, low, high)"
)
"""PostgreSQL's: the ranges as four arrays, one statement for any number of them."""


@cache
def _wall_rows(count: int) -> TextClause:
    """SQLite's: ``count`` rows of ranges, each value a bound parameter (no arrays there)."""
    return text(
        " UNION ALL ".join(
            f"SELECT CAST(:wall{n}_state AS VARCHAR) AS state,"
            f" CAST(:wall{n}_zone AS VARCHAR) AS zone,"
            f" CAST(:wall{n}_low AS INTEGER) AS low, CAST(:wall{n}_high AS INTEGER) AS high"
            for n in range(count)
        )
    )


def _walls(ranges: Sequence[WallRange], dialect: str) -> Any:
    """A band's wall ranges as the rows of a CTE, every value a bound parameter.

    The statement's text depends on the number of ranges at most, so it is
    compiled once for each (SQLAlchemy caches no statement holding a
    ``values()`` list, and compiling it was most of a page's own work).
    """
    if dialect == "postgresql":
        walls = _WALL_ARRAYS.bindparams(
            states=[wall.state for wall in ranges],
            zones=[wall.zone for wall in ranges],
            lows=[wall.low for wall in ranges],
            highs=[wall.high for wall in ranges],
        )
    else:
        walls = _wall_rows(len(ranges)).bindparams(
            **{
                f"wall{n}_{name}": value
                for n, wall in enumerate(ranges)
                for name, value in zip(
                    _WALL_COLUMNS, (wall.state, wall.zone, wall.low, wall.high), strict=True
                )
            }
        )
    return walls.columns(*(column(name, kind) for name, kind in _WALL_COLUMNS.items())).cte("walls")


def band_query(
    owner: Owner,
    ranges: Sequence[WallRange],
    start: datetime,
    where: AgendaFilter,
    dialect: str,
) -> Any:
    """The schedules named by the wall ranges, counted per herd: one index range scan each.

    The ranges are the rows of a CTE (``_walls``), each driving one search of
    ``ix_schedules_wall_clock`` bounded by its zone and wall times (an OR of
    them would walk every one of the owner's rows), and the index holds all a
    count needs. One short statement whatever the number of ranges, so it is
    cheap to build and to plan. ``recent`` counts the ACTIVE ones created
    after ``start``, which fire only from their creation.
    """
    walls = _walls(ranges, dialect)
    recent = case(
        (and_(schedules.c.state == ScheduleState.ACTIVE, schedules.c.created_at > start), 1),
        else_=0,
    )
    keys = (
        schedules.c.state,
        schedules.c.cadence_zone,
        schedules.c.cadence_wall_time,
        schedules.c.cadence_key,
    )
    in_wall = and_(
        schedules.c.state == walls.c.state,
        schedules.c.cadence_zone == walls.c.zone,
        schedules.c.cadence_wall_time.between(walls.c.low, walls.c.high),
    )
    return (
        select(*keys, func.count(), func.sum(recent))
        .select_from(walls.join(schedules, in_wall))
        .where(*_filters(owner, frozenset(wall.state for wall in ranges), where))
        .group_by(*keys)
    )


def members_query(
    owner: Owner,
    cadences: Collection[tuple[str, str]],
    where: AgendaFilter,
    after: UUID | None = None,
    created_after: datetime | None = None,
) -> Any:
    """Every schedule with one of the (state, cadence key) pairs: the members of those herds.

    One statement by equality on state and cadence, whatever the herds'
    number; a schedule in another of the pairs' states, or created after a
    herd's ``created_by``, is left out by the caller.
    """
    conditions = [
        *_filters(owner, frozenset(state for state, _ in cadences), where),
        schedules.c.cadence_key.in_(sorted({key for _, key in cadences})),
    ]
    if created_after is not None:
        conditions.append(schedules.c.created_at > created_after)
    if after is not None:
        conditions.append(schedules.c.id > after)
    return select(*_CANDIDATE_COLUMNS).where(*conditions)


def first_members_query(
    owner: Owner,
    herds: Sequence[Herd],
    where: AgendaFilter,
    after: UUID | None,
    limit: int,
) -> Any:
    """The first ``limit`` members of the herds by id, each tagged with its herd's position.

    One scan per herd reads it in id order, so the first of them all is a
    merge of the scans that stops there, never a sort of every member.
    """
    filters = _per_state(owner, where)

    def scan(position: int, herd: Herd) -> Any:
        conditions = [
            *filters(herd.state),
            schedules.c.cadence_zone == herd.zone,
            schedules.c.cadence_wall_time == herd.wall_time,  # equal: the index reads by id
            schedules.c.cadence_key == herd.cadence_key,
        ]
        if herd.created_by is not None:
            conditions.append(schedules.c.created_at <= herd.created_by)
        if after is not None:
            conditions.append(schedules.c.id > after)
        return select(literal(position, Integer).label("herd"), *_CANDIDATE_COLUMNS).where(
            *conditions
        )

    scans = union_all(*(scan(position, herd) for position, herd in enumerate(herds)))
    return scans.order_by(scans.selected_columns.id).limit(limit)


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


def _every_member(
    connection: Connection,
    owner: Owner,
    herds: Sequence[Herd],
    where: AgendaFilter,
    after: UUID | None,
    created_after: datetime | None,
) -> list[list[Candidate]]:
    """Each herd's members, read by cadence and sorted here: each row to every herd it is in."""
    positions: dict[tuple[str, str], list[int]] = {}
    for position, herd in enumerate(herds):
        positions.setdefault((herd.state, herd.cadence_key), []).append(position)
    cadences = sorted(positions)
    read = [
        Candidate(*row)
        for first in range(0, len(cadences), _RANGES_AT_ONCE)
        for row in connection.execute(
            members_query(
                owner, cadences[first : first + _RANGES_AT_ONCE], where, after, created_after
            )
        )
    ]
    read.sort(key=lambda member: member.schedule_id.int)
    found: list[list[Candidate]] = [[] for _ in herds]
    for member in read:
        for position in positions.get((member.state, member.cadence_key), ()):
            if herds[position].holds(member.created_at):
                found[position].append(member)
    return found


class SqlAgendaRows:
    def __init__(self, engine: Engine, held: Connection | None = None) -> None:
        self._engine = engine
        self._held = held

    @contextmanager
    def reading(self) -> Iterator[SqlAgendaRows]:
        with self._connection() as connection:
            yield SqlAgendaRows(self._engine, connection)

    @contextmanager
    def _connection(self) -> Iterator[Connection]:
        """The held connection, else one for this read alone."""
        if self._held is not None:
            yield self._held
            return
        with serial(self._engine) as connection:
            yield connection

    def zones(self, owner: Owner, states: Collection[str]) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        with self._connection() as connection:
            for state in sorted(states):
                query = zones_query(owner, state)
                found += [(state, zone) for zone in connection.execute(query).scalars()]
        return found

    def band_schedules(
        self, owner: Owner, ranges: Sequence[WallRange], start: datetime, where: AgendaFilter
    ) -> BandSchedules:
        found = BandSchedules(herds=[], candidates=[])
        with_recent: list[Herd] = []
        with self._connection() as connection:
            for first in range(0, len(ranges), _RANGES_AT_ONCE):
                chunk = ranges[first : first + _RANGES_AT_ONCE]
                query = band_query(owner, chunk, start, where, connection.dialect.name)
                for state, zone, wall, key, count, recent in connection.execute(query):
                    created_by = start if state == ScheduleState.ACTIVE else None
                    herd = Herd(state, zone, wall, key, created_by, count - recent)
                    if herd.schedules:
                        found.herds.append(herd)
                    if recent:
                        with_recent.append(replace(herd, created_by=None))
            if with_recent:
                # The few created inside the band, one by one: they fire from their creation.
                recent_ones = _every_member(connection, owner, with_recent, where, None, start)
                for members in recent_ones:
                    found.candidates.extend(members)
        return found

    def members(
        self,
        owner: Owner,
        herds: Sequence[Herd],
        where: AgendaFilter,
        *,
        after: UUID | None = None,
        limit: int | None = None,
    ) -> list[list[Candidate]]:
        if not herds:
            return []
        with self._connection() as connection:
            if limit is None:
                return _every_member(connection, owner, herds, where, after, None)
            read: list[tuple[int, Candidate]] = []
            for first in range(0, len(herds), _RANGES_AT_ONCE):
                chunk = herds[first : first + _RANGES_AT_ONCE]
                query = first_members_query(owner, chunk, where, after, limit)
                read += [
                    (first + position, Candidate(*row))
                    for position, *row in connection.execute(query)
                ]
        read.sort(key=lambda found: found[1].schedule_id.int)
        found: list[list[Candidate]] = [[] for _ in herds]
        for position, member in read[:limit]:
            found[position].append(member)
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
                schedules.c.cadence_key,
                schedules.c.created_at,
            )
            .select_from(
                schedule_occurrences.join(
                    schedules, schedules.c.id == schedule_occurrences.c.schedule_id
                ).outerjoin(runs, runs.c.id == schedule_occurrences.c.run_id)
            )
            .where(at >= start, at < end, *conditions)
        )
        with self._connection() as connection:
            found: Sequence[Any] = connection.execute(query).all()  # ten columns: past Row's typing
        return [Recorded(*row) for row in found]

    def definitions(self, revisions: Collection[tuple[UUID, int]]) -> dict[tuple[UUID, int], str]:
        asked = sorted(revisions)
        found: dict[tuple[UUID, int], str] = {}
        key = tuple_(schedule_revisions.c.schedule_id, schedule_revisions.c.revision)
        with self._connection() as connection:
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
