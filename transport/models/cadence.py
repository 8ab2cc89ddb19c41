"""When a schedule fires: the ``Cadence`` union of ``docs/API.md``, read liberally.

The wire union is closed today (ONCE, DAILY, WEEKLY, MONTHLY, YEARLY) but a
newer server may send a kind this client does not know. Such a cadence is
kept whole (every field it carries stays in ``model_extra``) so the row still
renders its zone rule and a definition sent back carries it unchanged. Only
``kind`` is needed to read a cadence; every other field is lenient, so one odd
selector leaves the summary to say what it can. The client never computes
firings from a cadence: the server is authoritative.
"""

from __future__ import annotations

from pydantic import Field

from transport.models.base import Instant, Lenient, WireModel, known_member
from transport.models.enums import CadenceKind


class MonthDay(WireModel):
    """A calendar date without a year, for YEARLY cadences (29 February included)."""

    month: int
    day: int


class Cadence(WireModel):
    """One cadence; only the fields its ``kind`` uses are present."""

    kind: str
    at: Lenient[Instant] = None
    local_time: Lenient[str] = Field(default=None, description="HH:MM:SS wall-clock time")
    timezone: Lenient[str] = None
    weekdays: Lenient[list[int]] = Field(default=None, description="ISO weekdays, 1 = Monday")
    days_of_month: Lenient[list[int]] = None
    last_day: Lenient[bool] = None
    dates: Lenient[list[MonthDay]] = None

    @property
    def known_kind(self) -> CadenceKind | None:
        return known_member(CadenceKind, self.kind)
