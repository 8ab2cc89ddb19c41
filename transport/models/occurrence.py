"""One entry of a schedule's occurrence ledger (``GET /v1/schedules/{id}/occurrences``).

Strict: the identity and its disposition. The links and audit facts docs/API.md
lets be null (session, run, reason code, authority version, materialized and
erased instants) are lenient, and so are the revision number and instants.
"""

from __future__ import annotations

from uuid import UUID

from transport.models.base import Instant, Lenient, WireModel, known_member
from transport.models.enums import Disposition


class Occurrence(WireModel):
    """What happened to one nominal firing; links are null once erased or never made."""

    occurrence_id: UUID
    schedule_revision: Lenient[int] = None
    nominal_fire_at: Lenient[Instant] = None
    disposition: str
    session_id: Lenient[UUID] = None
    run_id: Lenient[UUID] = None
    reason_code: Lenient[str] = None
    authority_version: Lenient[str] = None
    materialized_at: Lenient[Instant] = None
    links_erased_at: Lenient[Instant] = None
    created_at: Lenient[Instant] = None

    @property
    def known_disposition(self) -> Disposition | None:
        return known_member(Disposition, self.disposition)
