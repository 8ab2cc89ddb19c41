"""Ways to take the storage away from a running server, and give it back.

``tiny_filesystem`` mounts a tmpfs of a few megabytes (the tests and
``bench/faults.py`` run as root, as CI does; elsewhere the mount fails loudly,
never skips) and unmounts it on the way out: filling it is a full disk, and
remounting it larger repairs it.
``postgres_read_only`` makes a PostgreSQL database refuse every write
(``default_transaction_read_only`` plus ending the server's sessions, so its
next connection is a new, read-only one) and always makes it writable again.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url

from devtools.postgres_cluster import PostgresCluster


def _mount(*arguments: str) -> None:
    result = subprocess.run(["mount", *arguments], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise AssertionError(
            f"mount {' '.join(arguments)} failed (the storage fault tests need root): "
            f"{result.stderr.strip()}"
        )


@dataclass(frozen=True, slots=True)
class TinyFilesystem:
    folder: Path

    def resize(self, megabytes: int) -> None:
        _mount("-o", f"remount,size={megabytes}m", str(self.folder))


@contextmanager
def tiny_filesystem(folder: Path, megabytes: int) -> Iterator[TinyFilesystem]:
    folder.mkdir(parents=True, exist_ok=True)
    _mount("-t", "tmpfs", "-o", f"size={megabytes}m,mode=0755", "tmpfs", str(folder))
    try:
        yield TinyFilesystem(folder)
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


@dataclass(frozen=True, slots=True)
class ReadOnlySwitch:
    cluster: PostgresCluster
    database: str
    application: str

    def _run(self, *statements: str) -> None:
        engine = self.cluster.admin()
        try:
            with engine.connect() as connection:
                for statement in statements:
                    connection.execute(text(statement))
        finally:
            engine.dispose()

    def read_only(self) -> None:
        self._run(
            f'ALTER DATABASE "{self.database}" SET default_transaction_read_only = on',
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            f" WHERE application_name = '{self.application}'",
        )

    def writable(self) -> None:
        self._run(f'ALTER DATABASE "{self.database}" RESET default_transaction_read_only')


@contextmanager
def postgres_read_only(
    cluster: PostgresCluster, database_url: str, application: str
) -> Iterator[ReadOnlySwitch]:
    database = make_url(database_url).database
    assert database is not None
    switch = ReadOnlySwitch(cluster, database, application)
    try:
        yield switch
    finally:
        switch.writable()
