"""Every firing of the caller's schedules over a window (``GET /v1/agenda``) and its counts.

``AgendaItem`` is one firing: strict in what places and names it (the schedule,
its title and state as raw text, the instant), lenient in everything that only
makes its sentence richer (the readings in the schedule's zone, the recorded
outcome, the clash count, the overlap flag, ``expected`` on a past instant
nothing was recorded for), so a server that sends less still shows the row.
``AgendaDensity`` counts the same items per hour or local day
(``GET /v1/agenda/density``). A server without these routes answers 404/405,
which the client hands back as ``AGENDA_NOT_OFFERED``, not as an error.
"""

from __future__ import annotations

from enum import Enum
from typing import Final, Literal
from uuid import UUID

from pydantic import Field

from transport.models.base import Instant, Lenient, WireModel, known_member
from transport.models.cadence import Cadence
from transport.models.enums import Disposition, RunStatus, ScheduleState
from transport.models.projection import ProjectedFiring


class AgendaItem(ProjectedFiring):
    """One firing of one schedule, with what was recorded for it when it is past."""

    schedule_id: UUID
    title: str
    state: str
    timezone: Lenient[str] = None
    cadence: Lenient[Cadence] = None
    as_if_resumed: Lenient[bool] = None
    disposition: Lenient[str] = None
    reason_code: Lenient[str] = None
    run_status: Lenient[str] = None
    clash_count: Lenient[int] = Field(default=None, description="firings at this very instant")
    expected: Lenient[bool] = None
    """A past instant the cadence selected with nothing recorded (``disposition`` null)."""

    @property
    def known_state(self) -> ScheduleState | None:
        return known_member(ScheduleState, self.state)

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


class DensityBucket(WireModel):
    """How many agenda items fall in ``[start, the next bucket's start)``."""

    start: Instant
    count: int = Field(ge=0)


class AgendaDensity(WireModel):
    """The agenda's items per bucket over the window, every bucket listed (zeros too)."""

    window_start: Instant = Field(alias="from")
    window_end: Instant = Field(alias="to")
    bucket: str
    timezone: Lenient[str] = None
    buckets: list[DensityBucket]


AgendaBucket = Literal["hour", "day"]


class _NotOffered(Enum):
    AGENDA_NOT_OFFERED = "agenda not offered"


AgendaNotOffered = Literal[_NotOffered.AGENDA_NOT_OFFERED]
"""The type of ``AGENDA_NOT_OFFERED``: the server has no agenda routes (404/405)."""
AGENDA_NOT_OFFERED: Final = _NotOffered.AGENDA_NOT_OFFERED
