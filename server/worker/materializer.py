"""The worker's batch: due schedules claimed, each planned by the firing rules, written together.

``Materializer.materialize_batch`` hands the store (``batch_claims``) a plan
callback that decides each claimed schedule as ``server.firing.plan`` does,
with two things only a batch knows: admission also counts the runs the batch
queued before for the same principal, and each principal's authority is read
once per batch.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from datetime import datetime
from uuid import UUID

from server.firing.admission import Admission
from server.firing.plan import plan_occurrence
from server.identity import IdentityProvider, Principal
from server.storage.ports import Store
from server.storage.records import BatchOutcome, DueSchedule, Heartbeat, OccurrencePlan, Owner

__all__ = ["Materializer"]


class Materializer:
    """Materializes due schedules a batch at a time, each batch in one transaction."""

    def __init__(self, store: Store, identity: IdentityProvider, admission: Admission) -> None:
        self._store = store
        self._identity = identity
        self._admission = admission

    def materialize_batch(
        self,
        now: datetime,
        excluding: Collection[UUID],
        limit: int,
        heartbeat: Heartbeat | None = None,
    ) -> BatchOutcome:
        """Claim up to ``limit`` due schedules, decide each, write all, commit once.

        Each is decided as ``plan_occurrence`` decides one, on what the claim
        read, except that admission also counts the runs this batch queued
        before it for the same principal. Each principal's authority is read
        once per batch (``_BatchAuthority``) and checked against every one of
        its schedules. Storage isolates the schedules' failures
        (``BatchOutcome``); ``BatchFailed`` when the batch rolled back whole.
        ``heartbeat`` is written in the batch's transaction.
        """
        authority = _BatchAuthority(self._identity)
        queued: dict[Owner, int] = {}

        def plan(due: DueSchedule) -> OccurrencePlan | None:
            owner = due.view.schedule.owner
            earlier = queued.get(owner, 0)
            if earlier:
                due = replace(due, active_runs=due.active_runs + earlier)
            decided = plan_occurrence(due, now, authority, self._admission)
            if decided is not None and _queues_run(decided):
                queued[owner] = earlier + 1
            return decided

        return self._store.occurrences.materialize_batch(now, plan, excluding, limit, heartbeat)


class _BatchAuthority:
    """The identity provider for one batch: each principal looked up once, then remembered.

    A batch lasts a fraction of a second; within it every schedule of a
    principal is checked against the same fresh entry, as if the firings
    had been one after the other.
    """

    def __init__(self, identity: IdentityProvider) -> None:
        self._identity = identity
        self._seen: dict[tuple[str, str], Principal | None] = {}

    def authenticate(self, bearer_token: str | None) -> Principal | None:
        return self._identity.authenticate(bearer_token)

    def current(self, tenant_id: str, principal_id: str) -> Principal | None:
        key = (tenant_id, principal_id)
        if key not in self._seen:
            self._seen[key] = self._identity.current(tenant_id, principal_id)
        return self._seen[key]


def _queues_run(plan: OccurrencePlan) -> bool:
    return plan.materialization is not None and plan.materialization.run is not None
