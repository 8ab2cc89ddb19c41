"""One entry of a schedule's occurrence ledger (``GET /v1/schedules/{id}/occurrences``)."""

from __future__ import annotations

from uuid import UUID

from transport.models.enums import Disposition
from transport.models.wire import Instant, WireModel, known_member


class Occurrence(WireModel):
    """What happened to one nominal firing; links are null once erased or never made."""

    occurrence_id: UUID
    schedule_revision: int
    nominal_fire_at: Instant
    disposition: str
    session_id: UUID | None = None
    run_id: UUID | None = None
    reason_code: str | None = None
    materialized_at: Instant | None = None
    links_erased_at: Instant | None = None
    created_at: Instant

    @property
    def known_disposition(self) -> Disposition | None:
        return known_member(Disposition, self.disposition)
