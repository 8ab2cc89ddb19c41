"""The embedded backend: the schedule server in this process, over SQLite in the data folder.

The client reaches it through an ``httpx.ASGITransport`` over the server's ASGI
app: no socket, no token, every request the local principal. The scheduler (the
worker that materializes due occurrences, the executor that answers their runs,
the retention purge) runs here only, a remote server runs its own:
``server.embedded.running``, the app's one door into the server, starts it as
tasks on this loop and stops it before the database closes. ``Backend.changes``
is the server's change signal, so screens re-read at once after each change. The
server stack is imported when the backend opens, not when this module is.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

from app.backend.connected import Backend
from app.settings import EmbeddedServerSettings
from app.startup_error import StartupError
from transport.client import ScheduleClient
from viewmodels.language import Words

if TYPE_CHECKING:
    from server.embedded import AttachedRuntime

__all__ = ["EMBEDDED_BASE_URL", "chosen_runtime", "open_embedded_backend"]

EMBEDDED_BASE_URL = "http://embedded.schedule-browser.invalid"
"""Never resolved: the ASGI transport answers every request in-process."""


@asynccontextmanager
async def open_embedded_backend(
    settings: EmbeddedServerSettings, clock: Callable[[], datetime], *, words: Words
) -> AsyncIterator[Backend]:
    """The embedded server, open and running; ``StartupError`` when its database is not
    (said in ``words``, as is its description)."""
    from server import embedded

    _ = words.gettext
    database = settings.database_path
    try:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise StartupError(
            # Translators: {reason} is the system's, such as "Permission denied".
            _(
                "Cannot create the data folder {folder} ({reason}); choose another with --data-dir."
            ).format(folder=settings.data_dir, reason=err.strerror or err)
        ) from None
    try:
        async with embedded.running(
            database, demo=settings.demo, clock=clock, runtime=settings.runtime
        ) as server:
            transport = httpx.ASGITransport(app=server.app)
            async with ScheduleClient(EMBEDDED_BASE_URL, transport=transport) as api:
                yield Backend(
                    api=api,
                    identity=f"embedded:{database.resolve()}",
                    # Translators: the server as the object of a start-up line ("opening a
                    # window on {server}", "showing {server}"); {database} is a path.
                    description=_("the embedded schedule server ({database})").format(
                        database=database
                    ),
                    changes=server.changes,
                    embedded=True,
                    device_dir=settings.data_dir,
                )
    except embedded.DatabaseUnavailable as err:
        raise StartupError(
            # Translators: {reason} is the database's own, in English.
            _(
                "Cannot open the schedule database {database} ({reason}); "
                "move it aside or choose another folder with --data-dir."
            ).format(database=database, reason=err)
        ) from None


def chosen_runtime(
    target: str | None, secret_file: Path | None, words: Words
) -> AttachedRuntime | None:
    """``--executor`` and ``--executor-secret-file``, checked before anything starts.

    None: no runtime attached. A choice that cannot be had raises ``StartupError``
    with the server's one sentence on why, in ``words``.
    """
    from server.embedded import RuntimeChoiceError, attached_runtime

    try:
        return attached_runtime(target, secret_file, words)
    except RuntimeChoiceError as err:
        raise StartupError(str(err)) from None
