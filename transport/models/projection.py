"""A schedule's calendar over a window (``GET /v1/schedules/{id}/projection``).

Everything here was computed by the server with the scheduler's own
calculator; the client only places it on a grid. Strict: the identity, the
window, each firing's instant, each notice's date and reason, each past
occurrence's id, instant and disposition (a calendar cannot place or name
them otherwise); a past entry the server marks ``expected`` (an instant the
cadence selected with no recorded decision) has neither id nor disposition,
and any other past entry without them makes the answer unreadable. Lenient:
the readings in the schedule's zone, which only make the sentences richer, a
firing's ``may_overlap``, a past firing's run status and failure reason
(absent from older servers), and the state fields read beside the projection.
Adjustments, notice reasons, dispositions and run statuses stay raw strings; the
``known_*`` accessors answer None for a value this client does not know, which
the calendar then shows humanized.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Self
from uuid import UUID

from pydantic import Field, model_validator

from transport.models.base import Instant, Lenient, WireModel, known_member
from transport.models.enums import (
    Disposition,
    FiringAdjustment,
    NoticeReason,
    RunStatus,
    ScheduleState,
)

_LOCAL_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


class ProjectedFiring(WireModel):
    """One instant the schedule will fire, with its reading on the schedule zone's clock."""

    at: Instant
    local_date: Lenient[date] = None
    local_time: Lenient[str] = Field(default=None, description="HH:MM:SS in the schedule's zone")
    scheduled_date: Lenient[date] = None
    scheduled_time: Lenient[str] = Field(default=None, description="the wall time the rule names")
    adjustment: Lenient[str] = None
    may_overlap: Lenient[bool] = None
    """Its previous firing is closer than the run-time limit: the overlap policy may skip it."""

    @property
    def known_adjustment(self) -> FiringAdjustment | None:
        return known_member(FiringAdjustment, self.adjustment)


class ProjectionNotice(WireModel):
    """A date the rule selects that never fires; the date may be none the calendar has."""

    local_date: str = Field(pattern=_LOCAL_DATE.pattern)
    reason: str

    @property
    def parts(self) -> tuple[int, int, int]:
        """``(year, month, day)``, also for a day the month lacks (2027-04-31)."""
        match = _LOCAL_DATE.fullmatch(self.local_date)
        if match is None:  # unreachable: the field's pattern was checked on reading
            raise ValueError("a notice's date is YYYY-MM-DD")
        year, month, day = (int(part) for part in match.groups())
        return year, month, day

    @property
    def known_reason(self) -> NoticeReason | None:
        return known_member(NoticeReason, self.reason)


class PastOccurrence(WireModel):
    """What the scheduler already decided for one instant in the window.

    ``run_status`` and ``failure_reason`` are the materialized firing's run: None
    when there is none, when its session was erased, or from an older server.
    An ``expected`` entry is an instant the cadence selected that has no recorded
    decision (the scheduler was not running): it has no id and no disposition.
    """

    occurrence_id: UUID | None = None
    nominal_fire_at: Instant
    disposition: str | None = None
    expected: Lenient[bool] = None
    reason_code: Lenient[str] = None
    session_id: Lenient[UUID] = None
    run_status: Lenient[str] = None
    failure_reason: Lenient[str] = None

    @model_validator(mode="after")
    def _recorded_or_expected(self) -> Self:
        if self.expected is not True and (self.occurrence_id is None or self.disposition is None):
            raise ValueError("a recorded past occurrence needs its id and its disposition")
        return self

    @property
    def not_fired(self) -> bool:
        """The cadence selected this instant and nothing was recorded for it."""
        return self.expected is True and self.disposition is None

    @property
    def known_disposition(self) -> Disposition | None:
        return known_member(Disposition, self.disposition)

    @property
    def known_run_status(self) -> RunStatus | None:
        return known_member(RunStatus, self.run_status)


class Projection(WireModel):
    """The answer: ``firings`` in time order, ``notices`` by date, ``past`` oldest first."""

    schedule_id: UUID
    state: Lenient[str] = None
    pause_reason: Lenient[str] = None
    current_revision: Lenient[int] = None
    timezone: Lenient[str] = None
    window_start: Instant = Field(alias="from")
    window_end: Instant = Field(alias="to")
    as_if_resumed: Lenient[bool] = None
    """True for a PAUSED schedule: the firings are the ones it would make if resumed now."""
    firings: list[ProjectedFiring]
    notices: list[ProjectionNotice] = Field(default_factory=list)
    past: list[PastOccurrence] = Field(default_factory=list)

    @property
    def known_state(self) -> ScheduleState | None:
        return known_member(ScheduleState, self.state)
