"""``ConnectionLimits`` on a real uvicorn listener: what one client may hold of it.

Each test serves a small ASGI app under uvicorn on a free loopback port with
the limits ``uvicorn_options`` gives, over each of uvicorn's HTTP protocols
(h11, and httptools, the one ``auto`` picks where it is installed), and
speaks raw HTTP over sockets, as a slowloris client would. A closed
connection is seen as its end of stream; short timeouts keep the tests fast.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import pytest
import uvicorn
from starlette.types import Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from connection_limits import ConnectionLimits, RequestHeadDeadline
from devtools.ports import LOOPBACK, free_port

PROTOCOLS = {"h11": H11Protocol, "httptools": HttpToolsProtocol}
QUICK = ConnectionLimits(header_timeout=0.5, keep_alive_timeout=60)
CLOSE_WITHIN = 10.0
"""A closed connection is seen well within this; the timeouts above are far shorter."""
REQUEST = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"
PARTIAL = b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: "

App = Callable[[Scope, Receive, Send], Awaitable[None]]


async def answers_ok(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] != "http":
        return
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]}
    )
    await send({"type": "http.response.body", "body": b"ok"})


@asynccontextmanager
async def listening(
    protocol: str, limits: ConnectionLimits = QUICK, app: App = answers_ok
) -> AsyncIterator[int]:
    """Serves ``app`` with ``limits`` over ``protocol`` until the block ends; yields the port."""
    port = free_port()
    options = {**limits.uvicorn_options()}
    options["http"] = RequestHeadDeadline.around(PROTOCOLS[protocol], limits)
    config = uvicorn.Config(
        app, host=LOOPBACK, port=port, log_level="warning", lifespan="off", **options
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:
            assert not task.done(), "the listener did not start"
            await asyncio.sleep(0.02)
        yield port
    finally:
        server.should_exit = True
        await task


@asynccontextmanager
async def connected(port: int) -> AsyncIterator[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """A raw connection to the listener, closed on the way out."""
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    try:
        yield reader, writer
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


async def closed_by_server(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the connection.

    A close that finds bytes of ours still unread arrives as a reset (the kernel's
    way): nothing more was sent then either.
    """
    try:
        return await asyncio.wait_for(reader.read(), CLOSE_WITHIN)
    except ConnectionResetError:
        return b""


async def status_of(port: int, request: bytes = REQUEST) -> int:
    async with connected(port) as (reader, writer):
        writer.write(request)
        line = await asyncio.wait_for(reader.readline(), CLOSE_WITHIN)
    return int(line.split()[1])


async def trickle(writer: asyncio.StreamWriter, until: asyncio.Future[bytes]) -> None:
    """A header value a byte at a time, as a slowloris client sends it, until ``until``."""
    while not until.done():
        writer.write(b"a")
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("protocol", PROTOCOLS)
async def test_a_connection_that_trickles_its_headers_is_closed_after_the_header_timeout(
    protocol: str,
) -> None:
    async with listening(protocol) as port, connected(port) as (reader, writer):
        writer.write(PARTIAL)
        started = asyncio.get_running_loop().time()
        closed = asyncio.ensure_future(closed_by_server(reader))
        await trickle(writer, closed)
        held = asyncio.get_running_loop().time() - started
        assert await closed == b""
        assert held >= QUICK.header_timeout * 0.9
        assert await status_of(port) == 200


@pytest.mark.parametrize("protocol", PROTOCOLS)
async def test_a_connection_that_sends_nothing_is_closed_after_the_header_timeout(
    protocol: str,
) -> None:
    async with listening(protocol) as port, connected(port) as (reader, _writer):
        assert await closed_by_server(reader) == b""


@pytest.mark.parametrize("protocol", PROTOCOLS)
async def test_a_kept_alive_connection_stalling_on_its_next_request_is_closed(
    protocol: str,
) -> None:
    async with listening(protocol) as port, connected(port) as (reader, writer):
        writer.write(REQUEST)
        answer = await asyncio.wait_for(reader.readuntil(b"ok"), CLOSE_WITHIN)
        assert answer.startswith(b"HTTP/1.1 200")
        writer.write(PARTIAL)  # the keep-alive timeout (60 s) would wait for it
        closed = asyncio.ensure_future(closed_by_server(reader))
        await trickle(writer, closed)
        assert await closed == b""


