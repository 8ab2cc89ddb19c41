"""The schedule control plane: the operations behind the schedule routes.

Each mutation holds the schedule's row as the worker's claim does, and when
the schedule is due at that moment first decides the due instant with the
revision current at it (``server.firing.plan.settle_due``: fired, skipped or
MISSED, in the same transaction), so an edit never erases a firing whether or
not a worker runs in this process; only then does ``lifecycle`` decide the
change, on the schedule as it stands, for future instants. A stale
``expected_revision`` is the ordinary revision conflict.
Authority is checked on every create and update: requested scopes must be
held by the caller, and a bound browser profile must be the caller's, READY,
and covered by ``browser.profile.read``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from server.control import lifecycle, projection
from server.control.scheduler_status import OVERDUE_AFTER
from server.definitions.checks import BROWSER_SCOPE, Definition, parse_definition
from server.definitions.errors import (
    BrowserProfileUnavailable,
    ControlPlaneRefusal,
    IdempotencyConflict,
    InvalidDefinition,
    ScheduleNotFound,
    ScopeNotGranted,
)
from server.domain.cadence import Cadence, parse_cadence
from server.domain.recurrence import first_after
from server.domain.states import AuditEventKind, ProfileState, ScheduleState
from server.firing.admission import Admission
from server.firing.observer import SILENT, WorkerObserver
from server.firing.plan import settle_due
from server.identity import IdentityProvider, Principal
from server.storage.jsontext import load_object
from server.storage.ports import IdempotencyKeyReused, Store
from server.storage.records import (
    AuditEvent,
    DueSchedule,
    IdempotencyClaim,
    OccurrencePlan,
    RevisionRecord,
    ScheduleChange,
    ScheduleRecord,
    ScheduleView,
)
from server.storage.row_ids import new_row_id

Clock = Callable[[], datetime]


class ScheduleService:
    """The control plane's operations; ``on_schedule_change`` nudges the worker.

    ``on_schedule_change`` is called after a create, an update and a resume
    (each may bring a firing nearer than the worker's next wake-up), and
    after any change that decided a due instant itself (its run may be
    queued, and the runtime dispatches after each nudged scan). It is a
    best-effort hint from whatever thread the request runs on; the worker's
    own scan stays the source of truth. ``identity`` and ``admission`` are
    the worker's, for the due instant a mutation decides first; ``observer``
    (the metrics) hears of each occurrence so decided, as of the worker's.
    """

    def __init__(
        self,
        store: Store,
        clock: Clock,
        on_schedule_change: Callable[[], None] | None = None,
        *,
        identity: IdentityProvider,
        admission: Admission | None = None,
        observer: WorkerObserver = SILENT,
    ) -> None:
        self._store = store
        self._clock = clock
        self._on_schedule_change = on_schedule_change
        self._identity = identity
        self._admission = admission or Admission()
        self._observer = observer

    def get(self, principal: Principal, schedule_id: UUID) -> ScheduleView:
        view = self._store.schedules.get(principal.owner, schedule_id)
        if view is None:
            raise ScheduleNotFound(str(schedule_id))
        return view

    def project(
        self,
        principal: Principal,
        schedule_id: UUID,
        start: datetime,
        end: datetime,
        overdue_after: timedelta = OVERDUE_AFTER,
    ) -> projection.Projection:
        """The schedule's calendar over ``[start, end)`` as of now (see ``projection``)."""
        view = self.get(principal, schedule_id)
        cadence = stored_cadence(view.revision)
        now = self._clock()
        return projection.project(
            self._store, view, cadence, start, end, now, overdue_after=overdue_after
        )

    def create(
        self, principal: Principal, raw: Mapping[str, Any], idempotency_key: str
    ) -> ScheduleView:
        definition = parse_definition(raw)
        self._authorize(principal, definition)
        now = self._clock()
        next_fire = first_after(definition.cadence, now)
        if next_fire is None:
            raise InvalidDefinition("cadence.at", "not_in_future")
        schedule_id = new_row_id()  # time-ordered: see ``row_ids``
        record = ScheduleRecord(
            schedule_id=schedule_id,
            owner=principal.owner,
            state=ScheduleState.ACTIVE,
            pause_reason=None,
            current_revision=1,
            next_fire_at=next_fire,
            consecutive_failures=0,
            created_at=now,
            updated_at=now,
            active_since=now,
        )
        revision = RevisionRecord(
            schedule_id=schedule_id,
            revision=1,
            definition=definition.text,
            created_by_principal_id=principal.principal_id,
            created_at=now,
            authority_version=principal.authority_version,
        )
        event = AuditEvent(
            event_type=AuditEventKind.SCHEDULE_CREATED,
            owner=principal.owner,
            actor=principal.principal_id,
            occurred_at=now,
            schedule_id=schedule_id,
            revision=1,
            payload={"next_state": ScheduleState.ACTIVE, "next_fire_at": next_fire.isoformat()},
        )
        claim = IdempotencyClaim(
            key=idempotency_key,
            request_hash=hashlib.sha256(definition.text.encode("utf-8")).hexdigest(),
        )
        try:
            created = self._store.schedules.create(record, revision, claim, [event])
        except IdempotencyKeyReused as err:
            raise IdempotencyConflict(idempotency_key) from err
        self._schedule_changed()
        return self.get(principal, created)

    def update(
        self,
        principal: Principal,
        schedule_id: UUID,
        expected_revision: int,
        raw: Mapping[str, Any],
    ) -> ScheduleView:
        definition = parse_definition(raw)
        view = self.get(principal, schedule_id)
        # An unchanged definition writes nothing, so it needs no authority check: a
        # schedule bound to a sign-in that has since expired still answers 200 as
        # API.md promises, and the profile is checked again when it is changed.
        changed = definition.text != view.revision.definition
        if changed and view.schedule.state not in lifecycle.TERMINAL:
            self._authorize(principal, definition)

        def decide(current: ScheduleView, now: datetime) -> ScheduleChange | None:
            return lifecycle.update(
                current.schedule,
                current.revision,
                expected_revision,
                definition.text,
                definition.cadence,
                principal.principal_id,
                principal.authority_version,
                now,
            )

        updated = self._mutate(principal, schedule_id, decide)
        self._schedule_changed()
        return updated

    def pause(
        self, principal: Principal, schedule_id: UUID, expected_revision: int
    ) -> ScheduleView:
        return self._mutate(
            principal,
            schedule_id,
            lambda current, now: lifecycle.pause(
                current.schedule, expected_revision, principal.principal_id, now
            ),
        )

    def resume(
        self, principal: Principal, schedule_id: UUID, expected_revision: int
    ) -> ScheduleView:
        def decide(current: ScheduleView, now: datetime) -> ScheduleChange | None:
            cadence = stored_cadence(current.revision)
            return lifecycle.resume(
                current.schedule, expected_revision, cadence, principal.principal_id, now
            )

        resumed = self._mutate(principal, schedule_id, decide)
        self._schedule_changed()
        return resumed

    def cancel(
        self, principal: Principal, schedule_id: UUID, expected_revision: int
    ) -> ScheduleView:
        return self._mutate(
            principal,
            schedule_id,
            lambda current, now: lifecycle.cancel(
                current.schedule, expected_revision, principal.principal_id, now
            ),
        )

    def _mutate(
        self,
        principal: Principal,
        schedule_id: UUID,
        decide: Callable[[ScheduleView, datetime], ScheduleChange | None],
    ) -> ScheduleView:
        """Decide the due instant if there is one, then ``decide``'s change: one transaction.

        A refusal from ``decide`` (a stale revision, a terminal state) still
        commits the due instant's decision: it happened whatever the request.
        """
        now = self._clock()
        refusals: list[ControlPlaneRefusal] = []
        settled: list[OccurrencePlan] = []

        def settle(due: DueSchedule) -> OccurrencePlan:
            plan = settle_due(due, now, self._identity, self._admission)
            settled.append(plan)
            return plan

        def change(current: DueSchedule) -> ScheduleChange | None:
            try:
                return decide(current.view, now)
            except ControlPlaneRefusal as refusal:
                refusals.append(refusal)
                return None

        view = self._store.occurrences.settle_then_apply(
            principal.owner, schedule_id, now, settle, change
        )
        if view is None:
            raise ScheduleNotFound(str(schedule_id))
        decided = [p.materialization for p in settled if p.materialization is not None]
        if decided:
            self._observer.firings_due(len(decided))
        for materialization in decided:
            self._observer.occurrence_recorded(materialization.occurrence)
        if decided:
            self._schedule_changed()  # a run may be queued: the worker's runtime dispatches it
        if refusals:
            raise refusals[0]
        return view

    def _schedule_changed(self) -> None:
        if self._on_schedule_change is not None:
            self._on_schedule_change()

    def _authorize(self, principal: Principal, definition: Definition) -> None:
        missing = sorted(definition.requested_scopes - principal.scopes)
        if missing:
            raise ScopeNotGranted(missing[0])
        profile_id = definition.browser_profile_id
        if profile_id is None:
            return
        if BROWSER_SCOPE not in principal.scopes:
            raise ScopeNotGranted(BROWSER_SCOPE)
        profile = self._store.profiles.get(principal.owner, profile_id)
        if profile is None:
            raise BrowserProfileUnavailable("not_found")
        if profile.state != ProfileState.READY:
            raise BrowserProfileUnavailable("not_ready")


def stored_cadence(revision: RevisionRecord) -> Cadence:
    """The cadence of a stored revision (it was valid when written)."""
    return parse_cadence(load_object(revision.definition)["cadence"])
