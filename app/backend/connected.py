"""The connected backend: the client the screens use, and what they know of its server."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from app.device_storage import server_namespace
from transport.client import ScheduleClient

__all__ = ["Backend", "ChangeSignal"]


class ChangeSignal(Protocol):
    """Calls each subscribed callback, on the app's loop, when the server changed something."""

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Start calling ``callback``; the returned function stops it."""
        ...


@dataclass(frozen=True, slots=True)
class Backend:
    api: ScheduleClient
    identity: str
    """Stable per server (database path or URL): keys the device state namespace."""
    description: str
    """Where the data comes from, for the start-up line, in the words it was opened in
    ("the embedded schedule server (…)")."""
    changes: ChangeSignal | None = None
    """The embedded server's change signal; None for a remote server."""
    views_namespace: str | None = None
    """Where the view cache is kept (per server and token); None keeps none (embedded)."""
    offline_at_start: bool = False
    """The server could not be reached at start, but this device has read it before."""
    embedded: bool = False
    """The in-process demo server (nothing behind it resumes a paused schedule)."""
    device_dir: Path | None = None
    """The user data folder, where a local session keeps its device state
    (``app.device_folder``); None keeps it in memory for the session only."""

    @property
    def namespace(self) -> str:
        """The device-state namespace of this server (see ``app.device_storage``)."""
        return server_namespace(self.identity)
