"""Start-up checks that fail before any UI, in one sentence: the port and the backend."""

from __future__ import annotations

import asyncio
import socket
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import UTC, datetime
from gettext import NullTranslations
from pathlib import Path

import httpx
import pytest
import respx

from app.backend import open_backend
from app.backend.remote import open_sign_in_backend
from app.launch import run_app
from app.settings import EmbeddedServerSettings, RemoteServerSettings, Settings
from app.startup_error import StartupError
from app.web.port import choose_port, port_is_free
from devtools.api_bodies import principal_json
from transport.errors import Unauthenticated

TEAM_SERVER = "https://schedules.example.com"
ENGLISH = NullTranslations()


def utc_now() -> datetime:
    return datetime.now(UTC)


def test_a_taken_port_is_refused_with_the_way_out() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert not port_is_free(port, words=ENGLISH)
        with pytest.raises(StartupError, match=rf"Port {port} is already in use.*--port"):
            choose_port(port, words=ENGLISH)


def test_without_a_requested_port_some_free_port_is_chosen() -> None:
    port = choose_port(None, words=ENGLISH)
    assert 0 < port <= 65535
    assert port_is_free(port, words=ENGLISH)


async def test_data_folder_that_cannot_be_created_is_one_sentence(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    settings = EmbeddedServerSettings(data_dir=blocker / "data", demo=False)
    with pytest.raises(StartupError, match=r"Cannot create the data folder.*--data-dir"):
        async with open_backend(settings, clock=utc_now, words=ENGLISH):
            pass


async def test_a_database_that_cannot_be_opened_is_one_sentence_naming_the_file(
    tmp_path: Path,
) -> None:
    settings = EmbeddedServerSettings(data_dir=tmp_path, demo=False)
    settings.database_path.write_bytes(b"not a database, " * 64)
    with pytest.raises(
        StartupError, match=r"Cannot open the schedule database .*--data-dir"
    ) as err:
        async with open_backend(settings, clock=utc_now, words=ENGLISH):
            pass
    assert str(settings.database_path) in str(err.value)
    assert "\n" not in str(err.value), "one line: no statement, no link to a manual"
    assert settings.database_path.read_bytes() == b"not a database, " * 64, "nothing is lost"


async def test_embedded_backend_serves_the_demo_data_in_process(tmp_path: Path) -> None:
    settings = EmbeddedServerSettings(data_dir=tmp_path / "data", demo=True)
    async with open_backend(settings, clock=utc_now, words=ENGLISH) as backend:
        page = await backend.api.list_schedules(states=("ACTIVE", "PAUSED"), limit=5)
        assert len(page.items) == 5
        assert backend.identity.startswith("embedded:")
    assert settings.database_path.is_file()


async def test_no_demo_starts_an_empty_database(tmp_path: Path) -> None:
    settings = EmbeddedServerSettings(data_dir=tmp_path, demo=False)
    async with open_backend(settings, clock=utc_now, words=ENGLISH) as backend:
        page = await backend.api.list_schedules()
        assert page.items == []


def test_a_host_that_is_not_an_address_of_this_machine_is_one_sentence() -> None:
    with pytest.raises(StartupError, match=r"Cannot listen on --host no-such-host.invalid"):
        choose_port(None, "no-such-host.invalid", words=ENGLISH)


def test_the_port_is_checked_on_the_address_the_web_view_will_listen_on() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(StartupError, match=rf"Port {port} is already in use on localhost"):
            choose_port(port, "localhost", words=ENGLISH)


async def test_serving_others_starts_when_the_server_asks_for_a_token_and_holds_none() -> None:
    settings = RemoteServerSettings(base_url=TEAM_SERVER, token=None)
    with respx.mock(base_url=TEAM_SERVER) as server:
        probe = server.get("/v1/principal").respond(401, json={"error": {"code": "auth"}})
        async with open_sign_in_backend(settings, words=ENGLISH) as backend:
            assert "Authorization" not in probe.calls.last.request.headers
            refused: list[str] = []
            async with backend.connect("alice-token", lambda: refused.append("401")) as api:
                with pytest.raises(Unauthenticated):
                    await api.get_principal()
            sent = probe.calls.last.request.headers["Authorization"]
    assert sent == "Bearer alice-token"
    assert refused == ["401"]
    assert backend.identity == f"remote:{TEAM_SERVER}"


async def test_serving_others_refuses_to_start_when_the_server_cannot_be_reached() -> None:
    settings = RemoteServerSettings(base_url=TEAM_SERVER, token=None)
    with respx.mock(base_url=TEAM_SERVER) as server:
        server.get("/v1/principal").mock(side_effect=httpx.ConnectError("refused"))
        with pytest.raises(StartupError, match=r"Cannot reach the schedule server"):
            async with open_sign_in_backend(settings, words=ENGLISH):
                pass


async def test_a_server_never_read_on_this_device_still_stops_with_the_sentence(
    tmp_path: Path,
) -> None:
    settings = RemoteServerSettings(base_url=TEAM_SERVER, token="alice", device_dir=tmp_path)
    with respx.mock(base_url=TEAM_SERVER) as server:
        server.get("/v1/principal").mock(side_effect=httpx.ConnectError("refused"))
        with pytest.raises(StartupError, match=r"Cannot reach the schedule server"):
            async with open_backend(settings, clock=utc_now, words=ENGLISH):
                pass


async def test_a_server_read_before_opens_offline_and_another_token_still_stops(
    tmp_path: Path,
) -> None:
    settings = RemoteServerSettings(base_url=TEAM_SERVER, token="alice", device_dir=tmp_path)
    with respx.mock(base_url=TEAM_SERVER) as server:
        route = server.get("/v1/principal")
        route.respond(200, json=principal_json())
        async with open_backend(settings, clock=utc_now, words=ENGLISH) as backend:
            assert not backend.offline_at_start
            online_namespace = backend.views_namespace
        route.mock(side_effect=httpx.ConnectError("refused"))

        async with open_backend(settings, clock=utc_now, words=ENGLISH) as backend:
            assert backend.offline_at_start
            assert backend.views_namespace == online_namespace is not None

        other = RemoteServerSettings(base_url=TEAM_SERVER, token="bob", device_dir=tmp_path)
        with pytest.raises(StartupError, match=r"Cannot reach the schedule server"):
            async with open_backend(other, clock=utc_now, words=ENGLISH):
                pass
    record = (tmp_path / "servers-read.json").read_text(encoding="utf-8")
    assert "alice" not in record and TEAM_SERVER not in record


async def test_a_web_start_whose_backend_cannot_open_ends_with_its_sentence_and_frees_the_port(
    tmp_path: Path,
) -> None:
    """The web server starts before the backend opens; a failed opening still ends the start."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    port = choose_port(None, words=ENGLISH)
    settings = Settings(
        server=EmbeddedServerSettings(data_dir=blocker / "data", demo=False),
        web=True,
        desktop=False,
        port=port,
    )
    with pytest.raises(StartupError, match=r"Cannot create the data folder.*--data-dir"):
        await run_app(settings)
    assert port_is_free(port, words=ENGLISH), "the web server was stopped"


def test_a_web_start_serves_with_no_client_or_server_stack_imported_yet() -> None:
    """What a web start imports before it listens: no more than serving needs.

    The transport, the view models, the views and the server stack load in a
    worker thread while the browser loads the page (``app.launch``).
    """
    # The person's language is read first, from the view models' one light module.
    probe = (
        "import sys, app.cli, app.launch; "
        "loaded = set(sys.modules) - {'viewmodels', 'viewmodels.language'}; "
        "print(' '.join(sorted({m.split('.')[0] for m in loaded} & set(sys.argv[1:]))))"
    )
    stacks = ["httpx", "transport", "viewmodels", "views", "server", "sqlalchemy", "alembic"]
    shown = subprocess.run(
        [sys.executable, "-c", probe, *stacks], capture_output=True, text=True, check=True
    )
    assert shown.stdout.split() == []


async def test_the_embedded_server_migrates_and_loads_the_demo_data_off_the_event_loop(
    tmp_path: Path,
) -> None:
    """The first open (imports, migration, demo data) leaves the loop free: the web
    view goes on serving its page meanwhile."""
    settings = EmbeddedServerSettings(data_dir=tmp_path / "data", demo=True)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticking = asyncio.create_task(tick())
    try:
        async with open_backend(settings, clock=utc_now, words=ENGLISH):
            opened_after = ticks
    finally:
        ticking.cancel()
    with closing(sqlite3.connect(settings.database_path)) as database:
        (schedules,) = database.execute("SELECT count(*) FROM schedules").fetchone()
        (revision,) = database.execute("SELECT version_num FROM alembic_version").fetchone()
    assert schedules > 0 and revision
    assert opened_after >= 5, "the loop went on while the database was migrated"
