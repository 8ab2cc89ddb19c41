"""When a schedule fires: the ``Cadence`` union of ``API.md``, read tolerantly.

The wire union is closed today (ONCE, DAILY, WEEKLY, MONTHLY, YEARLY) but a
newer server may send a kind this client does not know. Such a cadence is
kept whole (every field it carries stays in ``model_extra``) so the row still
renders its zone rule and a definition sent back carries it unchanged. The
client never computes firings from a cadence: the server is authoritative.
"""

from __future__ import annotations

from pydantic import Field

from transport.models.enums import CadenceKind
from transport.models.wire import Instant, WireModel, known_member


class MonthDay(WireModel):
    """A calendar date without a year, for YEARLY cadences (29 February included)."""

    month: int
    day: int


class Cadence(WireModel):
    """One cadence; only the fields its ``kind`` uses are present."""

    kind: str
    at: Instant | None = None
    local_time: str | None = Field(default=None, description="HH:MM:SS wall-clock time")
    timezone: str | None = None
    weekdays: list[int] | None = Field(default=None, description="ISO weekdays, 1 = Monday")
    days_of_month: list[int] | None = None
    last_day: bool | None = None
    dates: list[MonthDay] | None = None

    @property
    def known_kind(self) -> CadenceKind | None:
        return known_member(CadenceKind, self.kind)
