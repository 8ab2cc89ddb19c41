"""The statements every claim of a due schedule shares: what is due, in which order, what is read.

A schedule is due when ACTIVE with ``next_fire_at <= now`` (``DUE_FIRST``);
claims take them in the due index's order (``DUE_ORDER``), leaving some out
(``LEAVING_OUT``), and read with each what its decision needs
(``DECISION_READS``, turned into a ``DueSchedule`` by ``due_schedule``): the
current revision, the newest ledger instant, whether the newest materialized
run is still active, and how many active runs the owner has. The worker's
batch (``batch_claims``) and a request's hold on one schedule
(``occurrences.settle_then_apply``) both build on them.
"""

from __future__ import annotations

from sqlalchemy import RowMapping, bindparam, func, select

from server.domain.states import Disposition, RunStatus, ScheduleState
from server.storage.columns import UtcDateTime
from server.storage.records import DueSchedule
from server.storage.sql.schedule_rows import schedule_view, schedule_views
from server.storage.tables import runs, schedule_occurrences, schedules

__all__ = [
    "ACTIVE_RUN_STATUSES",
    "DECISION_READS",
    "DUE_FIRST",
    "DUE_ORDER",
    "LEAVING_OUT",
    "due_schedule",
]

ACTIVE_RUN_STATUSES = (RunStatus.QUEUED, RunStatus.RUNNING)

_OCC = schedule_occurrences.c
_LAST_NOMINAL = (
    select(func.max(_OCC.nominal_fire_at))
    .where(_OCC.schedule_id == schedules.c.id)
    .scalar_subquery()
)
_NEWEST_RUN_STATUS = (
    select(runs.c.status)
    .select_from(schedule_occurrences.outerjoin(runs, runs.c.id == _OCC.run_id))
    .where(_OCC.schedule_id == schedules.c.id, _OCC.disposition == Disposition.MATERIALIZED)
    .order_by(_OCC.nominal_fire_at.desc())
    .limit(1)
    .scalar_subquery()
)
_ACTIVE_RUNS = (
    select(func.count())
    .select_from(runs)
    .where(
        runs.c.tenant_id == schedules.c.tenant_id,
        runs.c.principal_id == schedules.c.principal_id,
        runs.c.status.in_(ACTIVE_RUN_STATUSES),
    )
    .scalar_subquery()
)
DUE_FIRST = (
    schedules.c.state == ScheduleState.ACTIVE,
    schedules.c.next_fire_at <= bindparam("now", type_=UtcDateTime()),
)
LEAVING_OUT = schedules.c.id.not_in(bindparam("excluding", expanding=True))
# Earliest first, so a claim reads index entries, not every schedule due at the
# same instant; and among those due at one instant, each owner's together, so
# that replicas claiming side by side share at most the owner at their
# boundary, not every owner's admission turn (``batch_claims``).
DUE_ORDER = (schedules.c.next_fire_at, schedules.c.tenant_id, schedules.c.principal_id)
DECISION_READS = schedule_views().add_columns(
    _LAST_NOMINAL.label("last_nominal_at"),
    _NEWEST_RUN_STATUS.label("newest_run_status"),
    _ACTIVE_RUNS.label("active_runs"),
)


def due_schedule(row: RowMapping) -> DueSchedule:
    """A row of ``DECISION_READS`` as the decision takes it."""
    return DueSchedule(
        view=schedule_view(row),
        last_nominal_at=row["last_nominal_at"],
        run_in_flight=row["newest_run_status"] in ACTIVE_RUN_STATUSES,
        active_runs=row["active_runs"],
    )
