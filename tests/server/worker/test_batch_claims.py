"""The worker's batch: many schedules in one transaction, each still decided and failing alone.

On both databases: a corrupt definition among siblings becomes its own
CONFIGURATION_FAILED, a cadence that no longer reads and a row the database
refuses (a real trigger) fail their schedule alone while the siblings
commit, admission counts the runs the same batch queued, an instant's
schedules are claimed owner by owner, each principal's authority is read
once per batch and still checked for every schedule, and each revision is
validated once however often it fires. On PostgreSQL, a
schedule whose principal's admission turn another replica holds is passed
over, left due, and taken once the turn is free.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from uuid import UUID

import pytest
from sqlalchemy import Connection, create_engine, text, update
from sqlalchemy.pool import NullPool

from server.firing import revision_check
from server.firing.admission import Admission
from server.identity import ALL_SCOPES, Principal
from server.storage.sql.advisory_locks import admission_of, hold
from server.storage.sql.store import SqlStore
from server.storage.tables import schedule_revisions
from server.worker.worker import PASSED_OVER_RETRY
from tests.server.api.conftest import Clock
from tests.server.scene import ALICE, Scene, principal

BOB = principal("bob")


pytestmark = pytest.mark.each_backend


@pytest.fixture
def scene(store: SqlStore, clock: Clock) -> Scene:
    return Scene(store, clock, ALICE, BOB)


def _due(scene: Scene, *owners: Principal, **changes: object) -> list[UUID]:
    """One schedule per owner, all due at one instant (the clock is moved there)."""
    ids = [
        scene.create(owner, title=f"Digest {n}", **changes).schedule.schedule_id
        for n, owner in enumerate(owners)
    ]
    due_at = scene.store.schedules.get(owners[0].owner, ids[0])
    assert due_at is not None and due_at.schedule.next_fire_at is not None
    scene.clock.now = due_at.schedule.next_fire_at + timedelta(seconds=5)
    return ids


def _rewrite_definition(scene: Scene, schedule_id: UUID, **fields: object) -> None:
    """Change a stored revision behind the service's back, as a corrupted database would."""
    (revision,) = scene.store.schedules.revisions(schedule_id)
    stored = json.loads(revision.definition)
    stored.update(fields)
    with scene.store.engine.begin() as connection:
        connection.execute(
            update(schedule_revisions)
            .where(schedule_revisions.c.schedule_id == schedule_id)
            .values(definition=json.dumps(stored, sort_keys=True, separators=(",", ":")))
        )


def _dispositions(scene: Scene, ids: list[UUID], owners: list[Principal]) -> list[list[str]]:
    return [
        [o.disposition for o in scene.ledger(i, owner)]
        for i, owner in zip(ids, owners, strict=True)
    ]


def test_a_corrupt_definition_is_its_own_configuration_failure_and_its_siblings_fire(
    scene: Scene,
) -> None:
    ids = _due(scene, ALICE, BOB, ALICE)
    _rewrite_definition(scene, ids[1], title="   ")
    report = scene.worker().run_once(scene.clock())
    assert (report.written, report.failed) == (3, 0), "one transaction wrote all three"
    assert _dispositions(scene, ids, [ALICE, BOB, ALICE]) == [
        ["MATERIALIZED"],
        ["CONFIGURATION_FAILED"],
        ["MATERIALIZED"],
    ]
    assert scene.count("runs") == 2


def test_a_cadence_that_no_longer_reads_fails_its_schedule_alone(scene: Scene) -> None:
    ids = _due(scene, ALICE, BOB, ALICE)
    _rewrite_definition(scene, ids[0], cadence={"kind": "FORTNIGHTLY"})
    report = scene.worker().run_once(scene.clock())
    assert (report.written, report.failed) == (2, 1)
    assert _dispositions(scene, ids, [ALICE, BOB, ALICE]) == [
        [],
        ["MATERIALIZED"],
        ["MATERIALIZED"],
    ]
    assert scene.store.schedules.due(scene.clock(), 10) == [ids[0]], "still due, backed off"


def test_an_instants_due_schedules_are_claimed_owner_by_owner(scene: Scene) -> None:
    # Created alternately, as a team's are; a batch of two takes one owner's pair,
    # so replicas claiming side by side rarely need the same admission turn.
    ids = _due(scene, ALICE, BOB, ALICE, BOB)
    outcome = scene.store.occurrences.materialize_batch(scene.clock(), lambda _: None, (), 2)
    assert set(outcome.claimed) in ({ids[0], ids[2]}, {ids[1], ids[3]})
    assert outcome.held == outcome.claimed, "the plan held both: nothing of them was written"


