"""A schedule due at a chosen instant, written into a fresh data folder through the real service.

The UI tests that watch a firing happen while the app is open need a DAILY
schedule whose wall time (in UTC) is some seconds from now. It is created as
the app's local user through ``ScheduleService``, so it passes the same
validation, revisioning and first-firing computation as one made in the app.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from devtools.api_bodies import definition_json
from server.control.service import ScheduleService
from server.identity import LocalIdentity, local_principal
from server.storage.sql.store import SqlStore

LEAD = timedelta(seconds=15)
"""Time to start the app and open the page before the schedule fires."""


def create_daily_due(
    database: Path, due: datetime, *, title: str, instruction: str, idempotency_key: str
) -> None:
    """A DAILY schedule firing at ``due``'s wall time in UTC, created as the app's user."""
    store = SqlStore.open(f"sqlite:///{database}")
    try:
        identity = LocalIdentity(local_principal())
        service = ScheduleService(store, lambda: datetime.now(UTC), identity=identity)
        definition = definition_json(
            title=title,
            instruction=instruction,
            misfire_grace_seconds=600,
            cadence={"kind": "DAILY", "local_time": due.strftime("%H:%M:%S"), "timezone": "UTC"},
        )
        service.create(local_principal(), definition, idempotency_key)
    finally:
        store.close()
