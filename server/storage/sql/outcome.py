"""A schedule's last outcome: kept on its row, read with its latest occurrence and run.

What became of the latest firing is asked of every row of every list page and
by the Needs attention filter, so the schedule's row keeps two facts:
``last_fired_at`` (the latest occurrence's nominal instant) and
``outcome_attention`` (whether that occurrence's outcome needs attention: a
MISSED, SKIPPED_OVERLAP, AUTHORIZATION_FAILED or CONFIGURATION_FAILED
disposition, or a FAILED run). ``refresh`` recomputes both from the ledger in
the caller's transaction, the one that writes an occurrence or ends a run, so
they never lag what they summarize (the scheduler's claim, which writes the
newest occurrence, sets them with the schedule's own update instead:
``kept_for_newest``); the Needs attention filter is then an
indexed predicate (``tables.NEEDS_ATTENTION``). The rest of the outcome (its
disposition, reason code, run status and failure reason, session) is read by
joining the occurrence at ``last_fired_at`` and its run: one index probe each,
per row shown.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from sqlalchemy import (
    Connection,
    RowMapping,
    Select,
    and_,
    bindparam,
    case,
    false,
    func,
    select,
    true,
    update,
)

from server.domain.states import Disposition, RunStatus
from server.storage.records import LastOutcome, OccurrenceRecord
from server.storage.tables import runs, schedule_occurrences, schedules

ATTENTION_DISPOSITIONS = (
    Disposition.MISSED,
    Disposition.SKIPPED_OVERLAP,
    Disposition.AUTHORIZATION_FAILED,
    Disposition.CONFIGURATION_FAILED,
)
"""Dispositions that need attention by themselves; MATERIALIZED does when its run FAILED."""

_OCC = schedule_occurrences.c
_LATEST = (
    select(func.max(_OCC.nominal_fire_at))
    .where(_OCC.schedule_id == schedules.c.id)
    .scalar_subquery()
)
_LATEST_NEEDS_ATTENTION = (
    select(
        case(
            (_OCC.disposition.in_(ATTENTION_DISPOSITIONS), true()),
            (runs.c.status == RunStatus.FAILED, true()),
            else_=false(),
        )
    )
    .select_from(schedule_occurrences.outerjoin(runs, runs.c.id == _OCC.run_id))
    .where(_OCC.schedule_id == schedules.c.id)
    .order_by(_OCC.nominal_fire_at.desc())
    .limit(1)
    .scalar_subquery()
)
REFRESH_VALUES = {
    "last_fired_at": _LATEST,
    "outcome_attention": func.coalesce(_LATEST_NEEDS_ATTENTION, false()),
}
"""The two kept columns, recomputed from the ledger (the migration backfills with these)."""

# Built once: the scheduler runs it per materialization and per finished run.
_REFRESH = update(schedules).where(schedules.c.id == bindparam("target")).values(REFRESH_VALUES)


def refresh(connection: Connection, schedule_id: UUID) -> None:
    """Bring one schedule's kept outcome up to date, in the caller's transaction."""
    connection.execute(_REFRESH, {"target": schedule_id})


def kept_for_newest(occurrence: OccurrenceRecord) -> dict[str, object]:
    """The kept columns once ``occurrence``, newer than any before, is written.

    What ``refresh`` would compute, without reading: a new firing's run has
    not ended yet, so only its disposition can need attention.
    """
    return {
        "last_fired_at": occurrence.nominal_fire_at,
        "outcome_attention": occurrence.disposition in ATTENTION_DISPOSITIONS,
    }


_SHOWN = schedule_occurrences.alias("last_occurrence")
_SHOWN_RUN = runs.alias("last_run")
_OUTCOME_COLUMNS = (
    _SHOWN.c.disposition.label("outcome_disposition"),
    _SHOWN.c.reason_code.label("outcome_reason_code"),
    _SHOWN.c.session_id.label("outcome_session_id"),
    _SHOWN_RUN.c.status.label("outcome_run_status"),
    _SHOWN_RUN.c.failure_reason.label("outcome_failure_reason"),
)


def with_outcome(views: Select[Any]) -> Select[Any]:
    """``views`` (schedules joined with their revision) plus each one's last outcome."""
    return (
        views.outerjoin(
            _SHOWN,
            and_(
                _SHOWN.c.schedule_id == schedules.c.id,
                _SHOWN.c.nominal_fire_at == schedules.c.last_fired_at,
            ),
        )
        .outerjoin(_SHOWN_RUN, _SHOWN_RUN.c.id == _SHOWN.c.run_id)
        .add_columns(*_OUTCOME_COLUMNS)
    )


def last_outcome(row: RowMapping) -> LastOutcome | None:
    """The outcome on a row of ``with_outcome``; None when the schedule never fired."""
    fired_at = row["last_fired_at"]
    disposition = row["outcome_disposition"]
    if fired_at is None or disposition is None:
        return None
    return LastOutcome(
        nominal_fire_at=fired_at,
        disposition=Disposition(disposition),
        reason_code=row["outcome_reason_code"],
        run_status=_run_status(row["outcome_run_status"]),
        failure_reason=row["outcome_failure_reason"],
        session_id=row["outcome_session_id"],
        needs_attention=bool(row["outcome_attention"]),
    )


def _run_status(value: str | None) -> RunStatus | None:
    return None if value is None else RunStatus(value)
