"""Cached sessions filed by the schedule that made them: the first step of every regroup.

A schedule's sessions make a bucket in activity order; a session of no
schedule, or alone in its schedule's bucket, is plain (its folder or History).
One walk over the sessions, each only filed: it runs for ten thousand of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter
from uuid import UUID

from viewmodels.sidebar.history_cache import CachedSession
from viewmodels.sidebar.rows import OrderedRows

ACTIVITY = attrgetter("order")
"""A session's place in activity order (newest first)."""

Buckets = dict[UUID, OrderedRows[CachedSession]]


def file_by_schedule(sessions: Iterable[CachedSession]) -> tuple[Buckets, list[CachedSession]]:
    """Every schedule's bucket, and the plain sessions in activity order."""
    by_schedule: dict[int, list[CachedSession]] = {}
    schedule_ids: list[UUID] = []  # in ``by_schedule``'s order: a dict keeps it
    plain: list[CachedSession] = []
    file_plain = plain.append
    members_of = by_schedule.get
    for session in sorted(sessions, key=ACTIVITY):
        schedule_id = session.schedule_id
        if schedule_id is None:
            file_plain(session)
            continue
        members = members_of(schedule_id.int)
        if members is None:
            by_schedule[schedule_id.int] = [session]
            schedule_ids.append(schedule_id)
        else:
            members.append(session)
    buckets = {
        schedule_id: OrderedRows.in_order([s.order for s in members], members)
        for schedule_id, members in zip(schedule_ids, by_schedule.values(), strict=True)
    }
    lone = [bucket.first() for bucket in buckets.values() if len(bucket) == 1]
    if lone:
        plain.extend(lone)
        plain.sort(key=ACTIVITY)
    return buckets, plain
