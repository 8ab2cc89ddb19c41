"""What the agenda asks of storage: the schedules on a wall clock, and the ledger in a band.

The agenda (``server.agenda``) sweeps a window in bands of instants. For each
band it asks for the caller's schedules whose cadence wall time lies in the
band's wall-clock ranges of their zone (``WallRange``), the recorded
occurrences whose nominal instant lies in the band, and the current
definitions of the schedules it has not seen yet. Every read is confined to
one owner and filtered as the schedule list filters (``AgendaFilter``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol
from uuid import UUID

from server.storage.records import Owner

__all__ = ["AgendaFilter", "AgendaRows", "Candidate", "Recorded", "WallRange"]


@dataclass(frozen=True, slots=True)
class AgendaFilter:
    """The schedule list's filters: search words and Needs attention (overdue before an instant)."""

    words: tuple[str, ...] = ()
    needs_attention: bool = False
    overdue_before: datetime | None = None


@dataclass(frozen=True, slots=True)
class WallRange:
    """Schedules in ``state`` whose cadence is in ``zone`` at a wall time in ``[low, high]`` s."""

    state: str
    zone: str
    low: int
    high: int


@dataclass(frozen=True, slots=True)
class Candidate:
    """A schedule that may fire in a band: what its firings are computed from."""

    schedule_id: UUID
    state: str
    created_at: datetime
    revision: int
    cadence_key: str


@dataclass(frozen=True, slots=True)
class Recorded:
    """A ledger occurrence in a band, with its schedule's facts and its run's status."""

    schedule_id: UUID
    at: datetime
    disposition: str
    reason_code: str | None
    run_status: str | None
    state: str
    revision: int
    cadence_zone: str | None


class AgendaRows(Protocol):
    def zones(self, owner: Owner, states: Collection[str]) -> list[tuple[str, str]]:
        """The distinct (state, cadence zone) pairs of the owner's schedules in ``states``."""
        ...

    def candidates(
        self, owner: Owner, ranges: Sequence[WallRange], where: AgendaFilter
    ) -> list[Candidate]:
        """The owner's schedules in any of ``ranges`` that pass ``where``."""
        ...

    def recorded(
        self, owner: Owner, start: datetime, end: datetime, where: AgendaFilter
    ) -> list[Recorded]:
        """The ledger's occurrences in ``[start, end)`` of the owner's schedules under ``where``."""
        ...

    def definitions(self, revisions: Collection[tuple[UUID, int]]) -> dict[tuple[UUID, int], str]:
        """The canonical definition JSON of each (schedule, revision) asked for."""
        ...
