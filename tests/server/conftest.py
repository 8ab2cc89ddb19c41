"""The server tests' one store and one clock: a migrated SQLite file per test (or a
template to copy), a settable clock, and a scene over both.

A module marked ``each_backend`` (``pytestmark = pytest.mark.each_backend``)
runs each of its tests that uses ``store`` (directly, or through ``scene`` or
an app over it) once on SQLite and once on the test session's PostgreSQL,
with the ids ``[sqlite]`` and ``[postgresql]``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from server.storage.sql.store import SqlStore
from tests.clock import Clock
from tests.conftest import BACKENDS, clean_database_url
from tests.server.scene import Scene


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "store" in metafunc.fixturenames and metafunc.definition.get_closest_marker("each_backend"):
        metafunc.parametrize("store", BACKENDS, indirect=True)


@pytest.fixture(scope="session")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated, empty database that property tests copy per example."""
    path = tmp_path_factory.mktemp("template") / "template.db"
    SqlStore.open(f"sqlite:///{path}").close()
    return path


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SqlStore]:
    """A migrated, empty store: SQLite, or each backend in turn under ``each_backend``."""
    backend = getattr(request, "param", "sqlite")
    opened = SqlStore.open(clean_database_url(request, backend, tmp_path / "scheduler.db"))
    yield opened
    opened.close()


@pytest.fixture
def scene(store: SqlStore, clock: Clock) -> Scene:
    return Scene(store, clock)
