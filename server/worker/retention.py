"""Retention: terminal schedules are deleted thirty days after their last change.

A COMPLETED or CANCELLED schedule whose ``updated_at`` is more than
``RETENTION`` old goes, with its idempotency rows, occurrences and revisions,
in batches of ``BATCH`` schedules, each batch one transaction. Sessions and
runs stay (a removed schedule still groups its sessions in the sidebar), and
so does the audit log. The runtime purges once at start and then hourly;
replicas on one database sweep one at a time (``purge_terminal``), and a
stopping runtime ends the sweep after the batch in flight.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from typing import Final

from server.storage.ports import Store

__all__ = ["BATCH", "PURGE_INTERVAL", "RETENTION", "purge_expired"]

RETENTION: Final = timedelta(days=30)
BATCH: Final = 100
PURGE_INTERVAL: Final = timedelta(hours=1)


def purge_expired(
    store: Store, now: datetime, stopping: threading.Event | None = None, *, batch: int = BATCH
) -> int:
    """Delete every terminal schedule past retention at ``now`` (until ``stopping``); how many."""
    cutoff = now - RETENTION
    total = 0
    while stopping is None or not stopping.is_set():
        deleted = store.schedules.purge_terminal(cutoff, batch)
        total += deleted
        if deleted < batch:
            break
    return total
