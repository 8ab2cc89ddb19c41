"""Schedules and their revisions over SQL, with compare-and-set mutations.

A mutation is decided by the caller on a record it read, then written only if
the row is still exactly that record; a lost race reports False and changes
nothing, so no row lock is needed on SQLite or PostgreSQL. The scheduler's
transactions are the exception: they claim the row under the write lock
(``write_lock``) and write it with ``schedule_rows.write_locked_change``;
every write moves ``updated_at`` forward, so a compare-and-set decided on the
older row fails and re-reads. The control plane's own changes (update,
pause, cancel, resume) now go through ``occurrences.settle_then_apply``,
which holds the row so a due instant is decided first; ``apply`` remains for
writers that need no such decision. ``purge_terminal`` is the retention
sweep; ``lacking_next_fire`` finds ACTIVE schedules whose cache was lost.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy import (
    Connection,
    Engine,
    Select,
    and_,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    tuple_,
    update,
)
from sqlalchemy.exc import IntegrityError

from server.domain.states import ScheduleState
from server.storage.next_fire_order import NextFirePosition
from server.storage.ports import IdempotencyKeyReused
from server.storage.records import (
    AuditEvent,
    DueBacklog,
    IdempotencyClaim,
    Owner,
    RevisionRecord,
    ScheduleChange,
    ScheduleCounts,
    ScheduleRecord,
    ScheduleView,
)
from server.storage.sql.advisory_locks import RETENTION, try_hold
from server.storage.sql.audit import append_events
from server.storage.sql.keyset import keyset_page, owned_by
from server.storage.sql.next_fire_pages import next_fire_views
from server.storage.sql.outcome import with_outcome
from server.storage.sql.schedule_rows import (
    change_values,
    revision_row,
    schedule_row,
    schedule_view,
    schedule_views,
)
from server.storage.sql.search_index import candidates, contains_all, indexable, unindexed
from server.storage.sql.write_lock import write_transaction
from server.storage.tables import (
    NEEDS_ATTENTION,
    TERMINAL_STATES,
    schedule_idempotency_keys,
    schedule_occurrences,
    schedule_revisions,
    schedules,
)

# Spelled as the retention index's own predicate, so SQLite can use that partial index.
_TERMINAL = text(f"schedules.state IN {TERMINAL_STATES}")
# Likewise the Needs attention index's.
_NEEDS_ATTENTION = text(NEEDS_ATTENTION)
CURRENT_STATES = (ScheduleState.ACTIVE, ScheduleState.PAUSED)
HISTORY_STATES = (ScheduleState.COMPLETED, ScheduleState.CANCELLED)
PROBE_ROWS = 200
"""Rows a search reads in list order first, to see how common its words are (see ``page``)."""
WALK_ROWS = 5_000
"""The most rows a search is expected to read in list order before the index is cheaper."""
COMMON_SHARE = 0.05
"""A search matching this share of the probed rows is counted by reading, not by the index."""


@dataclass(frozen=True, slots=True)
class _Probe:
    """The first ``PROBE_ROWS`` rows in list order: which matched, and how many were read."""

    hits: list[UUID]
    read: int

    def conclusive(self, limit: int) -> bool:
        """Whether the probe answers the page: a full page found, or the list ended in it."""
        return len(self.hits) >= limit or self.read < PROBE_ROWS

    def walk(self, limit: int) -> float:
        """How many rows a walk in list order would read to fill the page, at this share."""
        return limit * self.read / len(self.hits) if self.hits else float("inf")

    def common(self) -> bool:
        return self.read > 0 and len(self.hits) >= COMMON_SHARE * self.read


def _scope(
    owner: Owner,
    states: frozenset[str],
    needs_attention: bool,
    overdue_before: datetime | None = None,
) -> list[Any]:
    conditions: list[Any] = [owned_by(schedules, owner)]
    if states:
        conditions.append(schedules.c.state.in_(sorted(states)))
    if needs_attention:
        conditions.append(_needing_attention(overdue_before))
    return conditions


def _overdue(overdue_before: datetime) -> Any:
    """ACTIVE, and its next firing due before ``overdue_before`` yet undecided."""
    return and_(
        schedules.c.state == ScheduleState.ACTIVE, schedules.c.next_fire_at < overdue_before
    )


def _needing_attention(overdue_before: datetime | None) -> Any:
    """The Needs attention predicate; with ``overdue_before`` the overdue schedules too."""
    if overdue_before is None:
        return _NEEDS_ATTENTION
    return or_(_NEEDS_ATTENTION, _overdue(overdue_before))


def list_filters(
    owner: Owner,
    states: frozenset[str],
    *,
    words: Sequence[str] = (),
    needs_attention: bool = False,
    overdue_before: datetime | None = None,
) -> list[Any]:
    """The list's WHERE terms (owner, states, Needs attention, words), shared by the agenda."""
    conditions = _scope(owner, states, needs_attention, overdue_before)
    if words:
        conditions.append(contains_all(words))
    return conditions


