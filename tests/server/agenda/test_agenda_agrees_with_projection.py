"""The agenda holds every firing of every schedule's projection, once, to the instant.

Seeded random schedules of every kind, in zones with every kind of clock change
(New York and London's hour, Lord Howe's half hour, Nuuk's change at
midnight, Kolkata's none, Apia's), over 92 days spanning the spring changes:
the agenda walked page by page (200 a page, each page resumed from the one
before as the route resumes it) lists exactly the projection's firings
(``firings_between``, the calculator the scheduler uses), in order, with the
same local and scheduled fields. 500 schedules on SQLite; fewer on both.
With now inside the window, schedules resumed at random instants and some of
their past firings recorded, the agenda marks ``expected`` exactly the
instants each projection expects (``control.projection.project``).
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any
from uuid import UUID, uuid4

import pytest

from server.agenda.items import with_expected
from server.agenda.sweep import agenda_page
from server.control.projection import project
from server.control.scheduler_status import OVERDUE_AFTER
from server.definitions.checks import parse_definition
from server.domain.projection import firings_between
from server.storage.records import (
    Owner,
    RevisionRecord,
    ScheduleRecord,
    ScheduleView,
)
from server.storage.sql.store import SqlStore
from tests.server.agenda.ledger import record_missed
from tests.server.api.conftest import definition

ALICE = Owner("acme", "alice")
START = datetime(2027, 2, 20, tzinfo=UTC)
END = START + timedelta(days=92)
NOW = START - timedelta(days=1)
CREATED = START - timedelta(days=30)
ZONES = (
    "America/New_York",
    "Europe/London",
    "Australia/Lord_Howe",
    "America/Nuuk",
    "Asia/Kolkata",
    "Pacific/Apia",
)
_TICK = timedelta(microseconds=1)


def _cadence(rng: random.Random) -> dict[str, Any]:
    kind = rng.choice(("ONCE", "DAILY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"))
    if kind == "ONCE":
        at = START + timedelta(seconds=rng.randrange(int((END - START).total_seconds())))
        return {"kind": kind, "at": at.replace(microsecond=0).isoformat()}
    # Wall times around the changes (00:00-03:00) more often than elsewhere.
    hour = rng.choice((0, 1, 2, 2, 3, rng.randrange(24)))
    rule: dict[str, Any] = {
        "kind": kind,
        "local_time": f"{hour:02d}:{rng.choice((0, 15, 30, 59)):02d}",
        "timezone": rng.choice(ZONES),
    }
    if kind == "WEEKLY":
        rule["weekdays"] = sorted(rng.sample(range(1, 8), rng.randrange(1, 4)))
    elif kind == "MONTHLY":
        rule.update(days_of_month=sorted(rng.sample(range(1, 32), 2)), last_day=rng.random() < 0.5)
    elif kind == "YEARLY":
        rule["dates"] = [{"month": m, "day": rng.randrange(1, 29)} for m in (3, 4)]
    return rule


def _import(
    store: SqlStore, count: int, seed: int, resumed_by: datetime | None = None
) -> list[ScheduleView]:
    """``count`` ACTIVE schedules; most resumed at a random instant before ``resumed_by``."""
    rng = random.Random(seed)
    views = []
    for _ in range(count):
        checked = parse_definition(definition(cadence=_cadence(rng)))
        schedule_id = uuid4()
        since = CREATED
        if resumed_by is not None and rng.random() < 0.7:
            since += timedelta(seconds=rng.randrange(int((resumed_by - CREATED).total_seconds())))
        record = ScheduleRecord(
            schedule_id, ALICE, "ACTIVE", None, 1, None, 0, CREATED, CREATED, active_since=since
        )
        revision = RevisionRecord(schedule_id, 1, checked.text, "alice", CREATED)
        views.append(ScheduleView(record, revision))
    store.schedules.import_many(views)
    return views


def _record_some(store: SqlStore, views: list[ScheduleView], before: datetime, seed: int) -> None:
    """About a third of each schedule's firings in the window before ``before``, as MISSED."""
    rng = random.Random(seed)
    missed = []
    for view in views:
        cadence = parse_definition(_payload(view)).cadence
        for firing in firings_between(cadence, START - _TICK, before):
            if rng.random() < 1 / 3:
                missed.append((uuid4(), view.schedule.schedule_id, firing.at))
    record_missed(store, missed)


