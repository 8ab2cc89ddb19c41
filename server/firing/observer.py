"""What whoever watches the firings hears (the metrics), and the silent default.

The worker, and the control plane for an instant an edit decided, call these
after each commit, on their own thread; an observer
must be quick and thread-safe and must not raise. ``occurrence_recorded``
gets every occurrence a materialization wrote (its disposition, nominal
instant and the instant it was decided); ``firings_due`` counts due instants
as a decider first meets them (the worker's claim, an edit's settling), so
that due minus decided is what waits or fails; ``materialization_failed`` is
one schedule's transaction failing for a reason other than a storage fault,
which the store counts itself.
"""

from __future__ import annotations

from typing import Protocol

from server.storage.records import OccurrenceRecord

__all__ = ["SILENT", "WorkerObserver"]


class WorkerObserver(Protocol):
    def occurrence_recorded(self, occurrence: OccurrenceRecord) -> None: ...

    def firings_due(self, count: int) -> None: ...

    def materialization_failed(self) -> None: ...


class _Silent:
    def occurrence_recorded(self, occurrence: OccurrenceRecord) -> None:
        return None

    def firings_due(self, count: int) -> None:
        return None

    def materialization_failed(self) -> None:
        return None


SILENT: WorkerObserver = _Silent()
