"""What one client may hold of an HTTP listener: time, connections and bytes.

Both uvicorn listeners, the schedule server and the web view that serves the
app to browsers, take their limits from one ``ConnectionLimits`` and their
options from ``add_limit_options``: a request head within a timeout and a size,
an idle timeout, a cap on connections and on WebSocket frame size. uvicorn
waits for headers for ever, so ``RequestHeadDeadline`` wraps its protocol.

The options' help and refusals are gettext messages, looked up in the words
the caller passes (a stdlib ``gettext`` catalog: the app's command line speaks
the person's language, the server's English); ``scripts/catalogs`` extracts
them with the app's.
"""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import dataclass
from functools import partial
from gettext import NullTranslations
from typing import Any, cast

DEFAULT_HEADER_TIMEOUT = 10.0
DEFAULT_KEEP_ALIVE_TIMEOUT = 5
DEFAULT_MAX_CONNECTIONS = 1000
DEFAULT_MAX_HEADER_BYTES = 32 * 1024
DEFAULT_MAX_FRAME_BYTES = 1024 * 1024

ENGLISH = NullTranslations()
"""The options' words where no language is given: the English written here (the server's)."""

HEAD_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"content-length: 26\r\n"
    b"connection: close\r\n\r\n"
    b"Request head is too large."
)


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """The limits one listener applies to every client (see the module docstring)."""

    header_timeout: float = DEFAULT_HEADER_TIMEOUT
    keep_alive_timeout: int = DEFAULT_KEEP_ALIVE_TIMEOUT
    max_connections: int = DEFAULT_MAX_CONNECTIONS
    max_header_bytes: int = DEFAULT_MAX_HEADER_BYTES
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES

    def uvicorn_options(self) -> dict[str, Any]:
        """The keyword arguments of ``uvicorn.Config`` that apply these limits."""
        from uvicorn.protocols.http.auto import AutoHTTPProtocol

        return {
            "http": RequestHeadDeadline.around(AutoHTTPProtocol, self),
            "timeout_keep_alive": self.keep_alive_timeout,
            "limit_concurrency": self.max_connections,
            "h11_max_incomplete_event_size": self.max_header_bytes,
            "ws_max_size": self.max_frame_bytes,
        }


def add_limit_options(
    group: argparse._ArgumentGroup, *, frames: bool, words: NullTranslations = ENGLISH
) -> None:
    """The options that set ``ConnectionLimits`` (``--max-frame-bytes`` only with ``frames``,
    for a listener that serves WebSockets), their help and refusals in ``words`` (the app's
    command line passes the person's; the server's reads English); ``limits_from`` reads
    them back."""
    _ = words.gettext
    defaults = ConnectionLimits()
    seconds = partial(seconds_above_zero, words=words)
    count = partial(count_from_one, words=words)
    group.add_argument(
        "--header-timeout",
        type=seconds,
        default=defaults.header_timeout,
        metavar="S",
        help=_(
            "a connection whose request headers have not all arrived S seconds after it "
            "opened, or after its previous answer, is closed (default: {seconds})"
        ).format(seconds=f"{defaults.header_timeout:g}"),
    )
    group.add_argument(
        "--keep-alive-timeout",
        type=count,
        default=defaults.keep_alive_timeout,
        metavar="S",
        help=_(
            "an idle kept-alive connection is closed after S seconds (default: {seconds})"
        ).format(seconds=defaults.keep_alive_timeout),
    )
    group.add_argument(
        "--max-connections",
        type=count,
        default=defaults.max_connections,
        metavar="N",
        help=_(
            "open connections and requests in progress; beyond N a request is answered 503 "
            "(default: {count})"
        ).format(count=defaults.max_connections),
    )
    group.add_argument(
        "--max-header-bytes",
        type=count,
        default=defaults.max_header_bytes,
        metavar="N",
        help=_(
            "the largest request line and headers; a larger request is answered 431 "
            "(default: {count})"
        ).format(count=defaults.max_header_bytes),
    )
    if frames:
        group.add_argument(
            "--max-frame-bytes",
            type=count,
            default=defaults.max_frame_bytes,
            metavar="N",
            help=_(
                "the largest WebSocket message a browser may send; a larger one closes its "
                "socket (default: {count})"
            ).format(count=defaults.max_frame_bytes),
        )