def _views(
    connection: Connection,
    conditions: Sequence[Any],
    after: tuple[datetime, UUID] | None,
    limit: int,
) -> list[ScheduleView]:
    query = with_outcome(schedule_views()).where(*conditions)
    query = keyset_page(
        query, schedules.c.updated_at, schedules.c.id, after, limit, newest_first=True
    )
    return [schedule_view(row) for row in connection.execute(query).mappings()]


def _probe(
    connection: Connection,
    scope: Sequence[Any],
    words: Sequence[str],
    after: tuple[datetime, UUID] | None,
) -> _Probe:
    query = select(schedules.c.id, contains_all(words).label("hit")).where(*scope)
    query = keyset_page(
        query, schedules.c.updated_at, schedules.c.id, after, PROBE_ROWS, newest_first=True
    )
    rows = connection.execute(query).all()
    return _Probe([row.id for row in rows if row.hit], len(rows))


def _matches(
    connection: Connection,
    owner: Owner,
    states: frozenset[str],
    needs_attention: bool,
    words: Sequence[str],
    after: tuple[datetime, UUID] | None,
    overdue_before: datetime | None = None,
) -> Select[tuple[UUID]]:
    """The ids of every match after ``after``, found through the search index.

    Unordered and unlimited, so PostgreSQL plans it for all matches (the
    trigram index) rather than for the first few in list order (a walk of
    the owner's rows). On SQLite the index's candidates drive it: the owner
    and state terms are kept off their indexes (``unindexed``).
    """
    narrowed = candidates(connection.dialect.name, words)
    if narrowed is None:
        conditions = _scope(owner, states, needs_attention, overdue_before)
    else:
        conditions = [
            unindexed(schedules.c.tenant_id) == owner.tenant_id,
            unindexed(schedules.c.principal_id) == owner.principal_id,
            schedules.c.id.in_(narrowed),
        ]
        if states:
            conditions.append(unindexed(schedules.c.state).in_(sorted(states)))
        if needs_attention:
            conditions.append(_needing_attention(overdue_before))
    if after is not None:
        conditions.append(tuple_(schedules.c.updated_at, schedules.c.id) < after)
    return select(schedules.c.id).where(*conditions, contains_all(words))


