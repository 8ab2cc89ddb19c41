"""A session whose browser tab leaves while it starts ends quietly, without a traceback.

Flet answers a call on a page whose connection has gone (the tab closed, say
while the first screen waited for the server or the browser's languages) with
an AttributeError. ``ends_quietly_when_gone`` turns that one case into Flet's
own ``FletPageDisconnectedException``, which Flet logs as a disconnect; any
other AttributeError is a fault and stays one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import flet as ft

__all__ = ["ends_quietly_when_gone"]

Entry = Callable[[ft.Page], Awaitable[None]]


def ends_quietly_when_gone(start: Entry) -> Entry:
    """``start``, ending as a disconnect when its page's connection went during it."""

    async def guarded(page: ft.Page) -> None:
        try:
            await start(page)
        except AttributeError:
            if not _connection_gone(page):
                raise
            raise ft.FletPageDisconnectedException("the tab left as its session started") from None

    return guarded


def _connection_gone(page: ft.Page) -> bool:
    """Whether ``page`` has no connection now (Flet's ``None`` until a tab reconnects)."""
    connection: object = page.session.connection
    return connection is None
