"""Databases for the tests: a temporary SQLite file, or a clean PostgreSQL database.

The PostgreSQL cluster (``devtools/postgres_cluster.py``) starts once per session,
and only when a test asks for it. Tests share one database migrated to head at
the start; before each test every row of every declared table is deleted (and
the schema brought back to head if a test stepped it back), which costs
milliseconds where ``CREATE DATABASE`` costs a third of a second. Tests
that need no tables at all (the migrations) get a new empty database instead.
``database_url`` runs a test once per backend (and so does the server tests'
``store`` in a module marked ``each_backend``); a backend that cannot start
fails the test, never skips it.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from sqlalchemy import Engine, create_engine
from sqlalchemy.pool import NullPool

from devtools.postgres_cluster import PostgresCluster
from server.storage.engine import open_engine
from server.storage.migrate import upgrade
from server.storage.schema_head import is_at_head
from server.storage.tables import metadata

BACKENDS = ["sqlite", "postgresql"]
SHARED_DATABASE = "schedule_browser_tests"
BROWSER_TESTS = "tests/ui/"
BROWSER_LANES = 2


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under ``--dist loadgroup`` (``scripts/test``), the browser tests run in two lanes.

    A lane is one worker with its own served app and Chromium; a file stays in
    one lane (a stable hash of its path), so its module fixtures start once.
    The lanes are the largest units, so they start first, and the workers left
    over run the rest of the suite meanwhile. (Grouped by path: the
    ``xdist_group`` mark is lost under pytest 9, whose node ids are read-only.)
    """
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class BrowserLanes(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            if not nodeid.startswith(BROWSER_TESTS):
                return nodeid
            path = nodeid.partition("::")[0]
            return f"{BROWSER_TESTS} lane {zlib.crc32(path.encode()) % BROWSER_LANES}"

    return BrowserLanes(config, log)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    cluster = PostgresCluster.start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def postgres_shared_database(postgres_cluster: PostgresCluster) -> Iterator[Engine]:
    """The session's database at the head migration, on an engine that holds no pool."""
    url = postgres_cluster.create_database(SHARED_DATABASE)
    migrating = open_engine(url)
    try:
        upgrade(migrating)
    finally:
        migrating.dispose()
    engine = create_engine(url, poolclass=NullPool)
    yield engine
    engine.dispose()


@pytest.fixture
def postgres_url(postgres_shared_database: Engine) -> str:
    """The session's PostgreSQL database at head, every row deleted first."""
    with postgres_shared_database.connect() as connection:
        at_head = is_at_head(connection)
    if not at_head:  # an earlier test stepped the schema back
        upgrade(postgres_shared_database)
    with postgres_shared_database.begin() as connection:
        for table in reversed(metadata.sorted_tables):
            connection.execute(table.delete())
    return postgres_shared_database.url.render_as_string(hide_password=False)


@pytest.fixture
def empty_postgres_url(postgres_cluster: PostgresCluster) -> Iterator[str]:
    """A new PostgreSQL database with no tables at all, removed after the test."""
    name = f"empty_{uuid4().hex}"
    yield postgres_cluster.create_database(name)
    postgres_cluster.drop_database(name)


def clean_database_url(request: pytest.FixtureRequest, backend: str, sqlite_file: Path) -> str:
    """A clean database on ``backend``: a new SQLite file, or the session's PostgreSQL at head."""
    if backend == "sqlite":
        return f"sqlite:///{sqlite_file}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A clean database at head, for each backend in turn."""
    return clean_database_url(request, request.param, tmp_path / "test.db")


@pytest.fixture(params=BACKENDS)
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database with no tables, for each backend in turn (the migration tests)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'empty.db'}"
    url: str = request.getfixturevalue("empty_postgres_url")
    return url
