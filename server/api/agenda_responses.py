"""The agenda route's answers: one item per firing, and the page of them.

An ``AgendaItem`` carries the projection's firing fields with their names and
meanings (it extends ``ProjectedFiring``), the schedule's title, state, zone
and stored cadence, the recorded outcome of a past firing, and the clash and
overlap facts (``server.agenda``), and whether a past instant nothing recorded
was ``expected``.
"""

# No postponed annotations: pydantic builds these schemas from the annotations.

from uuid import UUID

from pydantic import Field

from server.agenda.items import AgendaItem as AgendaItemRecord
from server.api.request_schemas import Open
from server.api.responses import open_vocabulary
from server.api.schedule_responses import ProjectedFiring, StoredCadence
from server.domain.states import Disposition, RunStatus, ScheduleState


class AgendaItem(ProjectedFiring):
    """One firing of one of the caller's schedules."""

    schedule_id: UUID
    title: str
    state: str = Field(description=open_vocabulary(ScheduleState))
    timezone: str = Field(description="The cadence's IANA zone (UTC for ONCE).")
    cadence: StoredCadence = Field(description="The definition's cadence, as stored.")
    as_if_resumed: bool = Field(description="A PAUSED schedule's firing, if it were resumed now.")
    disposition: str | None = Field(
        description=f"The recorded occurrence's: {open_vocabulary(Disposition)} Null: no record."
    )
    reason_code: str | None = Field(description="The recorded occurrence's reason code.")
    run_status: str | None = Field(
        description=f"The run a MATERIALIZED occurrence created: {', '.join(RunStatus)};"
        " null when none or erased."
    )
    clash_count: int = Field(
        ge=1, description="The caller's agenda firings at this exact instant, this one included."
    )
    may_overlap: bool = Field(
        description="The schedule's previous firing is closer than its run-time limit."
    )
    expected: bool = Field(
        default=False,
        description=(
            "True: a past instant the cadence selected while the schedule was ACTIVE (since its"
            " creation, last resume or last edit), past the overdue threshold, with nothing"
            " recorded (the scheduler did not run); disposition is null. Sent only when true;"
            " older servers never send it."
        ),
        exclude_if=lambda value: not value,
    )

    @classmethod
    def of(cls, item: AgendaItemRecord) -> "AgendaItem":
        firing = item.firing
        return cls(
            at=firing.at,
            local_date=firing.local.date().isoformat(),
            local_time=firing.local.time().isoformat(timespec="seconds"),
            scheduled_date=firing.scheduled_date.isoformat(),
            scheduled_time=firing.scheduled_time.isoformat(timespec="seconds"),
            adjustment=firing.adjustment,
            schedule_id=item.schedule_id,
            title=item.facts.title,
            state=item.state,
            timezone=item.zone,
            cadence=item.facts.cadence,
            as_if_resumed=item.as_if_resumed,
            disposition=item.disposition,
            reason_code=item.reason_code,
            run_status=item.run_status,
            clash_count=item.clash_count,
            may_overlap=item.may_overlap,
            expected=item.expected,
        )


class AgendaPage(Open):
    items: list[AgendaItem] = Field(description="Ordered by at, then schedule_id.")
    next_cursor: str | None
