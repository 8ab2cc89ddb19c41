"""Which hosts are this machine: the one rule the client and the server both ask.

It draws the line between "me" and "others": plain http only to a loopback
schedule server or agent runtime, a server without a principals file only on
loopback, ``/metrics`` only to a loopback caller, and a web view that serves
other people as soon as it listens anywhere else. A host is loopback only
when no resolver could send it elsewhere: an IP literal in 127.0.0.0/8 or
``::1`` (bracketed or not, IPv4-mapped or not), or the name ``localhost`` in
any case. Other names (``localhost.``, ``app.localhost``, ``ip6-localhost``)
may be asked of DNS, so they are not; nor are ``0.0.0.0`` and ``::``, which
listen on every interface.
"""

from __future__ import annotations

import ipaddress
from typing import TypeAlias

LOOPBACK = "127.0.0.1"
"""Where a listener binds unless told otherwise."""

IPAddress: TypeAlias = ipaddress.IPv4Address | ipaddress.IPv6Address


def loopback_address(host: str) -> IPAddress | None:
    """The loopback IP address ``host`` spells, or None for a name or another address.

    An IPv4-mapped IPv6 address (a dual-stack socket's IPv4 peer) comes back
    as its IPv4 address, so it compares with IPv4 networks.
    """
    bracketed = host.startswith("[") and host.endswith("]")
    try:
        address = ipaddress.ip_address(host[1:-1] if bracketed else host)
    except ValueError:
        return None
    if bracketed and address.version != 6:
        return None  # brackets hold only an IPv6 address (RFC 3986)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address if address.is_loopback else None


def is_loopback_host(host: str) -> bool:
    """True for ``localhost`` in any case and for loopback IP literals (module docstring)."""
    return host.lower() == "localhost" or loopback_address(host) is not None
