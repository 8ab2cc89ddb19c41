"""The web view's port: the one asked for if free, else 8550, else any free one.

Checked before Flet starts because uvicorn's bind failure ends the process from
inside a task with a log line, not with a sentence the user can act on.
"""

from __future__ import annotations

import socket

from app.backend import StartupError

DEFAULT_WEB_PORT = 8550
LOOPBACK = "127.0.0.1"
"""The web view binds here only: the embedded server acts as the local user
with every scope, so the app must not be reachable from other machines."""


def port_is_free(port: int, host: str = LOOPBACK) -> bool:
    """Whether the web server could bind ``port`` now (same socket options as uvicorn)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def choose_port(requested: int | None) -> int:
    """The requested port if free (else ``StartupError``), else 8550, else any free one."""
    if requested is not None:
        if not port_is_free(requested):
            raise StartupError(
                f"Port {requested} is already in use on this machine; choose another with --port."
            )
        return requested
    if port_is_free(DEFAULT_WEB_PORT):
        return DEFAULT_WEB_PORT
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((LOOPBACK, 0))
        port: int = probe.getsockname()[1]
    return port
