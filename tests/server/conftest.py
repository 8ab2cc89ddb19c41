"""The server tests' one store and one clock: a migrated SQLite file per test (or a
template to copy), a settable clock, and a scene over both."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from server.storage.sql.store import SqlStore
from tests.clock import Clock
from tests.server.scene import Scene


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
def store(tmp_path: Path) -> Iterator[SqlStore]:
    opened = SqlStore.open(f"sqlite:///{tmp_path / 'scheduler.db'}")
    yield opened
    opened.close()


@pytest.fixture
def scene(store: SqlStore, clock: Clock) -> Scene:
    return Scene(store, clock)
