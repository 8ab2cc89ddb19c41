"""The page's files in large reads, so a busy process still serves them quickly.

Starlette's ``FileResponse`` reads a file 64 KiB at a time, each read a hop to a
worker thread that waits for the interpreter while the embedded server opens in
another thread. ``PathSend`` offers the app ASGI's path-send extension, so
``FileResponse`` names the file and ``PathSend`` sends it in 1 MiB reads;
everything else (ranges, ``HEAD``) is answered as before. ``bench/page_files.py``
measures the difference.
"""

from __future__ import annotations

import asyncio
from typing import BinaryIO

from starlette.types import ASGIApp, Message, Receive, Scope, Send

PATHSEND = "http.response.pathsend"
READ_SIZE = 1024 * 1024


class PathSend:
    """Sends the files ``app`` names by path (ASGI path-send) in large reads."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        scope = dict(scope)
        scope["extensions"] = {**scope.get("extensions", {}), PATHSEND: {}}

        async def send_files(message: Message) -> None:
            if message["type"] == PATHSEND:
                await _send_file(message["path"], send)
            else:
                await send(message)

        await self.app(scope, receive, send_files)


async def _send_file(path: str, send: Send) -> None:
    file: BinaryIO = await asyncio.to_thread(open, path, "rb")
    try:
        while chunk := await asyncio.to_thread(file.read, READ_SIZE):
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
    finally:
        await asyncio.to_thread(file.close)
    await send({"type": "http.response.body", "body": b"", "more_body": False})
