"""What the agenda's busy hours ask of storage: counts per cadence, not rows per schedule.

``server.agenda.density`` counts the agenda's items per bucket from two
grouped reads, each filtered as the schedule list filters (``AgendaFilter``):
the caller's schedules in the computed states counted per cadence
(``CadenceGroup``), and the window's recorded occurrences counted per cadence
and instant (``LedgerGroup``). Schedules created after the window's start are
counted apart per creation instant, since their firings start there.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from server.storage.agenda_port import AgendaFilter
from server.storage.records import Owner

__all__ = ["CadenceGroup", "DensityRows", "LedgerGroup"]


@dataclass(frozen=True, slots=True)
class CadenceGroup:
    """Schedules of one state sharing one cadence (its canonical JSON, ``cadence_key``)."""

    cadence_key: str
    state: str
    created_at: datetime | None
    """When they were created, if ACTIVE and created after the window's start; else None."""
    schedules: int


@dataclass(frozen=True, slots=True)
class LedgerGroup:
    """Recorded occurrences at one instant of schedules of one state and cadence."""

    cadence_key: str | None
    state: str
    created_at: datetime | None
    """As in ``CadenceGroup``: which computed items these records may be."""
    at: datetime
    occurrences: int


class DensityRows(Protocol):
    def cadence_groups(
        self, owner: Owner, states: Collection[str], start: datetime, where: AgendaFilter
    ) -> list[CadenceGroup]:
        """The owner's schedules in ``states`` passing ``where``, counted per cadence."""
        ...

    def ledger_groups(
        self, owner: Owner, start: datetime, end: datetime, where: AgendaFilter
    ) -> list[LedgerGroup]:
        """The occurrences at ``[start, end)`` of the owner's schedules (any state) passing
        ``where``, counted per (state, cadence, creation as in ``CadenceGroup``, instant)."""
        ...
