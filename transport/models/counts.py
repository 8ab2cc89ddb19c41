"""``GET /v1/schedules/counts``: how many of the caller's schedules each view holds.

The app shows these numbers (the sections, the Needs attention chip) without
paging through the list, so all three are strict: a count that does not read is
no count at all.
"""

from __future__ import annotations

from transport.models.base import WireModel


class ScheduleCounts(WireModel):
    """Current (ACTIVE and PAUSED), history (COMPLETED and CANCELLED), and needs attention."""

    current: int
    history: int
    needs_attention: int
