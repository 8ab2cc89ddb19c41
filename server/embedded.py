"""The server inside the app: SQLite in the user's data folder, one local principal.

``open_embedded`` migrates the database, loads the demo data into a new
(empty) one when asked, and returns the ASGI app for ``httpx.ASGITransport``.
Every in-process request is the local principal; no token exists.

The scheduler is not started here: the caller runs ``scheduling()`` on its
own event loop (``server.worker.runtime.running``) and stops it before
``close``. ``changes`` tells in-process listeners when the scheduler has
committed something; the routes' schedule changes wake the scheduler through
``wake``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from fastapi import FastAPI

from server.app import create_app
from server.demo import load_demo_if_empty
from server.identity import LocalIdentity, local_principal
from server.storage.sql.store import SqlStore
from server.worker.change_feed import ChangeFeed
from server.worker.executor import RunExecutor
from server.worker.runtime import SchedulingRuntime
from server.worker.wake import WakeSignal


def system_clock() -> datetime:
    """The wall clock, aware and in UTC (the only place the server reads it)."""
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class EmbeddedServer:
    """A running in-process server; ``close`` releases the database."""

    app: FastAPI
    principal_id: str
    tenant_id: str
    store: SqlStore
    identity: LocalIdentity
    clock: Callable[[], datetime]
    wake: WakeSignal = field(default_factory=WakeSignal)
    changes: ChangeFeed = field(default_factory=ChangeFeed)

    def scheduling(self, executor: RunExecutor | None = None) -> SchedulingRuntime:
        """The worker, run executor and purge over this server's store (not yet running).

        Without ``executor`` runs get the honest no-runtime answer.
        """
        return SchedulingRuntime(
            self.store,
            self.identity,
            self.clock,
            executor=executor,
            wake=self.wake,
            changes=self.changes,
        )

    def close(self) -> None:
        self.store.close()


def open_embedded(
    database_path: Path, *, demo: bool, clock: Callable[[], datetime] = system_clock
) -> EmbeddedServer:
    database_path.parent.mkdir(parents=True, exist_ok=True)
    return embed_store(SqlStore.open(f"sqlite:///{database_path}"), demo=demo, clock=clock)


def embed_store(
    store: SqlStore, *, demo: bool, clock: Callable[[], datetime] = system_clock
) -> EmbeddedServer:
    """The in-process server over an open ``store`` of any backend (the tests use both)."""
    principal = local_principal()
    if demo:
        load_demo_if_empty(store, principal.principal_id, principal.tenant_id, clock())
    identity = LocalIdentity(principal)
    wake = WakeSignal()
    return EmbeddedServer(
        app=create_app(store, identity, clock, on_schedule_change=wake.notify),
        principal_id=principal.principal_id,
        tenant_id=principal.tenant_id,
        store=store,
        identity=identity,
        clock=clock,
        wake=wake,
    )
