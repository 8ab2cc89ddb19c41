"""The embedded backend runs the scheduler: a due schedule fires and the app is told."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from gettext import NullTranslations
from pathlib import Path

from app.backend import open_backend
from app.cli import parse_settings
from app.settings import EmbeddedServerSettings
from server.control.service import ScheduleService
from server.embedded import open_embedded
from server.identity import local_principal
from tests.agent_runtime import SECRET, agent_runtime, completes
from tests.server.api.conftest import NOW, definition

ENGLISH = NullTranslations()
WITHIN = 20  # seconds: a bound for a loaded machine, never a sleep


async def test_a_schedule_due_while_the_app_was_closed_fires_on_start_and_the_app_hears_of_it(
    tmp_path: Path,
) -> None:
    settings = EmbeddedServerSettings(data_dir=tmp_path, demo=False)
    closed = open_embedded(settings.database_path, demo=False, clock=lambda: NOW)
    created = ScheduleService(closed.store, lambda: NOW, identity=closed.identity).create(
        local_principal(), definition(title="Standup notes"), "key"
    )
    closed.close()
    due_at = created.schedule.next_fire_at
    assert due_at is not None
    later = due_at + timedelta(minutes=10)

    changed = asyncio.Event()
    async with open_backend(settings, clock=lambda: later, words=ENGLISH) as backend:
        assert backend.changes is not None
        unsubscribe = backend.changes.subscribe(changed.set)
        async with asyncio.timeout(WITHIN):
            while True:
                sessions = (await backend.api.list_sessions()).items
                if sessions:
                    messages = await backend.api.list_session_messages(sessions[0].session_id)
                    if messages.items:
                        break
                await changed.wait()
                changed.clear()
        unsubscribe()
        (session,) = sessions
        assert session.title == "Standup notes"
        assert session.metadata["schedule_id"] == str(created.schedule.schedule_id)
        (answer,) = messages.items
        assert answer.role == "assistant"
        assert "No agent runtime is attached" in answer.text
        detail = await backend.api.get_schedule(created.schedule.schedule_id)
        assert detail.next_fire_at == due_at + timedelta(days=1)


async def test_with_executor_flags_the_embedded_backend_hands_runs_to_the_agent_runtime(
    tmp_path: Path,
) -> None:
    secret_file = tmp_path / "executor-secret"
    secret_file.write_bytes(SECRET + b"\n")
    data = tmp_path / "data"
    closed = open_embedded(data / "schedules.sqlite3", demo=False, clock=lambda: NOW)
    created = ScheduleService(closed.store, lambda: NOW, identity=closed.identity).create(
        local_principal(), definition(title="Standup notes"), "key"
    )
    closed.close()
    due_at = created.schedule.next_fire_at
    assert due_at is not None
    with agent_runtime(completes("Notes are in the team folder.")) as runtime:
        arguments = ["--data-dir", str(data), "--no-demo", "--executor", runtime.url]
        settings = parse_settings([*arguments, "--executor-secret-file", str(secret_file)], {})
        assert isinstance(settings.server, EmbeddedServerSettings)
        async with open_backend(settings.server, clock=lambda: due_at, words=ENGLISH) as backend:
            async with asyncio.timeout(WITHIN):
                while True:
                    sessions = (await backend.api.list_sessions()).items
                    if sessions:
                        messages = await backend.api.list_session_messages(sessions[0].session_id)
                        if messages.items:
                            break
                    await asyncio.sleep(0.05)
    assert [m.text for m in messages.items] == ["Notes are in the team folder."]
    assert runtime.deliveries[0].signed
