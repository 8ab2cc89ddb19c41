"""One contract every storage adapter must keep; each backend runs it through ``store``.

``each_backend`` (tests/server/conftest.py) gives each test a fresh SQLite file,
then a clean database on the test session's real PostgreSQL.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy.exc import IntegrityError, StatementError

from server.storage.ports import IdempotencyKeyReused, Store
from server.storage.records import (
    AuditEvent,
    FolderRecord,
    IdempotencyClaim,
    Materialization,
    MessageRecord,
    OccurrenceRecord,
    Owner,
    ProfileRecord,
    RevisionRecord,
    RunRecord,
    ScheduleChange,
    ScheduleRecord,
    ScheduleView,
    SessionRecord,
)

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
ALICE = Owner("acme", "alice")


pytestmark = pytest.mark.each_backend


def view(owner: Owner = ALICE, *, state: str = "ACTIVE", minutes: int = 0) -> ScheduleView:
    schedule_id = uuid4()
    at = NOW + timedelta(minutes=minutes)
    return ScheduleView(
        ScheduleRecord(
            schedule_id,
            owner,
            state,
            "user" if state == "PAUSED" else None,
            1,
            at + timedelta(hours=1) if state == "ACTIVE" else None,
            0,
            at,
            at,
        ),
        RevisionRecord(schedule_id, 1, '{"title":"t"}', owner.principal_id, at),
    )


def test_create_is_idempotent_per_key_and_hash(store: Store) -> None:
    first = view()
    claim = IdempotencyClaim("k", "h1")
    event = AuditEvent("schedule.created", ALICE, "alice", NOW, first.schedule.schedule_id, 1)
    assert store.schedules.create(first.schedule, first.revision, claim, [event]) == (
        first.schedule.schedule_id
    )
    second = view()
    assert store.schedules.create(second.schedule, second.revision, claim, []) == (
        first.schedule.schedule_id
    )
    with pytest.raises(IdempotencyKeyReused):
        store.schedules.create(second.schedule, second.revision, IdempotencyClaim("k", "h2"), [])
    assert store.schedules.get(ALICE, second.schedule.schedule_id) is None
    assert [e.event_type for e in store.audit.for_schedule(first.schedule.schedule_id)] == [
        "schedule.created"
    ]


def test_reads_are_confined_to_the_owner(store: Store) -> None:
    mine = view()
    store.schedules.import_many([mine, view(Owner("acme", "carol"))])
    assert store.schedules.get(Owner("acme", "carol"), mine.schedule.schedule_id) is None
    assert store.schedules.get(Owner("globex", "alice"), mine.schedule.schedule_id) is None
    listed = store.schedules.page(ALICE, frozenset(), None, 10)
    assert [v.schedule.schedule_id for v in listed] == [mine.schedule.schedule_id]


def test_keyset_page_filters_states_then_continues_after_position(store: Store) -> None:
    views = [view(state=s, minutes=i) for i, s in enumerate(["ACTIVE", "PAUSED", "CANCELLED"] * 3)]
    store.schedules.import_many(views)
    current = frozenset({"ACTIVE", "PAUSED"})
    first = store.schedules.page(ALICE, current, None, 4)
    last = first[-1].schedule
    rest = store.schedules.page(ALICE, current, (last.updated_at, last.schedule_id), 10)
    got = [v.schedule.schedule_id for v in first + rest]
    expected = [v.schedule.schedule_id for v in reversed(views) if v.schedule.state != "CANCELLED"]
    assert got == expected
    assert all(v.schedule.updated_at.tzinfo is not None for v in first)


def test_apply_is_compare_and_set(store: Store) -> None:
    original = view()
    store.schedules.import_many([original])
    paused = ScheduleChange("PAUSED", "user", None, 0, NOW + timedelta(minutes=1), None, ())
    assert store.schedules.apply(original.schedule, paused)
    assert not store.schedules.apply(original.schedule, paused)  # the row moved on
    current = store.schedules.get(ALICE, original.schedule.schedule_id)
    assert current is not None
    assert current.schedule.state == "PAUSED"
    assert current.schedule.next_fire_at is None


def test_database_rejects_inconsistent_pause_reason(store: Store) -> None:
    bad = view()
    broken = ScheduleChange("ACTIVE", "user", None, 0, NOW, None, ())
    store.schedules.import_many([bad])
    with pytest.raises(IntegrityError):
        store.schedules.apply(bad.schedule, broken)


def _occurrence(schedule_id: UUID, minutes: int, **links: object) -> OccurrenceRecord:
    nominal = NOW - timedelta(minutes=minutes)
    values: dict[str, object] = {
        "disposition": "MISSED",
        "session_id": None,
        "run_id": None,
        "reason_code": "misfire_grace_exceeded",
        "materialized_at": None,
    }
    values.update(links)
    return OccurrenceRecord(
        uuid4(),
        schedule_id,
        1,
        nominal,
        values["disposition"],
        values["session_id"],  # type: ignore[arg-type]
        values["run_id"],
        values["reason_code"],
        "v1",
        values["materialized_at"],
        None,
        nominal,  # type: ignore[arg-type]
    )


def test_materialization_commits_occurrence_session_and_run_together(store: Store) -> None:
    schedule = view()
    store.schedules.import_many([schedule])
    sid = schedule.schedule.schedule_id
    session_id, run_id = uuid4(), uuid4()
    occurrence = _occurrence(
        sid,
        5,
        disposition="MATERIALIZED",
        session_id=session_id,
        run_id=run_id,
        reason_code=None,
        materialized_at=NOW,
    )
    session = SessionRecord(session_id, ALICE, "t", NOW, None, {"schedule_id": str(sid)}, NOW)
    seed = MessageRecord(uuid4(), session_id, "user", "seed", True, NOW)
    run = RunRecord(run_id, ALICE, session_id, "QUEUED", 10, {}, NOW, NOW, NOW, NOW)
    store.occurrences.record(Materialization(occurrence, session, (seed,), run))
    store.occurrences.record(Materialization(_occurrence(sid, 10)))
    listed = store.occurrences.page(ALICE, sid, None, 10)
    assert [o.disposition for o in listed] == ["MATERIALIZED", "MISSED"]
    assert store.occurrences.page(Owner("acme", "carol"), sid, None, 10) == []
    assert store.sessions.visible_messages(ALICE, session_id, None, 10) == []
    with pytest.raises(IntegrityError):  # UNIQUE(schedule_id, nominal_fire_at)
        store.occurrences.record(Materialization(_occurrence(sid, 10)))


def test_a_window_of_the_ledger_reads_oldest_first_with_each_runs_status_for_its_owner_only(
    store: Store,
) -> None:
    schedule = view()
    store.schedules.import_many([schedule])
    sid = schedule.schedule.schedule_id
    session_id, run_id = uuid4(), uuid4()
    failed = _occurrence(
        sid,
        5,
        disposition="MATERIALIZED",
        session_id=session_id,
        run_id=run_id,
        reason_code=None,
        materialized_at=NOW,
    )
    session = SessionRecord(session_id, ALICE, "t", NOW, None, {"schedule_id": str(sid)}, NOW)
    run = RunRecord(run_id, ALICE, session_id, "FAILED", 10, {}, NOW, NOW, NOW, NOW, "boom")
    store.occurrences.record(Materialization(failed, session, (), run))
    store.occurrences.record(Materialization(_occurrence(sid, 10)))
    store.occurrences.record(Materialization(_occurrence(sid, 20)))

    # [start, end) from 10 minutes back: the firing 20 minutes back is outside it.
    window = store.occurrences.window(ALICE, sid, NOW - timedelta(minutes=10), NOW)

    assert [(p.occurrence.disposition, p.run_status, p.failure_reason) for p in window] == [
        ("MISSED", None, None),
        ("MATERIALIZED", "FAILED", "boom"),
    ]
    assert (
        store.occurrences.window(Owner("acme", "carol"), sid, NOW - timedelta(hours=1), NOW) == []
    )


def test_occurrence_link_rules_are_enforced(store: Store) -> None:
    schedule = view()
    store.schedules.import_many([schedule])
    sid = schedule.schedule.schedule_id
    with pytest.raises(IntegrityError):  # a missed occurrence may not link a session
        store.occurrences.record(Materialization(_occurrence(sid, 1, session_id=uuid4())))
    with pytest.raises(IntegrityError):  # materialized without links or erasure
        store.occurrences.record(
            Materialization(
                _occurrence(
                    sid, 2, disposition="MATERIALIZED", reason_code=None, materialized_at=NOW
                )
            )
        )
    with pytest.raises(IntegrityError):  # deferred links must exist at commit
        store.occurrences.record(
            Materialization(
                _occurrence(
                    sid,
                    3,
                    disposition="MATERIALIZED",
                    session_id=uuid4(),
                    run_id=uuid4(),
                    reason_code=None,
                    materialized_at=NOW,
                )
            )
        )
    assert store.occurrences.page(ALICE, sid, None, 10) == []


def test_due_lists_active_schedules_whose_time_has_come(store: Store) -> None:
    due = view(minutes=-120)
    later = view(minutes=0)
    store.schedules.import_many([due, later, view(state="PAUSED")])
    assert store.schedules.due(NOW, 10) == [due.schedule.schedule_id]


def test_is_empty_until_something_is_stored(store: Store) -> None:
    assert store.is_empty()
    store.schedules.import_many([view()])
    assert not store.is_empty()


def test_profiles_and_folders_list_in_byte_order_whatever_the_database_locale(
    store: Store,
) -> None:
    names = ["beta", "Beta", "alpha", "Alpha", "élan", "elan", "Zulu"]
    for name in names:
        store.profiles.add(
            ProfileRecord(uuid4(), ALICE, name, "READY", ("https://a.example",), NOW, NOW)
        )
        store.folders.add(FolderRecord(uuid4(), ALICE, name, NOW))
    byte_order = sorted(names, key=lambda name: name.encode())
    assert byte_order[:3] == ["Alpha", "Beta", "Zulu"]  # capitals first, as bytes sort
    first = store.profiles.page(ALICE, None, 3)
    last = first[-1]
    rest = store.profiles.page(ALICE, (last.display_name, last.profile_id), 10)
    assert [p.display_name for p in first + rest] == byte_order
    assert [f.name for f in store.folders.page(ALICE, None, 10)] == byte_order


def test_instants_come_back_as_the_same_instant_in_utc(store: Store) -> None:
    original = view()
    in_tokyo = NOW.astimezone(ZoneInfo("Asia/Tokyo"))
    schedule = replace(original.schedule, created_at=in_tokyo, updated_at=in_tokyo)
    store.schedules.import_many([ScheduleView(schedule, original.revision)])
    stored = store.schedules.get(ALICE, schedule.schedule_id)
    assert stored is not None
    assert (stored.schedule.updated_at, stored.schedule.updated_at.utcoffset()) == (
        NOW,
        timedelta(0),
    )
    assert stored.schedule.next_fire_at == original.schedule.next_fire_at
    naive = view()
    naive_schedule = replace(naive.schedule, updated_at=NOW.replace(tzinfo=None))
    with pytest.raises(StatementError, match="naive datetimes are never stored"):
        store.schedules.import_many([ScheduleView(naive_schedule, naive.revision)])


def test_concurrent_creates_with_one_key_make_one_schedule(store: Store) -> None:
    claim = IdempotencyClaim("same-key", "same-body")
    candidates = [view() for _ in range(6)]
    start_together = threading.Barrier(len(candidates))
    created: list[UUID] = []

    def create(candidate: ScheduleView) -> None:
        start_together.wait()
        created.append(store.schedules.create(candidate.schedule, candidate.revision, claim, []))

    threads = [threading.Thread(target=create, args=(c,)) for c in candidates]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(created) == len(candidates)
    assert len(set(created)) == 1
    assert [v.schedule.schedule_id for v in store.schedules.page(ALICE, frozenset(), None, 10)] == [
        created[0]
    ]
