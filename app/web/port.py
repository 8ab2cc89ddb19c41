"""The web view's port: the one asked for if free, else 8550, else any free one.

Checked before the web server starts because uvicorn's bind failure ends the
process from inside a task with a log line, not with a sentence the user can
act on. The check binds the same address the server will (``--host``, or
127.0.0.1), with the same socket options.
"""

from __future__ import annotations

import socket
from typing import TYPE_CHECKING

from app.startup_error import StartupError
from loopback import LOOPBACK

if TYPE_CHECKING:
    from viewmodels.language import Words

DEFAULT_WEB_PORT = 8550

__all__ = ["DEFAULT_WEB_PORT", "LOOPBACK", "choose_port", "port_is_free"]


def port_is_free(port: int, host: str = LOOPBACK, *, words: Words) -> bool:
    """Whether the web server could bind ``host:port`` now (``StartupError`` for a bad host)."""
    family, address = _bind_address(host, port, words=words)
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError:
            return False
    return True


def choose_port(requested: int | None, host: str = LOOPBACK, *, words: Words) -> int:
    """The requested port if free (else ``StartupError`` in ``words``), else 8550, else any."""
    if requested is not None:
        if not port_is_free(requested, host, words=words):
            raise StartupError(
                words.gettext(
                    "Port {port} is already in use on {host}; choose another with --port."
                ).format(port=requested, host=host)
            )
        return requested
    if port_is_free(DEFAULT_WEB_PORT, host, words=words):
        return DEFAULT_WEB_PORT
    family, address = _bind_address(host, 0, words=words)
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.bind(address)
        port: int = probe.getsockname()[1]
    return port


def _bind_address(
    host: str, port: int, *, words: Words
) -> tuple[socket.AddressFamily, tuple[str, int]]:
    try:
        found = socket.getaddrinfo(
            host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except (socket.gaierror, UnicodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise StartupError(
            # Translators: {reason} is the system's, such as "Name or service not known".
            words.gettext(
                "Cannot listen on --host {host} ({reason}); give an address of this machine."
            ).format(host=host, reason=reason)
        ) from None
    family, _type, _proto, _name, sockaddr = found[0]
    return family, (str(sockaddr[0]), int(sockaddr[1]))
