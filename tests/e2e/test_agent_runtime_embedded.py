"""An agent runtime attached to the embedded server: its answers in the app's transcript.

The embedded server over each database runs its real scheduler with
``HttpExecutor`` pointed at ``tests/agent_runtime.py``'s runtime; the app's
own client and ``SessionMessagesViewModel`` read the transcript back, as the
sidebar shows it when a firing's session is opened.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import httpx

from server.embedded import embed_store
from server.storage.sql.store import SqlStore
from server.worker.http_executor import HttpExecutor
from server.worker.runtime import running
from tests.agent_runtime import SECRET, agent_runtime, completes
from tests.clock import FakeClock
from tests.server.api.conftest import definition
from transport.client import ScheduleClient
from transport.models import SessionSummary
from viewmodels.sidebar import SessionMessagesViewModel

ZONE = ZoneInfo("Europe/London")
WITHIN_SECONDS = 30.0


async def _answered_session(api: ScheduleClient) -> SessionSummary:
    """The firing's session once its run has ended (polled, bounded)."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + WITHIN_SECONDS
    while loop.time() < ends:
        sessions = (await api.list_sessions()).items
        if sessions:
            messages = (await api.list_session_messages(sessions[0].session_id)).items
            if messages:
                return sessions[0]
        await asyncio.sleep(0.05)
    raise AssertionError("the runtime's answer never reached the session")


async def test_a_runtimes_answers_are_the_assistant_messages_of_the_transcript(
    database_url: str,
) -> None:
    clock = FakeClock(datetime(2026, 11, 30, 9, 0, tzinfo=UTC))
    embedded = embed_store(SqlStore.open(database_url), demo=False, clock=clock)
    transport = httpx.ASGITransport(app=embedded.app)
    try:
        async with ScheduleClient("http://embedded", transport=transport) as api:
            created = await api.create_schedule(
                definition(title="Board summary"), idempotency_key="board"
            )
            assert created.next_fire_at is not None
            clock.now = created.next_fire_at + timedelta(seconds=5)
            answers = completes("Revenue rose 4%.", "Costs held flat.")
            with agent_runtime(answers) as runtime:
                executor = HttpExecutor(runtime.url, SECRET, clock)
                async with running(embedded.scheduling(executor)):
                    embedded.wake.notify()
                    session = await _answered_session(api)
            assert len(runtime.deliveries) == 1
            vm = SessionMessagesViewModel(api, device_zone=ZONE)
            await vm.open(session.session_id)
            shown = [(m.role_label, m.text) for m in vm.snapshot.messages]
            assert shown == [("Assistant", "Revenue rose 4%."), ("Assistant", "Costs held flat.")]
            assert session.title == "Board summary"
    finally:
        embedded.close()
