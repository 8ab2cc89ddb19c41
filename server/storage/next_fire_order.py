"""The list's "soonest first" order (``order=next_fire``): its groups and a row's position.

The order people plan by: ACTIVE schedules by their next firing, soonest first,
then ``schedule_id``; then those not firing, newest ``updated_at`` first, then
``schedule_id`` descending, group by group: ACTIVE ones whose next firing is not
known yet (rebuilt by the worker), PAUSED, then COMPLETED and CANCELLED. A
position is (group, the group's instant, id), so a keyset page continues within
a group and on into the next (``sql.next_fire_pages``).
"""

from __future__ import annotations

from datetime import datetime
from enum import IntEnum
from uuid import UUID

from server.domain.states import ScheduleState
from server.storage.records import ScheduleRecord

NextFirePosition = tuple[int, datetime, UUID]
"""(``NextFireGroup``, ``next_fire_at`` or ``updated_at``, ``schedule_id``)."""


class NextFireGroup(IntEnum):
    """The groups of the order, in the order they are listed."""

    SOON = 0
    """ACTIVE with a next firing: ``next_fire_at`` ascending, then id ascending."""
    UNPLANNED = 1
    """ACTIVE whose next firing is not known yet: newest ``updated_at`` first."""
    PAUSED = 2
    """PAUSED: newest ``updated_at`` first (the most recently paused)."""
    ENDED = 3
    """COMPLETED and CANCELLED: newest ``updated_at`` first."""

    @property
    def states(self) -> frozenset[str]:
        if self in (NextFireGroup.SOON, NextFireGroup.UNPLANNED):
            return frozenset({ScheduleState.ACTIVE})
        if self is NextFireGroup.PAUSED:
            return frozenset({ScheduleState.PAUSED})
        return frozenset({ScheduleState.COMPLETED, ScheduleState.CANCELLED})


def next_fire_position(schedule: ScheduleRecord) -> NextFirePosition:
    """Where ``schedule`` stands in the order."""
    if schedule.state == ScheduleState.ACTIVE and schedule.next_fire_at is not None:
        return NextFireGroup.SOON, schedule.next_fire_at, schedule.schedule_id
    if schedule.state == ScheduleState.ACTIVE:
        group = NextFireGroup.UNPLANNED
    elif schedule.state == ScheduleState.PAUSED:
        group = NextFireGroup.PAUSED
    else:
        group = NextFireGroup.ENDED
    return group, schedule.updated_at, schedule.schedule_id