@pytest.mark.parametrize("protocol", PROTOCOLS)
async def test_a_slow_answer_is_not_cut_off_by_the_header_timeout(protocol: str) -> None:
    release = asyncio.Event()

    async def answers_when_released(scope: Scope, receive: Receive, send: Send) -> None:
        await release.wait()
        await answers_ok(scope, receive, send)

    async with (
        listening(protocol, app=answers_when_released) as port,
        connected(port) as (reader, writer),
    ):
        writer.write(REQUEST)
        # A connection opened after the held request reaches its header timeout:
        # the held request's own would have passed by then.
        try:
            async with connected(port) as (later, _writer):
                assert await closed_by_server(later) == b""
        finally:
            release.set()
        answer = await asyncio.wait_for(reader.readuntil(b"ok"), CLOSE_WITHIN)
        assert answer.startswith(b"HTTP/1.1 200")


@pytest.mark.parametrize("protocol", PROTOCOLS)
async def test_a_request_head_over_the_limit_is_answered_431_and_closed(protocol: str) -> None:
    limits = ConnectionLimits(header_timeout=30, max_header_bytes=4096)
    async with listening(protocol, limits) as port:
        async with connected(port) as (reader, writer):
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 8192 + b"\r\n\r\n")
            answer = await closed_by_server(reader)
        assert answer.startswith(b"HTTP/1.1 431")
        assert await status_of(port) == 200


@pytest.mark.parametrize("protocol", PROTOCOLS)
async def test_a_head_within_the_limit_with_a_large_body_in_the_same_write_is_served(
    protocol: str,
) -> None:
    limits = ConnectionLimits(header_timeout=30, max_header_bytes=4096)
    body = b"x" * 65536
    head = f"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n\r\n".encode()
    async with listening(protocol, limits) as port:
        assert await status_of(port, head + body) == 200


@pytest.mark.parametrize("protocol", PROTOCOLS)
async def test_beyond_max_connections_a_request_is_answered_503(protocol: str) -> None:
    limits = ConnectionLimits(header_timeout=30, max_connections=3)
    async with listening(protocol, limits) as port:
        async with connected(port), connected(port), connected(port):
            assert await status_of(port) == 503
        assert await status_of(port) == 200


class RecordingTransport(asyncio.Transport):
    """A transport that keeps what the protocol writes, for feeding chunks one by one."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.closed = False
        self._protocol: asyncio.BaseProtocol | None = None

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written.extend(data)

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_extra_info(self, name: str, default: object = None) -> object:
        return {"peername": (LOOPBACK, 50000), "sockname": (LOOPBACK, 8000)}.get(name, default)

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._protocol = protocol

    def get_protocol(self) -> asyncio.BaseProtocol:
        assert self._protocol is not None
        return self._protocol

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


@pytest.mark.parametrize("protocol", PROTOCOLS)
async def test_a_head_whose_blank_line_straddles_two_reads_is_measured_to_its_end(
    protocol: str,
) -> None:
    limits = ConnectionLimits(header_timeout=30, max_header_bytes=4096)
    config = uvicorn.Config(answers_ok, lifespan="off", log_level="warning")
    config.load()
    connection = RequestHeadDeadline.around(PROTOCOLS[protocol], limits)(
        config=config, server_state=ServerState(), app_state={}
    )
    transport = RecordingTransport()
    transport.set_protocol(connection)
    connection.connection_made(transport)
    body = b"x" * 65536
    head = f"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n\r\n".encode()
    connection.data_received(head[:-1])
    connection.data_received(head[-1:] + body)
    await asyncio.sleep(0)  # the request's task answers
    assert transport.written.startswith(b"HTTP/1.1 200")
    connection.connection_lost(None)