def limits_from(arguments: argparse.Namespace) -> ConnectionLimits:
    """The ``ConnectionLimits`` the options of ``add_limit_options`` ask for."""
    return ConnectionLimits(
        header_timeout=arguments.header_timeout,
        keep_alive_timeout=arguments.keep_alive_timeout,
        max_connections=arguments.max_connections,
        max_header_bytes=arguments.max_header_bytes,
        max_frame_bytes=getattr(arguments, "max_frame_bytes", DEFAULT_MAX_FRAME_BYTES),
    )


def seconds_above_zero(text: str, *, words: NullTranslations = ENGLISH) -> float:
    """An argparse type: a number of seconds, more than 0 and finite (refused in ``words``)."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(
            words.gettext("expected a number of seconds above 0: {text}").format(text=repr(text))
        )
    return value


def count_from_one(text: str, *, words: NullTranslations = ENGLISH) -> int:
    """An argparse type: a whole number, 1 or more (refused in ``words``)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            words.gettext("expected a whole number, 1 or more: {text}").format(text=repr(text))
        )
    return value


class RequestHeadDeadline(asyncio.Protocol):
    """uvicorn's HTTP protocol, closing a connection whose request head is late or too large.

    Made per listener by ``around``; uvicorn instantiates it per connection as
    it would its own protocol class, and every event is handed on to that.
    """

    inner_class: type[asyncio.Protocol]
    limits: ConnectionLimits

    @classmethod
    def around(
        cls, inner_class: type[asyncio.Protocol], limits: ConnectionLimits
    ) -> type[RequestHeadDeadline]:
        """The protocol class to give ``uvicorn.Config(http=...)``."""
        return type("RequestHeadDeadline", (cls,), {"inner_class": inner_class, "limits": limits})

    def __init__(
        self,
        config: Any,
        server_state: Any,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self._inner: Any = self.inner_class(  # type: ignore[call-arg]
            config=config, server_state=server_state, app_state=app_state, _loop=_loop
        )
        if not hasattr(self._inner, "cycle"):
            raise TypeError(f"{self.inner_class.__name__} keeps no request cycle to watch")
        self._loop = _loop or asyncio.get_event_loop()
        self._transport: asyncio.Transport | None = None
        self._deadline: asyncio.TimerHandle | None = None
        self._cycle_awaited: object = None
        self._head_bytes = 0
        self._head_tail = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)
        self._inner.connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._deadline is None and self._between_requests():
            self._arm()
        if (
            self._deadline is not None
            and self._head_bytes + _head_part(self._head_tail, data) > self.limits.max_header_bytes
        ):
            self._disarm()
            self._close(HEAD_TOO_LARGE)
            return
        self._inner.data_received(data)
        if self._deadline is None:
            return
        if self._head_arrived():
            self._disarm()
        else:
            self._head_bytes += len(data)
            self._head_tail = (self._head_tail + data)[-3:]

    def eof_received(self) -> bool | None:
        result: bool | None = self._inner.eof_received()
        return result

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._inner.resume_writing()

    def _between_requests(self) -> bool:
        cycle = self._inner.cycle
        return cycle is None or bool(cycle.response_complete)

    def _head_arrived(self) -> bool:
        upgraded = self._transport is not None and self._transport.get_protocol() is not self
        return upgraded or self._inner.cycle is not self._cycle_awaited

    def _arm(self) -> None:
        self._cycle_awaited = self._inner.cycle
        self._head_bytes = 0
        self._head_tail = b""
        self._deadline = self._loop.call_later(self.limits.header_timeout, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if not self._head_arrived():
            self._close(b"")

    def _close(self, answer: bytes) -> None:
        transport = self._transport
        if transport is None or transport.is_closing():
            return
        if answer:
            transport.write(answer)
        transport.close()


def _head_part(seen: bytes, data: bytes) -> int:
    """How many of ``data``'s bytes belong to a request head whose bytes so far end in
    ``seen``: up to the head's blank line (which may begin in ``seen``), or all of them."""
    end = (seen + data).find(b"\r\n\r\n")
    return len(data) if end < 0 else max(0, end + 4 - len(seen))
