"""Which addresses stay on this machine: the line between "me" and "others".

Two rules hang on it: plain http to a schedule server is accepted only on
loopback (``app.server_address``), and the web view serves other people, who
then each sign in, as soon as it listens anywhere else (``app.web_address``).
"""

from __future__ import annotations

import ipaddress

LOOPBACK = "127.0.0.1"
"""Where the web view listens unless told otherwise."""

_LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def is_loopback_host(host: str) -> bool:
    """True for ``localhost`` names and loopback IP literals (127.0.0.0/8, ::1).

    ``0.0.0.0`` and ``::`` are not loopback: they listen on every interface.
    """
    name = host.strip("[]").lower().rstrip(".")
    if name in _LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False
