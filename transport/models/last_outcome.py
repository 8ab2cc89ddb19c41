"""What became of a schedule's latest firing, as a list row and the detail carry it.

``last_outcome`` is null when the schedule never fired. Strict: the nominal
instant and the disposition, without which the line a row shows says nothing.
Every other field (the reason code, the run's status and failure reason, the
session, the server's ``needs_attention`` verdict) is ``Lenient``: a row still
reads when one of them is odd, and says less.
"""

from __future__ import annotations

from uuid import UUID

from transport.models.base import Instant, Lenient, WireModel, known_member
from transport.models.enums import Disposition, RunStatus


class LastOutcome(WireModel):
    """The latest occurrence's disposition and, where a run exists, how the run ended."""

    nominal_fire_at: Instant
    disposition: str
    reason_code: Lenient[str] = None
    run_status: Lenient[str] = None
    failure_reason: Lenient[str] = None
    session_id: Lenient[UUID] = None
    needs_attention: Lenient[bool] = None

    @property
    def known_disposition(self) -> Disposition | None:
        return known_member(Disposition, self.disposition)

    @property
    def known_run_status(self) -> RunStatus | None:
        return known_member(RunStatus, self.run_status)
