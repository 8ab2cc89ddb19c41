"""Which ``Host`` and ``Origin`` the web view answers: its own page, and no other website.

Any page may open a socket to any address, and a rebinding name can send any
``Host`` to 127.0.0.1, while a session on Flet's socket acts with the app's token.
``TrustedOrigins`` names the web view's own origins (the loopback names on its
port; the ``--public-url``; or, over TLS without one, ``https://`` and the
``Host`` it came with, which the certificate vouches for) and ``app.web.guard``
refuses the rest. A socket without ``Origin``, or with ``Origin: null``, is always
refused; a plain request without one is judged by its ``Host``.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443}
LOCAL_NAMES = ("127.0.0.1", "localhost", "[::1]")


@dataclass(frozen=True, slots=True)
class Authority:
    """A host (lower case; IPv6 in brackets) and an explicit port."""

    host: str
    port: int

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"


def parse_authority(text: str, scheme: str) -> Authority | None:
    """``host[:port]`` as a ``Host`` header or URL writes it; None when malformed."""
    text = text.strip().lower()
    if not text or any(c in text for c in "/@?#\\ ") or not text.isascii():
        return None
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            return None
        host, rest = text[: end + 1], text[end + 1 :]
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return None
    else:
        host, _, port_text = text.partition(":")
        rest = f":{port_text}" if _ else ""
    if rest:
        if not rest.startswith(":") or not rest[1:].isdigit():
            return None
        port = int(rest[1:])
    else:
        default = DEFAULT_PORTS.get(scheme)
        if default is None:
            return None
        port = default
    host = host.rstrip(".")
    if not host or not 0 < port < 65536:
        return None
    return Authority(host, port)


@dataclass(frozen=True, slots=True)
class Origin:
    scheme: str
    authority: Authority

    def __str__(self) -> str:
        default = DEFAULT_PORTS.get(self.scheme)
        host = self.authority.host
        return (
            f"{self.scheme}://{host}"
            if self.authority.port == default
            else f"{self.scheme}://{self.authority}"
        )


def parse_origin(text: str) -> Origin | None:
    """An ``Origin`` header (or a bare URL origin); None for ``null`` and anything malformed."""
    text = text.strip()
    scheme, separator, rest = text.partition("://")
    scheme = scheme.lower()
    if not separator or scheme not in DEFAULT_PORTS:
        return None
    authority = parse_authority(rest, scheme)
    return None if authority is None else Origin(scheme, authority)


@dataclass(frozen=True, slots=True)
class TrustedOrigins:
    """The origins this web view belongs to (see the module docstring for the three kinds)."""

    scheme: str
    port: int
    """The port the app listens on (behind a proxy: the public URL's port)."""
    hosts: frozenset[str]
    """Allowed ``Host`` names; empty means any name, on ``port`` (TLS without a public URL)."""

    @classmethod
    def local(cls, port: int, *, scheme: str = "http", host: str | None = None) -> TrustedOrigins:
        names = set(LOCAL_NAMES)
        if host is not None:
            given = parse_authority(f"{_bracketed(host)}:{port}", scheme)
            if given is not None:
                names.add(given.host)
        return cls(scheme, port, frozenset(names))

    @classmethod
    def public(cls, url: str) -> TrustedOrigins:
        """From a checked ``--public-url``: its scheme, host and port."""
        parts = urlsplit(url)
        origin = parse_origin(f"{parts.scheme}://{parts.netloc}")
        if origin is None:
            raise ValueError(f"not an origin: {url}")
        return cls(origin.scheme, origin.authority.port, frozenset({origin.authority.host}))

    @classmethod
    def served_over_tls(cls, port: int) -> TrustedOrigins:
        return cls("https", port, frozenset())

    def host_allowed(self, host_header: str | None) -> bool:
        if host_header is None:
            return False
        authority = parse_authority(host_header, self.scheme)
        return authority is not None and self._allowed(authority)

    def origin_allowed(self, origin_header: str | None, host_header: str | None) -> bool:
        """The page that opened this request is the app's own: same scheme, host and port."""
        if origin_header is None or host_header is None:
            return False
        origin = parse_origin(origin_header)
        host = parse_authority(host_header, self.scheme)
        return (
            origin is not None
            and host is not None
            and origin.scheme == self.scheme
            and origin.authority == host
            and self._allowed(host)
        )

    def _allowed(self, authority: Authority) -> bool:
        if authority.port != self.port:
            return False
        return not self.hosts or authority.host in self.hosts

    def describe(self) -> Iterable[str]:
        """The allowed origins, for messages and the documentation's examples."""
        if not self.hosts:
            return (f"{self.scheme}://<the certificate's name>:{self.port}",)
        return sorted(str(Origin(self.scheme, Authority(h, self.port))) for h in self.hosts)


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host
