"""One immutable snapshot per view model, replaced whole, pushed to subscribers.

Views subscribe and re-render from the snapshot they are handed; they never read
half-updated state because a snapshot is a frozen value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

SnapshotT = TypeVar("SnapshotT")

Unsubscribe = Callable[[], None]


class Observable(Generic[SnapshotT]):
    """Holds the current snapshot and the subscribers to tell when it changes."""

    def __init__(self, initial: SnapshotT) -> None:
        self._snapshot = initial
        self._subscribers: list[Callable[[SnapshotT], None]] = []

    @property
    def snapshot(self) -> SnapshotT:
        """The state to render now."""
        return self._snapshot

    def subscribe(self, callback: Callable[[SnapshotT], None]) -> Unsubscribe:
        """Calls ``callback(snapshot)`` on every change; returns the way to stop."""
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

        return unsubscribe

    def _publish(self, snapshot: SnapshotT) -> None:
        if snapshot is self._snapshot:
            return
        self._snapshot = snapshot
        for callback in tuple(self._subscribers):
            callback(snapshot)
