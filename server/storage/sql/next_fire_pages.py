"""One page of the schedule list in the "soonest first" order (``next_fire_order``).

Each group is read on its own keyset, the first from just after the cursor's
position, the next ones from their start, until the page is full: a page
costs one query, or one more per group it crosses, never a read from the
list's start. The ACTIVE schedules come through ``ix_schedules_next_fire``
(owner, state, ``next_fire_at``, id) in index order; the others through the
owner's listing or state index, which the database chooses between.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection

from server.domain.states import ScheduleState
from server.storage.next_fire_order import NextFireGroup, NextFirePosition
from server.storage.records import ScheduleView
from server.storage.sql.keyset import keyset_page
from server.storage.sql.outcome import with_outcome
from server.storage.sql.schedule_rows import schedule_view, schedule_views
from server.storage.tables import schedules


def _within(group: NextFireGroup) -> list[Any]:
    """The conditions that keep one group's rows."""
    if group is NextFireGroup.SOON:
        return [schedules.c.state == ScheduleState.ACTIVE, schedules.c.next_fire_at.is_not(None)]
    if group is NextFireGroup.UNPLANNED:
        return [schedules.c.state == ScheduleState.ACTIVE, schedules.c.next_fire_at.is_(None)]
    return [schedules.c.state.in_(sorted(group.states))]


def next_fire_views(
    connection: Connection,
    conditions: Sequence[Any],
    states: frozenset[str],
    after: NextFirePosition | None,
    limit: int,
) -> list[ScheduleView]:
    """Up to ``limit`` rows matching ``conditions`` after ``after``, in the order's groups.

    ``states`` empty admits every group; otherwise only the groups of those states.
    """
    views: list[ScheduleView] = []
    start = NextFireGroup.SOON if after is None else NextFireGroup(after[0])
    for group in NextFireGroup:
        if len(views) >= limit:
            break
        if group < start or (states and not group.states & states):
            continue
        key = after[1:] if after is not None and group is start else None
        soon = group is NextFireGroup.SOON
        query = with_outcome(schedule_views()).where(*conditions, *_within(group))
        query = keyset_page(
            query,
            schedules.c.next_fire_at if soon else schedules.c.updated_at,
            schedules.c.id,
            key,
            limit - len(views),
            newest_first=not soon,
        )
        views += [schedule_view(row) for row in connection.execute(query).mappings()]
    return views
