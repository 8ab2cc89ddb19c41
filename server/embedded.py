"""The server inside the app: SQLite in the user's data folder, one local principal.

The client's one door into the server (an import-linter contract holds
``app`` to it). ``running(path, demo=..., runtime=...)`` migrates the
database, loads the demo data into an empty one when asked, starts the
scheduler on the caller's loop and stops it before the database closes;
``DatabaseUnavailable`` says why a database could not be opened. Every
in-process request is the local principal, and ``changes`` tells listeners
when the scheduler has committed something. ``attached_runtime`` is
re-exported for the app's ``--executor`` check. The server stack is imported
when a server opens, not with this module, so the command line stays light.
``open_embedded`` and ``embed_store`` open it without its scheduler.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from server.clock import system_clock
from server.worker.attached_runtime import (
    AttachedRuntime,
    RuntimeAtUrl,
    RuntimeChoiceError,
    RuntimeInProcess,
    attached_runtime,
)

if TYPE_CHECKING:
    from fastapi import FastAPI

    from server.identity import LocalIdentity
    from server.storage.ports import Store
    from server.worker.change_feed import ChangeFeed
    from server.worker.executor import RunExecutor
    from server.worker.runtime import SchedulingRuntime
    from server.worker.wake import WakeSignal

__all__ = [
    "AttachedRuntime",
    "DatabaseUnavailable",
    "EmbeddedServer",
    "RuntimeAtUrl",
    "RuntimeChoiceError",
    "RuntimeInProcess",
    "attached_runtime",
    "embed_store",
    "open_embedded",
    "running",
]


class DatabaseUnavailable(RuntimeError):
    """The embedded database could not be opened or migrated; the message says why."""


@dataclass(frozen=True, slots=True)
class EmbeddedServer:
    """An open in-process server; ``close`` releases the database."""

    app: FastAPI
    """The ASGI app, for ``httpx.ASGITransport``."""
    principal_id: str
    tenant_id: str
    store: Store
    identity: LocalIdentity
    clock: Callable[[], datetime]
    wake: WakeSignal
    changes: ChangeFeed
    """Calls its subscribers on the caller's loop after every change the scheduler commits."""

    def scheduling(self, executor: RunExecutor | None = None) -> SchedulingRuntime:
        """The worker, run executor and purge over this server's store (not yet running).

        Without ``executor`` runs get the honest no-runtime answer.
        """
        from server.worker.runtime import SchedulingRuntime

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


@asynccontextmanager
async def running(
    database_path: Path,
    *,
    demo: bool,
    clock: Callable[[], datetime] = system_clock,
    runtime: AttachedRuntime | None = None,
) -> AsyncIterator[EmbeddedServer]:
    """The embedded server over ``database_path`` with its scheduler running, for the body.

    ``runtime`` is the agent runtime runs are handed to (``attached_runtime``);
    None answers each run that no runtime is attached. The opening (the server
    stack's imports, the migration, the demo data: most of a cold start) runs
    in a worker thread, so the caller's loop goes on meanwhile (the web view
    serves its page while the server opens).
    """
    try:
        server = await asyncio.to_thread(_open_to_run, database_path, demo=demo, clock=clock)
    except Exception as err:  # any failure here is the database's: the caller says which file
        raise DatabaseUnavailable(_reason(err)) from err
    from server.worker.attached_runtime import executor_for
    from server.worker.runtime import running as scheduler_running  # loaded by _open_to_run

    try:
        async with scheduler_running(server.scheduling(executor_for(runtime, clock))):
            yield server
    finally:
        server.close()


def _reason(err: Exception) -> str:
    """The driver's own words, on one line: not the statement, not a link to a manual."""
    cause = getattr(err, "orig", None) or err  # a SQLAlchemy error wraps the driver's
    lines = str(cause).strip().splitlines()
    return lines[0] if lines else type(cause).__name__


def _open_to_run(
    database_path: Path, *, demo: bool, clock: Callable[[], datetime]
) -> EmbeddedServer:
    """``open_embedded``, the scheduler's modules and a first request, in the calling
    worker thread: what they cost on the caller's loop would stall the page that loop
    is serving meanwhile, or the first session's reads."""
    import server.worker.runtime  # noqa: F401

    opened = open_embedded(database_path, demo=demo, clock=clock)
    _serve_first_request(opened.app)
    return opened


def _serve_first_request(app: FastAPI) -> None:
    """Pay here what a process's first requests pay once: FastAPI prepares each router's
    routes when a request first looks through them, pydantic and SQLAlchemy build their
    validators and statements on first use. A lookup by name looks through every route;
    one read of the list does the rest. Nothing is written."""
    import httpx
    from starlette.routing import NoMatchFound

    with contextlib.suppress(NoMatchFound):
        app.url_path_for("")  # no route has this name

    async def read() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://embedded") as client:
            await client.get("/v1/schedules", params={"limit": 1})

    asyncio.run(read())


def open_embedded(
    database_path: Path, *, demo: bool, clock: Callable[[], datetime] = system_clock
) -> EmbeddedServer:
    """The in-process server over SQLite at ``database_path``, its scheduler not started."""
    from server.storage.sql.store import SqlStore

    database_path.parent.mkdir(parents=True, exist_ok=True)
    return embed_store(SqlStore.open(f"sqlite:///{database_path}"), demo=demo, clock=clock)


def embed_store(
    store: Store, *, demo: bool, clock: Callable[[], datetime] = system_clock
) -> EmbeddedServer:
    """The in-process server over an open ``store`` of any backend (the tests use both)."""
    from server.app import create_app
    from server.demo import load_demo_if_empty
    from server.identity import LocalIdentity, local_principal
    from server.worker.change_feed import ChangeFeed
    from server.worker.wake import WakeSignal

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
        changes=ChangeFeed(),
    )
