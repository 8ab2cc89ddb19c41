"""The rule for remote server addresses: plain http only to this machine.

A bearer token sent over plain http to another host can be read by anyone on
the path, so ``http://`` is accepted only for loopback hosts (a server on the
same machine, a development setup); everything else needs ``https://``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from app.settings import UsageError
from loopback import is_loopback_host

__all__ = ["checked_server_url"]


def checked_server_url(url: str) -> str:
    """The server's base URL without a trailing slash, or ``UsageError`` saying why not."""
    text = url.strip()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as err:
        raise UsageError(f"--server {url!r} is not a valid address ({err}).") from err
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(
            f"--server {url!r} is not a web address; give one like https://schedules.example.com."
        )
    if parts.query or parts.fragment:
        raise UsageError(f"--server {url!r} must not carry a query or fragment.")
    if scheme == "http" and not is_loopback_host(parts.hostname):
        raise UsageError(
            f"Refusing plain http to {parts.hostname}: the token would travel unencrypted. "
            "Use https://, or http:// only for a server on this machine (localhost)."
        )
    del port  # parsed only to reject a malformed port early
    return text.rstrip("/")
