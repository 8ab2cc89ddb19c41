"""What the agenda asks of storage: the schedules on a wall clock, and the ledger in a band.

The agenda (``server.agenda``) sweeps a window in bands of instants. For each
band it asks for the caller's schedules whose cadence wall time lies in the
band's wall-clock ranges of their zone (``WallRange``), counted per herd
(``Herd``: they fire together) with the few that fire on their own as rows
(``Candidate``); then only the members of the herds its page shows, the
recorded occurrences whose nominal instant lies in the band, and the current
definitions of the schedules it has not seen yet. Every read is confined to
one owner and filtered as the schedule list filters (``AgendaFilter``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol
from uuid import UUID

from server.storage.records import Owner

__all__ = [
    "AgendaFilter",
    "AgendaRows",
    "BandSchedules",
    "Candidate",
    "Herd",
    "Recorded",
    "WallRange",
]


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
class Herd:
    """Schedules in ``state`` sharing one cadence that fire at each of its instants in a band.

    PAUSED ones all do (as if resumed, after now); ACTIVE ones when created
    by ``created_by``, the band's start (those created later are candidates).
    """

    state: str
    zone: str
    wall_time: int
    cadence_key: str
    created_by: datetime | None
    schedules: int

    def holds(self, created_at: datetime) -> bool:
        """Whether a schedule of this state and cadence created then is one of the herd."""
        return self.created_by is None or created_at <= self.created_by


@dataclass(frozen=True, slots=True)
class BandSchedules:
    """The schedules in a band's wall ranges: herds counted, the rest as rows."""

    herds: list[Herd]
    candidates: list[Candidate]


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
    cadence_key: str | None
    created_at: datetime


class AgendaRows(Protocol):
    def reading(self) -> AbstractContextManager[AgendaRows]:
        """These reads for the block on one connection: a page's dozen short reads pay
        for one checkout and one transaction (inside a block, the same rows)."""
        ...

    def zones(self, owner: Owner, states: Collection[str]) -> list[tuple[str, str]]:
        """The distinct (state, cadence zone) pairs of the owner's schedules in ``states``."""
        ...

    def band_schedules(
        self, owner: Owner, ranges: Sequence[WallRange], start: datetime, where: AgendaFilter
    ) -> BandSchedules:
        """The owner's schedules in any of ``ranges`` that pass ``where``: herds whose
        ACTIVE members were created by ``start``, and the rest one by one."""
        ...

    def members(
        self,
        owner: Owner,
        herds: Sequence[Herd],
        where: AgendaFilter,
        *,
        after: UUID | None = None,
        limit: int | None = None,
    ) -> list[list[Candidate]]:
        """The herds' members that pass ``where``, per herd in id order: of those after
        ``after``, the first ``limit`` by id of all the herds together (None: all)."""
        ...

    def recorded(
        self, owner: Owner, start: datetime, end: datetime, where: AgendaFilter
    ) -> list[Recorded]:
        """The ledger's occurrences in ``[start, end)`` of the owner's schedules under ``where``."""
        ...

    def definitions(self, revisions: Collection[tuple[UUID, int]]) -> dict[tuple[UUID, int], str]:
        """The canonical definition JSON of each (schedule, revision) asked for."""
        ...
