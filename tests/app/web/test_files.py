"""The page's files come whole and unchanged through ``PathSend``, ranges and HEAD too.

Against the real web app under uvicorn (``tests.app.flet_socket.serving``):
the largest file the page loads, Flet's ``main.dart.wasm``, is compared byte
for byte with the file Flet ships. How much quicker the large reads are is
measured in ``bench/page_files.py``, not here.
"""

from __future__ import annotations

from pathlib import Path

import flet as ft
import flet_web
import httpx
from starlette.types import Message, Receive, Scope, Send

from app.settings import WebAddress
from app.web.files import PathSend
from tests.app.flet_socket import serving

APP_FILE = "main.dart.wasm"
SHIPPED = Path(flet_web.__file__).parent / "web" / APP_FILE


async def shows_nothing(_page: ft.Page) -> None:
    return None


async def test_a_file_larger_than_one_read_comes_whole_and_a_range_or_head_as_asked() -> None:
    shipped = SHIPPED.read_bytes()
    assert len(shipped) > 3 * 1024 * 1024, "the test needs a file of several reads"
    async with serving(WebAddress(), shows_nothing) as port, httpx.AsyncClient() as client:
        url = f"http://127.0.0.1:{port}/{APP_FILE}"
        whole = await client.get(url)
        part = await client.get(url, headers={"Range": "bytes=1048570-1048585"})
        head = await client.head(url)
    assert whole.status_code == 200
    assert whole.content == shipped
    assert whole.headers["content-length"] == str(len(shipped))
    assert (part.status_code, part.content) == (206, shipped[1048570:1048586])
    assert (head.status_code, head.content) == (200, b"")
    assert head.headers["content-length"] == str(len(shipped))


async def test_only_http_is_offered_path_send_and_other_messages_pass_unchanged(
    tmp_path: Path,
) -> None:
    named = tmp_path / "named.bin"
    named.write_bytes(b"x" * 10)
    seen: list[Message] = []
    offered: list[bool] = []

    async def names_a_file(scope: Scope, _receive: Receive, send: Send) -> None:
        offered.append("http.response.pathsend" in scope.get("extensions", {}))
        await send({"type": "http.response.start", "status": 200, "headers": []})
        if scope["type"] == "http":
            await send({"type": "http.response.pathsend", "path": str(named)})

    async def sent(message: Message) -> None:
        seen.append(message)

    async def nothing() -> Message:
        raise AssertionError("not read here")

    await PathSend(names_a_file)({"type": "http"}, nothing, sent)
    await PathSend(names_a_file)({"type": "websocket"}, nothing, sent)
    assert offered == [True, False]
    assert [message["type"] for message in seen].count("http.response.start") == 2
    bodies = [message["body"] for message in seen if message["type"] == "http.response.body"]
    assert b"".join(bodies) == b"x" * 10
    assert seen[-1]["type"] == "http.response.start"  # the socket's, after the file's end
