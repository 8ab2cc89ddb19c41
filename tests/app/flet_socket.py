"""The real web app under uvicorn on a free port, and Flet's first socket message.

``serving`` starts ``web_app`` (our layers around Flet's app, under the
connection limits, as ``serve_web`` builds them) with a given session entry;
``register_frame`` is the message a browser tab sends first on ``/ws``, so a
``websockets`` client speaks to it as Flet's web client does.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import flet_web.fastapi as flet_fastapi
import msgpack
import uvicorn

from app.launch import ASSETS_DIR
from app.settings import WebAddress, WebLimits
from app.web.server import DEFAULT_WEB_LIMITS, Entry, web_app
from devtools.ports import LOOPBACK, free_port


@asynccontextmanager
async def serving(
    address: WebAddress, entry: Entry, limits: WebLimits = DEFAULT_WEB_LIMITS
) -> AsyncIterator[int]:
    """Serves ``entry`` at ``address`` with ``limits`` until the block ends; yields the port."""
    port = free_port()
    config = uvicorn.Config(
        web_app(entry, assets_dir=ASSETS_DIR, address=address, port=port, limits=limits),
        host=LOOPBACK,
        port=port,
        ws="websockets-sansio",
        log_level="warning",
        proxy_headers=False,
        **limits.connections.uvicorn_options(),
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:
            assert not task.done(), "the web app did not start"
            await asyncio.sleep(0.05)
        yield port
    finally:
        server.should_exit = True
        await task
        flet_fastapi.app_manager.delete_temp_dirs()


def register_frame() -> bytes:
    """Flet's REGISTER_CLIENT message as the web client sends it: type byte 0, msgpack."""
    body = {"session_id": "", "page_name": "", "page": {"route": "/"}}
    return b"\x00" + msgpack.packb([1, body])
