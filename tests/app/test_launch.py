"""Start-up checks that fail before any UI, in one sentence: the port and the backend."""

from __future__ import annotations

import socket
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.backend import StartupError, open_backend
from app.settings import EmbeddedServerSettings
from app.web_port import choose_port, port_is_free


def utc_now() -> datetime:
    return datetime.now(UTC)


def test_a_taken_port_is_refused_with_the_way_out() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert not port_is_free(port)
        with pytest.raises(StartupError, match=rf"Port {port} is already in use.*--port"):
            choose_port(port)


def test_without_a_requested_port_some_free_port_is_chosen() -> None:
    port = choose_port(None)
    assert 0 < port <= 65535
    assert port_is_free(port)


async def test_data_folder_that_cannot_be_created_is_one_sentence(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    settings = EmbeddedServerSettings(data_dir=blocker / "data", demo=False)
    with pytest.raises(StartupError, match=r"Cannot create the data folder.*--data-dir"):
        async with open_backend(settings, clock=utc_now):
            pass


async def test_embedded_backend_serves_the_demo_data_in_process(tmp_path: Path) -> None:
    settings = EmbeddedServerSettings(data_dir=tmp_path / "data", demo=True)
    async with open_backend(settings, clock=utc_now) as backend:
        page = await backend.api.list_schedules(states=("ACTIVE", "PAUSED"), limit=5)
        assert len(page.items) == 5
        assert backend.identity.startswith("embedded:")
    assert settings.database_path.is_file()


async def test_no_demo_starts_an_empty_database(tmp_path: Path) -> None:
    settings = EmbeddedServerSettings(data_dir=tmp_path, demo=False)
    async with open_backend(settings, clock=utc_now) as backend:
        page = await backend.api.list_schedules()
        assert page.items == []