def _refuse_occurrences_of(scene: Scene, schedule_id: UUID) -> None:
    """A real trigger that makes the database refuse this schedule's occurrence rows."""
    with scene.store.engine.begin() as connection:
        if connection.dialect.name == "sqlite":
            connection.exec_driver_sql(
                "CREATE TRIGGER refuse BEFORE INSERT ON schedule_occurrences"
                f" WHEN NEW.schedule_id = '{schedule_id.hex}'"
                " BEGIN SELECT RAISE(ABORT, 'refused'); END"
            )
        else:
            connection.exec_driver_sql(
                "CREATE OR REPLACE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$"
                " BEGIN RAISE EXCEPTION 'refused' USING ERRCODE = 'check_violation'; END $$"
            )
            connection.exec_driver_sql(
                "CREATE TRIGGER refuse BEFORE INSERT ON schedule_occurrences FOR EACH ROW"
                f" WHEN (NEW.schedule_id = '{schedule_id}') EXECUTE FUNCTION refuse()"
            )


def _allow_occurrences(scene: Scene) -> None:
    with scene.store.engine.begin() as connection:
        if connection.dialect.name == "sqlite":
            connection.exec_driver_sql("DROP TRIGGER refuse")
        else:
            connection.exec_driver_sql("DROP TRIGGER refuse ON schedule_occurrences")
            connection.exec_driver_sql("DROP FUNCTION refuse()")


def test_a_row_the_database_refuses_fails_its_schedule_alone_and_the_siblings_commit(
    scene: Scene,
) -> None:
    ids = _due(scene, ALICE, BOB, ALICE)
    _refuse_occurrences_of(scene, ids[1])
    try:
        report = scene.worker().run_once(scene.clock())
    finally:
        _allow_occurrences(scene)
    assert (report.written, report.failed) == (2, 1)
    assert _dispositions(scene, ids, [ALICE, BOB, ALICE]) == [
        ["MATERIALIZED"],
        [],
        ["MATERIALIZED"],
    ]
    assert scene.counts() == {
        "schedule_occurrences": 2,
        "sessions": 2,
        "session_messages": 2,
        "runs": 2,
    }, "nothing of the refused one is left"
    assert scene.store.schedules.due(scene.clock(), 10) == [ids[1]]
    scene.clock.advance(seconds=2)  # past its backoff
    assert scene.worker().run_once(scene.clock()).written == 1


def test_admission_counts_the_runs_the_same_batch_queued(scene: Scene) -> None:
    ids = _due(scene, ALICE, ALICE, ALICE, BOB)
    worker = scene.worker(admission=Admission(max_active_runs=2))
    report = worker.run_once(scene.clock())
    assert (report.written, report.held) == (3, 1)
    assert scene.count("runs") == 3, "two of alice's, one of bob's"
    assert len(scene.store.schedules.due(scene.clock(), 10)) == 1
    assert sum(len(scene.ledger(i)) for i in ids[:3]) == 2


def test_a_scan_after_a_full_batch_claims_the_rest_and_one_after_the_last_is_idle(
    scene: Scene,
) -> None:
    ids = _due(scene, ALICE, BOB, ALICE)
    worker = scene.worker(batch_size=2)
    first = worker.run_once(scene.clock())
    assert (first.written, first.full) == (2, True)
    second = worker.run_once(scene.clock())  # goes straight to its batch
    assert (second.written, second.full) == (1, False)
    assert worker.run_once(scene.clock()).written == 0, "looks first again: nothing due"
    assert [len(scene.ledger(i, o)) for i, o in zip(ids, (ALICE, BOB, ALICE), strict=True)] == [
        1,
        1,
        1,
    ]


class CountingDirectory:
    """The scene's directory, counting look-ups of each principal."""

    def __init__(self, scene: Scene) -> None:
        self._directory = scene.identity
        self.lookups: list[str] = []

    def authenticate(self, bearer_token: str | None) -> Principal | None:
        return self._directory.authenticate(bearer_token)

    def current(self, tenant_id: str, principal_id: str) -> Principal | None:
        self.lookups.append(principal_id)
        return self._directory.current(tenant_id, principal_id)


