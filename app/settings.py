"""What one run of ``schedule-browser`` was asked to do, validated.

``Settings`` is built once from the command line and the environment (``app.cli``)
before anything starts, so every refusal reaches the user as one sentence and
exit status 2. It is a plain value: the composition root decides what to start
from it, tests compare it. ``WebAddress`` is where the web view listens: on
loopback it serves the person at this machine; anywhere else, or behind a reverse
proxy, it serves other people (``serves_others``), each signing in with their own
token, under the rules of ``app.web.address``.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from connection_limits import ConnectionLimits
from loopback import LOOPBACK, is_loopback_host

if TYPE_CHECKING:  # the server stack is imported when the embedded server opens, not here
    from server.embedded import AttachedRuntime


@dataclass(frozen=True, slots=True)
class EmbeddedServerSettings:
    """Start the schedule server in-process over SQLite in ``data_dir``."""

    data_dir: Path
    demo: bool
    """Load demo data when the database is created (first run only)."""
    runtime: AttachedRuntime | None = None
    """``--executor``: the agent runtime the embedded server hands runs to; None answers
    each run that no runtime is attached."""

    @property
    def database_path(self) -> Path:
        return self.data_dir / "schedules.sqlite3"


@dataclass(frozen=True, slots=True)
class RemoteServerSettings:
    """Reach a schedule server speaking API.md at ``base_url``."""

    base_url: str
    """Validated: https, or http to a loopback host; no trailing slash."""
    token: str | None
    """The bearer token, or None when the server needs none. Never printed."""
    device_dir: Path | None = field(default=None, compare=False)
    """The user data folder, where the app notes which servers it has read
    (``app.servers_read``); None keeps no note (a server away at start stops)."""

    def __repr__(self) -> str:
        # The token must not reach logs or tracebacks through a repr.
        shown = "set" if self.token else "none"
        return f"RemoteServerSettings(base_url={self.base_url!r}, token=<{shown}>)"


ServerSettings = EmbeddedServerSettings | RemoteServerSettings


@dataclass(frozen=True, slots=True)
class TlsFiles:
    """A PEM certificate (chain) and its private key, checked to load together."""

    certfile: Path
    keyfile: Path


@dataclass(frozen=True, slots=True)
class WebAddress:
    """Where the web view listens, and how tokens reach it safely."""

    host: str = LOOPBACK
    tls: TlsFiles | None = None
    """Serve HTTPS with these files; None serves plain HTTP."""
    behind_proxy: bool = False
    """TLS ends at a reverse proxy in front of the app, which serves others through it."""
    public_url: str | None = None
    """``--public-url``: the origin people open (required behind a proxy); checked, no path."""
    proxy_peers: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()
    """``--forwarded-allow-ips``: the only peers a proxied, non-loopback listener accepts."""

    @property
    def serves_others(self) -> bool:
        """Other people reach the app: each browser session signs in with its own token."""
        return self.behind_proxy or not is_loopback_host(self.host)

    @property
    def scheme(self) -> str:
        return "https" if self.tls is not None else "http"

    @property
    def reached_over_https(self) -> bool:
        """Browsers reach the app over HTTPS: served here, or at an https public URL."""
        return self.tls is not None or (self.public_url or "").startswith("https://")


DEFAULT_WAITING_SOCKETS_PER_ADDRESS = 16
DEFAULT_SIGN_IN_SECONDS = 120.0


@dataclass(frozen=True, slots=True)
class WebLimits:
    """What one browser may hold of the web view (``app.web.server``)."""

    connections: ConnectionLimits = field(default_factory=ConnectionLimits)
    """Header and idle timeouts, connections, header and frame sizes, as the server's."""
    waiting_per_address: int = DEFAULT_WAITING_SOCKETS_PER_ADDRESS
    """``--waiting-sockets``: sockets one browser address may hold open with nobody
    signed in on them (serving others only; ``app.web.sign_in_door``)."""
    sign_in_seconds: float = DEFAULT_SIGN_IN_SECONDS
    """``--sign-in-timeout``: a socket nobody signs in on within this is closed."""


@dataclass(frozen=True, slots=True)
class Settings:
    server: ServerSettings
    web: bool
    """``--web``: serve the app to browsers instead of opening a window."""
    desktop: bool
    """``--desktop``: a desktop window or a refusal with the reason, never the browser."""
    port: int | None
    """The port the web view listens on; None picks one."""
    web_address: WebAddress = field(default_factory=WebAddress)
    """``--host``, ``--certfile``/``--keyfile``, ``--behind-proxy``."""
    remember_days: int = 30
    """``--remember-days``: how long a browser keeps a remembered sign-in (hosted only)."""
    os_notifications: bool = True
    """The desktop window also sends an OS notification when something newly needs
    attention; ``--no-os-notifications`` turns it off (the in-app notice stays)."""
    web_limits: WebLimits = field(default_factory=WebLimits)
    """What one browser may hold of the web view (its connection limits)."""
    locale: str | None = None
    """``--locale`` ("en_US"): the formats instead of the system's or the browser's."""

    @property
    def signs_in(self) -> bool:
        """Each browser session signs in with its own token; the process holds none."""
        return self.web_address.serves_others


class UsageError(ValueError):
    """Arguments that cannot work together; the message is shown as is (exit 2)."""