class SqlScheduleRepository:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def create(
        self,
        schedule: ScheduleRecord,
        revision: RevisionRecord,
        claim: IdempotencyClaim,
        events: Sequence[AuditEvent],
    ) -> UUID:
        existing = self._claimed(schedule.owner, claim)
        if existing is not None:
            return existing
        try:
            with self._engine.begin() as connection:
                connection.execute(insert(schedules), schedule_row(schedule, revision))
                connection.execute(insert(schedule_revisions), revision_row(revision))
                connection.execute(
                    insert(schedule_idempotency_keys),
                    {
                        "tenant_id": schedule.owner.tenant_id,
                        "principal_id": schedule.owner.principal_id,
                        "key": claim.key,
                        "request_hash": claim.request_hash,
                        "schedule_id": schedule.schedule_id,
                        "created_at": schedule.created_at,
                    },
                )
                append_events(connection, events)
        except IntegrityError:
            # A concurrent request with the same key committed first.
            existing = self._claimed(schedule.owner, claim)
            if existing is None:
                raise
            return existing
        return schedule.schedule_id

    def _claimed(self, owner: Owner, claim: IdempotencyClaim) -> UUID | None:
        query = select(
            schedule_idempotency_keys.c.request_hash, schedule_idempotency_keys.c.schedule_id
        ).where(
            schedule_idempotency_keys.c.tenant_id == owner.tenant_id,
            schedule_idempotency_keys.c.principal_id == owner.principal_id,
            schedule_idempotency_keys.c.key == claim.key,
        )
        with self._engine.connect() as connection:
            row = connection.execute(query).first()
        if row is None:
            return None
        if row.request_hash != claim.request_hash:
            raise IdempotencyKeyReused(claim.key)
        schedule_id: UUID = row.schedule_id
        return schedule_id

    def import_many(
        self, views: Sequence[ScheduleView], history: Sequence[RevisionRecord] = ()
    ) -> None:
        if not views:
            return
        revisions = [*history, *(v.revision for v in views)]
        with self._engine.begin() as connection:
            connection.execute(
                insert(schedules), [schedule_row(v.schedule, v.revision) for v in views]
            )
            connection.execute(insert(schedule_revisions), [revision_row(r) for r in revisions])

    def revisions(self, schedule_id: UUID) -> list[RevisionRecord]:
        """Every revision of one schedule, oldest first (tests and audits)."""
        query = (
            select(schedule_revisions)
            .where(schedule_revisions.c.schedule_id == schedule_id)
            .order_by(schedule_revisions.c.revision)
        )
        with self._engine.connect() as connection:
            rows = connection.execute(query).mappings().all()
        return [
            RevisionRecord(
                schedule_id=row["schedule_id"],
                revision=row["revision"],
                definition=row["definition"],
                created_by_principal_id=row["created_by_principal_id"],
                created_at=row["created_at"],
                authority_version=row["authority_version"],
            )
            for row in rows
        ]

    def get(self, owner: Owner, schedule_id: UUID) -> ScheduleView | None:
        query = with_outcome(schedule_views()).where(
            schedules.c.id == schedule_id, owned_by(schedules, owner)
        )
        with self._engine.connect() as connection:
            row = connection.execute(query).mappings().first()
        return None if row is None else schedule_view(row)

    def active_since(self, owner: Owner, schedule_ids: Collection[UUID]) -> dict[UUID, datetime]:
        query = select(schedules.c.id, schedules.c.active_since, schedules.c.created_at).where(
            schedules.c.id.in_(sorted(schedule_ids)),
            owned_by(schedules, owner),
            schedules.c.state == ScheduleState.ACTIVE,
        )
        with self._engine.connect() as connection:
            rows = connection.execute(query).all()
        return {row.id: row.active_since or row.created_at for row in rows}

    def page(
        self,
        owner: Owner,
        states: frozenset[str],
        after: tuple[datetime, UUID] | None,
        limit: int,
        *,
        words: Sequence[str] = (),
        needs_attention: bool = False,
        overdue_before: datetime | None = None,
    ) -> list[ScheduleView]:
        """One page in list order; a search reads the list first, then asks the index.

        Most searches typed into a list match many rows (a common word, a
        two-letter prefix): reading the list in order until a page is found
        is cheaper than any index lookup of every match. The newest
        ``PROBE_ROWS`` rows say how common the words are: when a page is
        expected within ``WALK_ROWS`` rows (or no word is long enough for an
        index), the list is read on; otherwise the matches are few and the
        database's search index finds them (``search_index``).
        """
        scope = _scope(owner, states, needs_attention, overdue_before)
        with self._engine.connect() as connection:
            if not words:
                return _views(connection, scope, after, limit)
            probe = _probe(connection, scope, words, after)
            if probe.conclusive(limit):
                found = probe.hits[:limit]
                return _views(connection, [schedules.c.id.in_(found)], None, limit) if found else []
            if not indexable(words) or probe.walk(limit) <= WALK_ROWS:
                return _views(connection, [*scope, contains_all(words)], after, limit)
            matches = _matches(
                connection, owner, states, needs_attention, words, after, overdue_before
            )
            return _views(connection, [schedules.c.id.in_(matches)], None, limit)

    def next_fire_page(
        self,
        owner: Owner,
        states: frozenset[str],
        after: NextFirePosition | None,
        limit: int,
        *,
        words: Sequence[str] = (),
        needs_attention: bool = False,
        overdue_before: datetime | None = None,
    ) -> list[ScheduleView]:
        """One page soonest first (``next_fire_pages``); a search walks the order with it."""
        conditions = list_filters(
            owner,
            states,
            words=words,
            needs_attention=needs_attention,
            overdue_before=overdue_before,
        )
        with self._engine.connect() as connection:
            return next_fire_views(connection, conditions, states, after, limit)

    def counts(
        self, owner: Owner, words: Sequence[str] = (), overdue_before: datetime | None = None
    ) -> ScheduleCounts:
        """The owner's totals; a search counts through its index only when matches are rare."""
        scope: list[Any] = [owned_by(schedules, owner)]
        with self._engine.connect() as connection:
            if words:
                probe = _probe(connection, scope, words, None)
                if probe.common() or not indexable(words):
                    scope.append(contains_all(words))
                else:
                    matches = _matches(connection, owner, frozenset(), False, words, None)
                    scope = [schedules.c.id.in_(matches)]
            by_state = connection.execute(
                select(schedules.c.state, func.count()).where(*scope).group_by(schedules.c.state)
            ).all()
            attention = connection.execute(
                select(func.count())
                .select_from(schedules)
                .where(*scope, _needing_attention(overdue_before))
            ).scalar_one()
        totals = {state: count for state, count in by_state}
        return ScheduleCounts(
            current=sum(totals.get(state, 0) for state in CURRENT_STATES),
            history=sum(totals.get(state, 0) for state in HISTORY_STATES),
            needs_attention=attention,
        )

    def due_backlog(self, owner: Owner, now: datetime) -> DueBacklog:
        """Through the owner's counts index (tenant, principal, state), not the whole due index."""
        query = select(func.count(), func.min(schedules.c.next_fire_at)).where(
            owned_by(schedules, owner),
            schedules.c.state == ScheduleState.ACTIVE,
            schedules.c.next_fire_at <= now,
        )
        with self._engine.connect() as connection:
            count, oldest = connection.execute(query).one()
        return DueBacklog(count=int(count), oldest_due_at=oldest)

    def apply(self, seen: ScheduleRecord, change: ScheduleChange) -> bool:
        statement = (
            update(schedules)
            .where(
                schedules.c.id == seen.schedule_id,
                schedules.c.current_revision == seen.current_revision,
                schedules.c.state == seen.state,
                schedules.c.updated_at == seen.updated_at,
            )
            .values(change_values(seen, change))
        )
        with self._engine.begin() as connection:
            if connection.execute(statement).rowcount != 1:
                connection.rollback()
                return False
            if change.new_revision is not None:
                connection.execute(insert(schedule_revisions), revision_row(change.new_revision))
            append_events(connection, change.events)
        return True

    def due(self, now: datetime, limit: int) -> list[UUID]:
        query = (
            select(schedules.c.id)
            .where(schedules.c.state == ScheduleState.ACTIVE, schedules.c.next_fire_at <= now)
            .order_by(schedules.c.next_fire_at, schedules.c.id)
            .limit(limit)
        )
        with self._engine.connect() as connection:
            return list(connection.execute(query).scalars())

    def next_fire_after(self, instant: datetime) -> datetime | None:
        """The earliest ``next_fire_at`` of an ACTIVE schedule strictly after ``instant``."""
        query = select(func.min(schedules.c.next_fire_at)).where(
            schedules.c.state == ScheduleState.ACTIVE, schedules.c.next_fire_at > instant
        )
        with self._engine.connect() as connection:
            found: datetime | None = connection.execute(query).scalar_one()
        return found

    def lacking_next_fire(self, limit: int) -> list[UUID]:
        query = (
            select(schedules.c.id)
            .where(schedules.c.state == ScheduleState.ACTIVE, schedules.c.next_fire_at.is_(None))
            .order_by(schedules.c.id)
            .limit(limit)
        )
        with self._engine.connect() as connection:
            return list(connection.execute(query).scalars())

    def purge_terminal(self, before: datetime, limit: int) -> int:
        """Delete up to ``limit`` COMPLETED or CANCELLED schedules last updated before ``before``.

        With each go its idempotency rows, occurrences and revisions, in that
        order, in one transaction; sessions and runs stay, and so do audit
        events. Returns how many schedules were deleted. Replicas sweep one
        at a time: the sweep holds the ``RETENTION`` advisory lock, and a
        replica that finds it held deletes nothing now (another is sweeping);
        rows another transaction holds (a run's accounting) are skipped, not
        waited for, and go in a later sweep.
        """
        chosen = (
            select(schedules.c.id)
            .where(_TERMINAL, schedules.c.updated_at < before)
            .order_by(schedules.c.updated_at, schedules.c.id)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        with write_transaction(self._engine) as connection:
            if not try_hold(connection, RETENTION):
                return 0
            ids = list(connection.execute(chosen).scalars())
            if not ids:
                return 0
            for table in (schedule_idempotency_keys, schedule_occurrences, schedule_revisions):
                connection.execute(delete(table).where(table.c.schedule_id.in_(ids)))
            deleted: int = connection.execute(
                delete(schedules).where(schedules.c.id.in_(ids))
            ).rowcount
        return deleted
