"""A fresh demo shows no false "Not fired" day: every firing it should have decided is recorded.

Loaded at instants across the day and either side of a clock change, no
ACTIVE demo schedule's projection over the last 92 days, nor the agenda over
them, expects a firing, but for the one night the demo means to show:
``nightly-backup-check``'s ledger ``-``, the night the scheduler was not
running (its third newest firing). On SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import partial
from uuid import UUID

import pytest

from server.agenda.items import with_expected
from server.agenda.sweep import agenda_page
from server.control.projection import MAX_WINDOW, project
from server.control.scheduler_status import OVERDUE_AFTER
from server.definitions.checks import parse_definition
from server.demo import demo_id, load_demo
from server.demo.entries import demo_data
from server.domain.recurrence import latest_at_or_before
from server.storage.jsontext import load_object
from server.storage.records import Owner
from server.storage.sql.store import SqlStore

pytestmark = pytest.mark.each_backend

OWNER = Owner("acme", "alice")
LOADS = [
    pytest.param(datetime(2026, 11, 30, 9, 0, tzinfo=UTC), id="a-winter-morning"),
    pytest.param(datetime(2027, 3, 14, 7, 20, tzinfo=UTC), id="new-york-springs-forward"),
    pytest.param(datetime(2027, 7, 1, 23, 59, tzinfo=UTC), id="a-summer-midnight"),
]
MEANT = "nightly-backup-check"


def _keys() -> dict[UUID, str]:
    return {demo_id("alice", "schedule", s.key): s.key for s in demo_data().schedules}


def _meant_night(store: SqlStore, now: datetime) -> datetime:
    """The third newest firing of the nightly backup check: its ledger's ``-``."""
    view = store.schedules.get(OWNER, demo_id("alice", "schedule", MEANT))
    assert view is not None
    cadence = parse_definition(load_object(view.revision.definition)).cadence
    at = latest_at_or_before(cadence, now)
    for _ in range(2):
        assert at is not None
        at = latest_at_or_before(cadence, at - timedelta(microseconds=1))
    assert at is not None
    return at


def _projected(store: SqlStore, now: datetime) -> set[tuple[str, datetime]]:
    keys = _keys()
    found = set()
    for schedule_id, key in keys.items():
        view = store.schedules.get(OWNER, schedule_id)
        assert view is not None
        if view.schedule.state != "ACTIVE":
            continue
        cadence = parse_definition(load_object(view.revision.definition)).cadence
        projection = project(store, view, cadence, now - MAX_WINDOW, now, now)
        found.update((key, at) for at in projection.expected)
    return found


def _in_agenda(store: SqlStore, now: datetime) -> set[tuple[str, datetime]]:
    keys = _keys()
    found = set()
    since = partial(store.schedules.active_since, OWNER)
    after, band = None, None
    while True:
        page = agenda_page(
            store.agenda, OWNER, (now - MAX_WINDOW, now), now, after=after, limit=200, band=band
        )
        marked = with_expected(page.items, since, now - OVERDUE_AFTER)
        found.update((keys[i.schedule_id], i.at) for i in marked if i.expected)
        if not page.more:
            return found
        after, band = (page.items[-1].at, page.items[-1].schedule_id), page.band


@pytest.mark.parametrize("now", LOADS)
def test_a_fresh_demo_expects_only_the_night_it_means_to_show(
    store: SqlStore, now: datetime
) -> None:
    load_demo(store, "alice", "acme", now)
    meant = {(MEANT, _meant_night(store, now))}

    assert _projected(store, now) == meant
    assert _in_agenda(store, now) == meant