def test_authority_is_read_once_per_batch_and_checked_for_every_schedule(
    scene: Scene,
) -> None:
    limited = principal(scopes=ALL_SCOPES - {"session.write"})
    scene = Scene(scene.store, scene.clock, limited)
    ids = _due(scene, limited, limited, limited, requested_scopes=["session.read"])
    _rewrite_definition(scene, ids[1], requested_scopes=["session.read", "session.write"])
    counting = CountingDirectory(scene)
    scene.identity = counting  # type: ignore[assignment]
    assert scene.worker().run_once(scene.clock()).written == 3
    assert counting.lookups == ["alice"], "one look-up for the batch"
    (refused,) = scene.ledger(ids[1])
    assert (refused.disposition, refused.reason_code) == ("AUTHORIZATION_FAILED", "scope_revoked")
    fired = [o.disposition for i in (ids[0], ids[2]) for o in scene.ledger(i)]
    assert fired == ["MATERIALIZED"] * 2


def test_each_revision_is_validated_once_however_often_it_fires(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    revision_check.checked_revision.cache_clear()
    validated: list[str] = []
    original = revision_check.parse_definition

    def counting(raw: dict[str, object]) -> object:
        validated.append(str(raw["title"]))
        return original(raw)

    monkeypatch.setattr(revision_check, "parse_definition", counting)
    (schedule_id,) = _due(scene, ALICE)
    for _ in range(3):
        assert scene.worker().run_once(scene.clock()).written == 1
        scene.settle_queued()
        scene.clock.advance(days=1)
    assert len(scene.ledger(schedule_id)) == 3
    assert validated == ["Digest 0"], "the rules and the secret scan ran once"


@pytest.fixture
def postgres_scene(postgres_url: str, clock: Clock) -> Iterator[Scene]:
    """A scene on PostgreSQL, whose admission turns another replica can hold."""
    store = SqlStore.open(postgres_url)
    try:
        yield Scene(store, clock, ALICE, BOB)
    finally:
        store.close()


@pytest.fixture
def other_replica(postgres_url: str) -> Iterator[Connection]:
    """Another replica's connection to the same database."""
    engine = create_engine(postgres_url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            yield connection
    finally:
        engine.dispose()


def test_a_schedule_whose_principals_turn_another_replica_holds_is_passed_over_then_taken(
    postgres_scene: Scene, other_replica: Connection, clock: Clock
) -> None:
    scene, store = postgres_scene, postgres_scene.store
    alices, bobs = _due(scene, ALICE, BOB)
    worker = scene.worker()
    hold(other_replica, admission_of(ALICE.owner))  # its batch counts alice's runs
    report = worker.run_once(clock())
    assert (report.written, report.held, report.failed) == (1, 0, 0)
    assert report.passed_over == 1
    assert report.retry_at == clock() + PASSED_OVER_RETRY, "looks again soon"
    assert store.schedules.due(clock(), 10) == [alices]
    other_replica.execute(text("SELECT 1"))
    other_replica.rollback()  # its batch commits: the turn is free
    assert worker.run_once(clock()).written == 1
    assert [len(scene.ledger(i, p)) for i, p in ((alices, ALICE), (bobs, BOB))] == [1, 1]


def test_a_full_batch_that_passed_a_principal_over_claims_past_it_then_takes_it_in_its_turn(
    postgres_scene: Scene, other_replica: Connection, clock: Clock
) -> None:
    scene, store = postgres_scene, postgres_scene.store
    # Claims go by due instant, then owner: alice's comes a minute first.
    early = {"kind": "DAILY", "local_time": "08:59:00", "timezone": "Europe/Paris"}
    alices = scene.create(ALICE, title="Digest 0", cadence=early).schedule.schedule_id
    bobs = _due(scene, BOB, BOB, BOB)
    bobs_first = store.schedules.get(BOB.owner, bobs[0])
    assert bobs_first is not None
    assert scene.schedule(alices).next_fire_at < bobs_first.schedule.next_fire_at
    worker = scene.worker(batch_size=2)
    hold(other_replica, admission_of(ALICE.owner))
    first = worker.run_once(clock())
    assert (first.written, first.passed_over, first.full) == (1, 1, True)
    second = worker.run_once(clock())
    assert second.written == 2, "claimed the two due past alice's, not hers again"
    assert second.retry_at == clock() + PASSED_OVER_RETRY, "hers is still to come"
    assert store.schedules.due(clock(), 10) == [alices]
    other_replica.rollback()  # its batch commits: the turn is free
    assert worker.run_once(clock()).written == 1
    owners = ((alices, ALICE), *((b, BOB) for b in bobs))
    assert [len(scene.ledger(i, p)) for i, p in owners] == [1, 1, 1, 1]