def _projected(views: list[ScheduleView]) -> list[tuple[Any, ...]]:
    expected = []
    for view in views:
        cadence = parse_definition(_payload(view)).cadence
        for firing in firings_between(cadence, START - _TICK, END):
            expected.append(_fields(firing, view.schedule.schedule_id))
    return sorted(expected, key=lambda fields: (fields[0], fields[1]))


def _payload(view: ScheduleView) -> dict[str, Any]:
    payload: dict[str, Any] = json.loads(view.revision.definition)
    return payload


def _fields(firing: Any, schedule_id: UUID) -> tuple[Any, ...]:
    return (
        firing.at,
        schedule_id,
        firing.local.replace(tzinfo=None),
        firing.scheduled_date,
        firing.scheduled_time,
        firing.adjustment,
    )


def _walked(store: SqlStore, limit: int) -> list[tuple[Any, ...]]:
    found: list[tuple[Any, ...]] = []
    after, band = None, None
    while True:
        page = agenda_page(
            store.agenda, ALICE, (START, END), NOW, after=after, limit=limit, band=band
        )
        assert len(page.items) <= limit
        found.extend(_fields(item.firing, item.schedule_id) for item in page.items)
        if not page.more:
            return found
        after, band = (page.items[-1].at, page.items[-1].schedule_id), page.band


def test_the_agenda_holds_each_of_500_projections_firings_once(store: SqlStore) -> None:
    views = _import(store, 500, seed=34)
    expected = _projected(views)

    walked = _walked(store, 200)

    assert len(expected) > 15_000
    assert walked == expected


@pytest.mark.each_backend
def test_the_agenda_holds_each_projections_firing_once_on_each_database(store: SqlStore) -> None:
    views = _import(store, 60, seed=7)
    expected = _projected(views)

    walked = _walked(store, 50)

    assert walked == expected


def _expected_walked(store: SqlStore, now: datetime, limit: int) -> list[tuple[datetime, UUID]]:
    """The agenda's expected items, page by page, marked as the route marks them."""
    found: list[tuple[datetime, UUID]] = []
    since = partial(store.schedules.active_since, ALICE)
    after, band = None, None
    while True:
        page = agenda_page(
            store.agenda, ALICE, (START, END), now, after=after, limit=limit, band=band
        )
        marked = with_expected(page.items, since, now - OVERDUE_AFTER)
        found.extend((item.at, item.schedule_id) for item in marked if item.expected)
        if not page.more:
            return found
        after, band = (page.items[-1].at, page.items[-1].schedule_id), page.band


def _expected_projected(
    store: SqlStore, views: list[ScheduleView], now: datetime
) -> list[tuple[datetime, UUID]]:
    found = []
    for view in views:
        stored = store.schedules.get(ALICE, view.schedule.schedule_id)
        assert stored is not None
        cadence = parse_definition(_payload(view)).cadence
        projection = project(store, stored, cadence, START, END, now)
        found.extend((at, view.schedule.schedule_id) for at in projection.expected)
    return sorted(found)


def test_the_agenda_expects_each_of_300_projections_unrecorded_past_instants(
    store: SqlStore,
) -> None:
    now = START + timedelta(days=40)
    views = _import(store, 300, seed=36, resumed_by=now)
    _record_some(store, views, now, seed=36)
    expected = _expected_projected(store, views, now)

    walked = _expected_walked(store, now, 200)

    assert len(expected) > 2_000
    assert walked == expected


@pytest.mark.each_backend
def test_the_agenda_expects_each_projections_unrecorded_instants_on_each_database(
    store: SqlStore,
) -> None:
    now = START + timedelta(days=40)
    views = _import(store, 40, seed=8, resumed_by=now)
    _record_some(store, views, now, seed=8)
    expected = _expected_projected(store, views, now)

    walked = _expected_walked(store, now, 50)

    assert expected and walked == expected
