"""A stand-alone ``schedule-server`` the app reaches over HTTP, stopped and started at will.

The UI's failure states need a server that goes away and comes back: the
server is started with a principals file (one principal holding every scope,
with a token the test chose), because without one every start prints a new
token and the app, holding the old one, would be refused after a restart.
The same port and SQLite file are used on every start, so the app's address
and the demo data stay the same across an outage. A team (several
``Member``s, the first one given the demo data) serves the hosted web view's
tests; ``set_enabled`` rewrites the file, and a restart applies it. A stop
does not drain (``--drain-seconds 0``).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from devtools.browser.served_app import app_command, console_command, running_process
from devtools.ports import LOOPBACK, free_port
from server.identity import ALL_SCOPES

LISTENING_LINE = "schedule-server listening on"
"""Printed once the demo data is loaded, so the server can answer with it."""
TOKEN_ENV = "SCHEDULE_BROWSER_TOKEN"
DATA_HOME = "data-home"
"""``remote_app``'s ``XDG_DATA_HOME``, under its log folder: its user data folder (where
it keeps its offline copy) is the test's, never the tester's own."""


def server_command() -> list[str]:
    return console_command("schedule-server", "server.cli")


@dataclass(frozen=True, slots=True)
class Member:
    """One principal of the principals file, holding every scope, with its token."""

    principal_id: str
    display_name: str
    token: str
    enabled: bool = True
    tenant: str = "ui"


def write_members(path: Path, members: Sequence[Member]) -> None:
    """One ``[[principal]]`` per member; only each token's SHA-256 is written."""
    scopes = ", ".join(f'"{scope}"' for scope in sorted(ALL_SCOPES))
    path.write_text(
        "\n".join(
            "[[principal]]\n"
            f'id = "{member.principal_id}"\n'
            f'tenant = "{member.tenant}"\n'
            f'display_name = "{member.display_name}"\n'
            f'token_sha256 = "{hashlib.sha256(member.token.encode()).hexdigest()}"\n'
            f"scopes = [{scopes}]\n"
            f"enabled = {str(member.enabled).lower()}\n"
            for member in members
        ),
        encoding="utf-8",
    )


class ScheduleServer:
    """``schedule-server serve --demo`` on one port and one database, restartable."""

    def __init__(
        self, work_dir: Path, members: Sequence[Member] = (), options: Sequence[str] = ()
    ) -> None:
        self.work_dir = work_dir
        self.options = tuple(options)
        """More ``serve`` options, given on every start."""
        self.port = free_port()
        self.members = list(members) or [
            Member("ui-tester", "UI tester", secrets.token_urlsafe(32))
        ]
        self.token = self.members[0].token
        """The first member's token; the demo data is theirs."""
        self.principals = work_dir / "principals.toml"
        self.database = work_dir / "server.sqlite3"
        write_members(self.principals, self.members)
        self._running: ExitStack | None = None
        self._starts = 0

    def set_enabled(self, principal_id: str, enabled: bool) -> None:
        """Rewrites the principals file; the server reads it on its next start."""
        self.members = [
            replace(member, enabled=enabled) if member.principal_id == principal_id else member
            for member in self.members
        ]
        write_members(self.principals, self.members)

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    @property
    def running(self) -> bool:
        return self._running is not None

    def start(self) -> None:
        if self._running is not None:
            return
        self._starts += 1
        argv = [
            *server_command(),
            "serve",
            "--database",
            f"sqlite:///{self.database}",
            "--host",
            LOOPBACK,
            "--port",
            str(self.port),
            "--principals",
            str(self.principals),
            "--demo",
            # Nothing here watches /readyz: a stop (an outage, a module's end) is at
            # once, not after the 5 s drain (tests/server/runtime/test_cli_shutdown.py).
            "--drain-seconds",
            "0",
            *self.options,
        ]
        stack = ExitStack()
        stack.enter_context(
            running_process(
                argv,
                self.work_dir / f"server-logs-{self._starts}",
                port=self.port,
                ready_line=LISTENING_LINE,
            )
        )
        self._running = stack

    def stop(self) -> None:
        """SIGTERM and wait: once this returns, nothing listens on the port."""
        running, self._running = self._running, None
        if running is not None:
            running.close()


@contextmanager
def schedule_server(
    work_dir: Path, members: Sequence[Member] = (), options: Sequence[str] = ()
) -> Iterator[ScheduleServer]:
    """A started server (with more ``serve`` ``options``), stopped on the way out however
    the test ended."""
    work_dir.mkdir(parents=True, exist_ok=True)
    server = ScheduleServer(work_dir, members, options)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@contextmanager
def remote_app(server: ScheduleServer, log_dir: Path) -> Iterator[str]:
    """``schedule-browser --web --server URL`` with the token in its environment; its URL.

    No ``--data-dir``: the app refuses it with ``--server`` (it names the
    embedded server's folder); its user data folder, where it keeps its device
    state, is under ``log_dir / DATA_HOME``.
    """
    port = free_port()
    argv = [*app_command(), "--web", "--port", str(port), "--server", server.url]
    environment = {TOKEN_ENV: server.token, "XDG_DATA_HOME": str(log_dir / DATA_HOME)}
    with running_process(argv, log_dir, port=port, environment=environment):
        yield f"http://{LOOPBACK}:{port}/"
