"""The rule for remote server addresses: plain http only to this machine.

A bearer token sent over plain http to another host can be read by anyone on
the path, so ``http://`` is accepted only for loopback hosts (a server on the
same machine, a development setup); everything else needs ``https://``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from app.settings import UsageError
from loopback import is_loopback_host

if TYPE_CHECKING:
    from viewmodels.language import Words

__all__ = ["checked_server_url"]


def checked_server_url(url: str, *, words: Words) -> str:
    """The server's base URL without a trailing slash, or ``UsageError`` saying why not."""
    _ = words.gettext
    text = url.strip()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as err:
        raise UsageError(
            # Translators: {reason} is Python's own, such as "Port out of range 0-65535".
            _("--server {url} is not a valid address ({reason}).").format(url=repr(url), reason=err)
        ) from err
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(
            _(
                "--server {url} is not a web address; give one like https://schedules.example.com."
            ).format(url=repr(url))
        )
    if parts.query or parts.fragment:
        raise UsageError(
            _("--server {url} must not carry a query or fragment.").format(url=repr(url))
        )
    if scheme == "http" and not is_loopback_host(parts.hostname):
        raise UsageError(
            _(
                "Refusing plain http to {host}: the token would travel unencrypted. "
                "Use https://, or http:// only for a server on this machine (localhost)."
            ).format(host=parts.hostname)
        )
    del port  # parsed only to reject a malformed port early
    return text.rstrip("/")
