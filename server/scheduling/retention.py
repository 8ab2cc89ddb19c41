"""Retention: terminal schedules are deleted thirty days after their last change.

A COMPLETED or CANCELLED schedule whose ``updated_at`` is more than
``RETENTION`` old goes, with its idempotency rows, occurrences and revisions,
in batches of ``BATCH`` schedules, each batch one transaction. Sessions and
runs stay (a removed schedule still groups its sessions in the sidebar), and
so does the audit log. The runtime purges once at start and then hourly.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Final

from server.storage.ports import Store

__all__ = ["BATCH", "PURGE_INTERVAL", "RETENTION", "purge_expired"]

RETENTION: Final = timedelta(days=30)
BATCH: Final = 100
PURGE_INTERVAL: Final = timedelta(hours=1)


def purge_expired(store: Store, now: datetime, *, batch: int = BATCH) -> int:
    """Delete every terminal schedule past retention at ``now``; how many went."""
    cutoff = now - RETENTION
    total = 0
    while True:
        deleted = store.schedules.purge_terminal(cutoff, batch)
        total += deleted
        if deleted < batch:
            return total
