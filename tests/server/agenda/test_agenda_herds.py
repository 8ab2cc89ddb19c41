"""Herds: many schedules sharing a few cadences, listed member by member at any page size.

The agenda counts schedules that fire together (a herd) and reads only the
members its page shows, so a cursor may land anywhere inside a herd. Seeded
schedules drawn from a few cadences (some created inside the window, some
PAUSED and shown as if resumed), some of their past firings recorded and a few
records at instants their cadence never names, walked at page sizes that
split the herds: every page lists exactly the items a schedule-by-schedule
account gives (each projection cut at its creation, or at now when PAUSED,
merged with the ledger), with each instant's clash count and each record's
disposition.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import pytest

from server.agenda.sweep import agenda_page
from server.definitions.checks import parse_definition
from server.domain.cadence import Cadence
from server.domain.projection import firings_between
from server.domain.states import Disposition, ScheduleState
from server.storage.records import (
    Owner,
    RevisionRecord,
    ScheduleRecord,
    ScheduleView,
)
from server.storage.sql.store import SqlStore
from tests.server.agenda.ledger import record_missed
from tests.server.api.conftest import definition

pytestmark = pytest.mark.each_backend

ALICE = Owner("acme", "alice")
START = datetime(2027, 3, 24, tzinfo=UTC)
END = START + timedelta(days=10)
NOW = START + timedelta(days=4, hours=7)
CREATED = START - timedelta(days=30)
_TICK = timedelta(microseconds=1)
CADENCES: tuple[dict[str, Any], ...] = (
    {"kind": "DAILY", "local_time": "09:00", "timezone": "Europe/London"},
    {"kind": "DAILY", "local_time": "09:00", "timezone": "UTC"},
    {"kind": "DAILY", "local_time": "10:00", "timezone": "Europe/Paris"},
    {"kind": "DAILY", "local_time": "01:30", "timezone": "Europe/London"},
    {"kind": "WEEKLY", "local_time": "09:00", "timezone": "UTC", "weekdays": [1, 3, 5]},
    {"kind": "DAILY", "local_time": "05:00", "timezone": "America/New_York"},
)
Item = tuple[datetime, UUID, int, str | None]
"""An item as compared: instant, schedule, clash count, recorded disposition."""
Records = dict[tuple[UUID, datetime], str]


def _schedules(store: SqlStore, count: int, seed: int) -> list[tuple[ScheduleView, Cadence]]:
    rng = random.Random(seed)
    made = []
    for _ in range(count):
        checked = parse_definition(definition(cadence=rng.choice(CADENCES)))
        created = CREATED
        if rng.random() < 0.15:
            created = START + timedelta(seconds=rng.randrange(int((END - START).total_seconds())))
        state = ScheduleState.PAUSED if rng.random() < 0.2 else ScheduleState.ACTIVE
        schedule_id = UUID(int=rng.getrandbits(128))
        record = ScheduleRecord(schedule_id, ALICE, state, None, 1, None, 0, created, created)
        revision = RevisionRecord(schedule_id, 1, checked.text, "alice", created)
        made.append((ScheduleView(record, revision), checked.cadence))
    store.schedules.import_many([view for view, _ in made])
    return made


def _computed(schedule: ScheduleRecord, cadence: Cadence) -> list[datetime]:
    if schedule.state == ScheduleState.PAUSED:
        return [f.at for f in firings_between(cadence, max(NOW, START - _TICK), END)]
    since = max(schedule.created_at, START) - _TICK
    return [f.at for f in firings_between(cadence, since, END)]


def _record(store: SqlStore, made: list[tuple[ScheduleView, Cadence]], seed: int) -> Records:
    """A third of the past computed firings MISSED, and a stray record for every tenth schedule."""
    rng = random.Random(seed)
    records: Records = {}
    for view, cadence in made:
        schedule = view.schedule
        past = [at for at in _computed(schedule, cadence) if at < NOW]
        chosen = [at for at in past if rng.random() < 1 / 3]
        if rng.random() < 0.1:
            chosen.append(START + timedelta(hours=rng.randrange(4 * 24), minutes=17))
        for at in chosen:
            records[schedule.schedule_id, at] = Disposition.MISSED
    record_missed(store, ((UUID(int=rng.getrandbits(128)), *key) for key in records))
    return records


def _expected(made: list[tuple[ScheduleView, Cadence]], recorded: Records) -> list[Item]:
    keys = set(recorded)
    for view, cadence in made:
        keys.update((view.schedule.schedule_id, at) for at in _computed(view.schedule, cadence))
    clashes = Counter(at for _, at in keys)
    return sorted((at, sid, clashes[at], recorded.get((sid, at))) for sid, at in keys)


def _walked(store: SqlStore, limit: int) -> list[Item]:
    found: list[Item] = []
    after, band = None, None
    while True:
        page = agenda_page(
            store.agenda,
            ALICE,
            (START, END),
            NOW,
            as_if_resumed=True,
            after=after,
            limit=limit,
            band=band,
        )
        assert len(page.items) == limit or not page.more
        found += [(i.at, i.schedule_id, i.clash_count, i.disposition) for i in page.items]
        if not page.more:
            return found
        after, band = (page.items[-1].at, page.items[-1].schedule_id), page.band


@pytest.mark.parametrize("limit", [7, 100])
def test_every_page_lists_the_herds_member_by_member(store: SqlStore, limit: int) -> None:
    made = _schedules(store, 120, seed=34)
    records = _record(store, made, seed=34)
    expected = _expected(made, records)

    walked = _walked(store, limit)

    assert max(clashes for _, _, clashes, _ in expected) > 7  # a herd spans small pages
    assert walked == expected
