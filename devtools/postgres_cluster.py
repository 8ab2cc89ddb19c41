"""A throwaway PostgreSQL cluster for tests and benchmarks: its own folder, a free loopback port.

Debian keeps ``initdb`` and ``pg_ctl`` in ``/usr/lib/postgresql/N/bin``, off the
PATH. ``initdb`` refuses to run as root, so on a root machine the cluster runs as
the ``postgres`` system user that Debian's package creates (``runuser``), in a
temporary folder that user owns; elsewhere it runs as the current user. The
superuser has a random password and TCP connections must give it (SCRAM), so
every URL the tests use carries a password, as a team's would. Durability is off
(``fsync``, ``synchronous_commit``, ``full_page_writes``): the data lives only as
long as the test session. The default collation is linguistic (ICU ``en-US``), as
a team's database usually is, so the schema's own byte-order collations are tested.

Every failure raises ``ClusterError`` naming the step that failed, with the end
of the server's log, so a machine without a working PostgreSQL fails the tests
loudly instead of skipping them.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from glob import glob
from pathlib import Path

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import URL
from sqlalchemy.pool import NullPool

from devtools.ports import free_port

SYSTEM_USER = "postgres"
SUPERUSER = "postgres"
START_TIMEOUT_SECONDS = 60
ICU_LOCALE = "en-US"  # linguistic, as a team's database usually is: "alpha" < "Beta"
SETTINGS = {
    "listen_addresses": "127.0.0.1",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "200",
    # Sessions see instants in a zone that is not UTC, as on many servers; the
    # storage layer must still hand back UTC.
    "timezone": "America/New_York",
}


class ClusterError(RuntimeError):
    """The test cluster could not be created, started or used; the message says which step."""


def _program(name: str) -> str:
    """``name`` from the PATH, else from the newest Debian PostgreSQL under /usr/lib."""
    found = shutil.which(name)
    if found is not None:
        return found
    candidates = sorted(
        glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda path: int(Path(path).parts[-3]) if Path(path).parts[-3].isdigit() else 0,
    )
    if not candidates:
        raise ClusterError(
            f"PostgreSQL's {name} was not found on the PATH or in /usr/lib/postgresql/*/bin;"
            " install Debian's postgresql (scripts/setup --test does)."
        )
    return candidates[-1]


@dataclass(frozen=True, slots=True)
class PostgresCluster:
    """A running cluster; ``url`` names one of its databases, ``stop`` removes it all."""

    folder: Path
    port: int
    password: str
    run_as: tuple[str, ...]
    pg_ctl: str

    @classmethod
    def start(cls) -> PostgresCluster:
        initdb, pg_ctl = _program("initdb"), _program("pg_ctl")
        run_as: tuple[str, ...] = ()
        folder = Path(tempfile.mkdtemp(prefix="schedule-browser-pg-"))
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam(SYSTEM_USER)
            except KeyError as err:
                shutil.rmtree(folder)
                raise ClusterError(
                    f"running as root, the cluster must run as the {SYSTEM_USER!r} system user,"
                    " which does not exist; install Debian's postgresql."
                ) from err
            os.chown(folder, owner.pw_uid, owner.pw_gid)
            run_as = ("runuser", "-u", SYSTEM_USER, "--")
        password = secrets.token_urlsafe(18)
        cluster = cls(folder, free_port(), password, run_as, pg_ctl)
        try:
            cluster._initdb(initdb)
            cluster._pg_ctl("start", "-w", "-t", str(START_TIMEOUT_SECONDS), "-l", cluster.log)
        except BaseException:
            cluster.stop()
            raise
        return cluster

    @property
    def data(self) -> str:
        return str(self.folder / "data")

    @property
    def log(self) -> str:
        return str(self.folder / "server.log")

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of ``database``, password included."""
        return URL.create(
            "postgresql+psycopg",
            username=SUPERUSER,
            password=self.password,
            host="127.0.0.1",
            port=self.port,
            database=database,
        ).render_as_string(hide_password=False)

    def admin(self) -> Engine:
        """An autocommit engine on the maintenance database (CREATE and DROP DATABASE)."""
        return create_engine(self.url(), isolation_level="AUTOCOMMIT", poolclass=NullPool)

    def create_database(self, name: str) -> str:
        """A new, empty database; returns its URL."""
        engine = self.admin()
        try:
            with engine.connect() as connection:
                connection.execute(text(f'CREATE DATABASE "{name}"'))
        finally:
            engine.dispose()
        return self.url(name)

    def drop_database(self, name: str) -> None:
        """Remove ``name``, ending any session still connected to it."""
        engine = self.admin()
        try:
            with engine.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        finally:
            engine.dispose()

    def pause(self) -> None:
        """Stop the server (fast: sessions are ended), keeping its data for ``resume``."""
        self._pg_ctl("stop", "-m", "fast", "-w")

    def resume(self) -> None:
        """Start the server ``pause`` stopped, on the same port and data."""
        self._pg_ctl("start", "-w", "-t", str(START_TIMEOUT_SECONDS), "-l", self.log)

    def stop(self) -> None:
        """Stop the server at once and remove its folder."""
        if (self.folder / "data" / "postmaster.pid").exists():
            self._pg_ctl("stop", "-m", "immediate", "-w", check=False)
        shutil.rmtree(self.folder, ignore_errors=True)

    def _initdb(self, initdb: str) -> None:
        password_file = self.folder / "superuser-password"
        password_file.write_text(self.password + "\n", encoding="utf-8")
        if self.run_as:
            stat = self.folder.stat()
            os.chown(password_file, stat.st_uid, stat.st_gid)
        self._run(
            "initdb",
            initdb,
            "--pgdata",
            self.data,
            "--username",
            SUPERUSER,
            f"--pwfile={password_file}",
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            "--encoding=UTF8",
            "--locale=C",
            "--locale-provider=icu",
            f"--icu-locale={ICU_LOCALE}",
            "--no-sync",
        )
        password_file.unlink()
        settings = {**SETTINGS, "port": str(self.port), "unix_socket_directories": str(self.folder)}
        with open(Path(self.data) / "postgresql.conf", "a", encoding="utf-8") as conf:
            for name, value in settings.items():
                conf.write(f"{name} = '{value}'\n")

    def _pg_ctl(self, action: str, *options: str, check: bool = True) -> None:
        self._run(f"pg_ctl {action}", self.pg_ctl, action, "-D", self.data, *options, check=check)

    def _run(self, step: str, *command: str, check: bool = True) -> None:
        try:
            result = subprocess.run(
                [*self.run_as, *command],
                capture_output=True,
                text=True,
                timeout=START_TIMEOUT_SECONDS * 2,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as err:
            raise ClusterError(f"the test PostgreSQL's {step} could not run: {err}") from err
        if check and result.returncode != 0:
            raise ClusterError(
                f"the test PostgreSQL's {step} failed (exit {result.returncode}):\n"
                f"{result.stderr.strip() or result.stdout.strip()}\n{self._log_tail()}"
            )

    def _log_tail(self, lines: int = 20) -> str:
        try:
            tail = Path(self.log).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return "(no server log)"
        return "server log:\n" + "\n".join(tail[-lines:])
