"""The density's counting rules on their own, from the groups storage answers.

Which instants a group of schedules contributes (ACTIVE from its creation,
PAUSED as if resumed after now, the terminal states none) and that a record
at a computed instant is that item, not a second one.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from server.agenda.density import BucketSize, bucket_starts, count_items
from server.domain.cadence import parse_cadence
from server.storage.density_port import CadenceGroup, LedgerGroup

START = datetime(2026, 11, 30, tzinfo=UTC)
END = START + timedelta(days=3)
NOW = START + timedelta(days=1, hours=12)
DAILY_0900 = json.dumps(
    parse_cadence({"kind": "DAILY", "local_time": "09:00", "timezone": "UTC"}).to_payload(),
    sort_keys=True,
)
DAYS = bucket_starts(START, END, BucketSize.DAY, ZoneInfo("UTC"))


def _at(day: int, hour: int = 9) -> datetime:
    return START + timedelta(days=day, hours=hour)


def test_a_cadence_shared_by_schedules_counts_once_per_schedule() -> None:
    groups = [CadenceGroup(DAILY_0900, "ACTIVE", None, 40)]
    assert count_items(DAYS, END, NOW, groups, []) == [40, 40, 40]


def test_schedules_created_inside_the_window_count_from_their_creation() -> None:
    groups = [CadenceGroup(DAILY_0900, "ACTIVE", _at(1, 8), 2)]
    assert count_items(DAYS, END, NOW, groups, []) == [0, 2, 2]


def test_paused_schedules_count_only_after_now_as_if_resumed() -> None:
    groups = [CadenceGroup(DAILY_0900, "PAUSED", None, 3)]
    assert count_items(DAYS, END, NOW, groups, []) == [0, 0, 3]


def test_a_record_at_a_computed_instant_is_that_item() -> None:
    groups = [CadenceGroup(DAILY_0900, "ACTIVE", None, 5)]
    ledger = [LedgerGroup(DAILY_0900, "ACTIVE", None, _at(0), 5)]
    assert count_items(DAYS, END, NOW, groups, ledger) == [5, 5, 5]


def test_records_that_are_no_computed_firing_count_on_their_own() -> None:
    ledger = [
        LedgerGroup(DAILY_0900, "ACTIVE", None, _at(0, 7), 1),  # an older cadence's instant
        LedgerGroup(DAILY_0900, "CANCELLED", None, _at(1), 4),
        LedgerGroup(DAILY_0900, "PAUSED", None, _at(0), 2),  # paused: its past is the ledger's
        LedgerGroup(DAILY_0900, "ACTIVE", _at(1, 8), _at(0), 1),  # before its creation
    ]
    groups = [CadenceGroup(DAILY_0900, "ACTIVE", None, 1)]
    assert count_items(DAYS, END, NOW, groups, ledger) == [1 + 1 + 2 + 1, 1 + 4, 1]


def test_a_paused_schedule_s_records_count_alone_when_paused_ones_are_not_added() -> None:
    later = _at(2)  # after now: as if resumed, this would be the computed item itself
    ledger = [LedgerGroup(DAILY_0900, "PAUSED", None, later, 1)]
    active = [CadenceGroup(DAILY_0900, "ACTIVE", None, 1)]
    assert count_items(DAYS, END, NOW, active, ledger) == [1, 1, 2]
    paused_too = [*active, CadenceGroup(DAILY_0900, "PAUSED", None, 1)]
    assert count_items(DAYS, END, NOW, paused_too, ledger) == [1, 1, 2]
