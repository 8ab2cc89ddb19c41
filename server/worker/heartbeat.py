"""The scheduler's heartbeat: this replica's row, moved at most every ``HEARTBEAT_INTERVAL``.

``GET /v1/scheduler`` tells running from late from stopped by the newest
``last_tick_at`` in storage, so any replica (``--no-worker`` too) answers for
the whole cluster. The worker loop ticks as it scans: inside its batch
transaction when a batch ran, with a cheap upsert of its own when idle
(``ScheduleWorker.run_once``), and now and then (every tenth of the retention)
the idle upsert also forgets replicas silent longer than the retention
(``SILENT_RETENTION`` unless the server's ``--scheduler-forget-seconds`` says
otherwise). ``Pulse`` decides when a tick is due, and when it forgets.
"""

from __future__ import annotations

import socket
import uuid
from datetime import datetime, timedelta
from functools import cache
from importlib import metadata
from typing import Final

from server.storage.records import Heartbeat, SchedulerReplica

__all__ = ["FORGET_SHARE", "HEARTBEAT_INTERVAL", "SILENT_RETENTION", "Pulse", "this_replica"]

HEARTBEAT_INTERVAL: Final = timedelta(seconds=5)
SILENT_RETENTION: Final = timedelta(minutes=10)
FORGET_SHARE: Final = 10
"""Silent rows are forgotten at most every retention / ``FORGET_SHARE``, so they go
within that after the retention, and most idle ticks are one upsert alone."""
_DISTRIBUTION = "schedule-browser"


@cache
def _version() -> str:
    try:
        return metadata.version(_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


def this_replica(started_at: datetime) -> SchedulerReplica:
    """This process's replica: a random id per start, its host name and version."""
    return SchedulerReplica(
        replica_id=uuid.uuid4().hex,
        host=socket.gethostname()[:255] or "unknown",
        version=_version()[:64],
        started_at=started_at,
    )


class Pulse:
    """When this replica's next tick is due: at once, then ``every`` after each one written."""

    def __init__(
        self,
        replica: SchedulerReplica,
        every: timedelta = HEARTBEAT_INTERVAL,
        retention: timedelta = SILENT_RETENTION,
    ) -> None:
        self.replica = replica
        self._every = every
        self._retention = retention
        self._last: datetime | None = None
        self._forgot: datetime | None = None

    def due(self, now: datetime, *, forget: bool = False) -> Heartbeat | None:
        """The tick to write at ``now``, or None when the last one is recent enough.

        ``forget`` lets the tick delete the rows of replicas silent for the
        retention as well, when a tenth of the retention has passed since it last
        did. A clock that went back counts as due, for both.
        """
        if _within(now, self._last, self._every):
            return None
        forgets = forget and not _within(now, self._forgot, self._retention / FORGET_SHARE)
        return Heartbeat(self.replica, now, now - self._retention if forgets else None)

    def written(self, heartbeat: Heartbeat) -> None:
        """``heartbeat`` committed: the next is due ``every`` later."""
        self._last = heartbeat.at
        if heartbeat.forget_before is not None:
            self._forgot = heartbeat.at


def _within(now: datetime, since: datetime | None, span: timedelta) -> bool:
    """Whether ``now`` is less than ``span`` after ``since``; a clock gone back is not."""
    return since is not None and timedelta(0) <= now - since < span
