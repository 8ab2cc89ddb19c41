"""The schedule server the app talks to: embedded in this process, or remote.

Both halves yield the same ``Backend`` (``app.backend.connected``), a
``ScheduleClient`` and what the screens need to know of its server, and close it
on every way out, Ctrl+C included: ``app.backend.embedded`` runs the server and
its scheduler here, ``app.backend.remote`` reaches one over HTTP (and gives each
person who signs in to a hosted web view a client of their own). What a start-up
says of it (``Backend.description``, a ``StartupError``) is in the ``words`` it
is opened with, the person's (``app.command_line_words``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime

from app.backend.connected import Backend
from app.backend.embedded import open_embedded_backend
from app.backend.remote import open_remote_backend
from app.settings import RemoteServerSettings, ServerSettings
from viewmodels.language import Words

__all__ = ["open_backend"]


@asynccontextmanager
async def open_backend(
    settings: ServerSettings, *, clock: Callable[[], datetime], words: Words
) -> AsyncIterator[Backend]:
    """The connected backend for ``settings``; ``StartupError`` when it cannot be had.
    Its description and refusals are in ``words``."""
    if isinstance(settings, RemoteServerSettings):
        async with open_remote_backend(settings, words=words) as backend:
            yield backend
    else:
        async with open_embedded_backend(settings, clock, words=words) as backend:
            yield backend
