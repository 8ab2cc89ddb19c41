"""Which schedule started a chat: the transcript header, safe Markdown, and "5 sessions"."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from zoneinfo import ZoneInfo

import respx

from devtools.api_bodies import NOW, detail, message, page, revision_body, session, uid
from tests.clock import FakeClock
from tests.viewmodels.fake_server import Reply, ScriptedRoute, ok, refused, server_down
from tests.viewmodels.test_sidebar import Sessions, firing, sidebar
from transport.client import ScheduleClient
from viewmodels.ports import MemoryStorage
from viewmodels.sidebar import SessionMessagesViewModel, outside_link
from viewmodels.sidebar.transcript_markdown import safe_markdown

FIRED = NOW - timedelta(hours=3)


def scheduled_session(name: str, schedule: str = "backup") -> dict[str, object]:
    return session(
        name,
        schedule=schedule,
        last_activity_at=NOW - timedelta(hours=2),
        title="Nightly backup check",
        metadata={"nominal_fire_at": FIRED.isoformat()},
    )


def transcript_route(router: respx.MockRouter, name: str) -> ScriptedRoute:
    route = ScriptedRoute(router, "GET", f"/v1/sessions/{uid(name)}/messages")
    route.script(
        None,
        ok(
            page(
                [
                    message(
                        "answer",
                        role="assistant",
                        text="- one\n- <b>two</b>",
                        created_at=NOW - timedelta(hours=2),
                    )
                ]
            )
        ),
    )
    return route


async def opened_run_transcript(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    zone: ZoneInfo,
    *schedule_read: Reply,
) -> SessionMessagesViewModel:
    """The scheduled session "run"'s transcript, its schedule's read answered ``schedule_read``."""
    Sessions(router).serve(scheduled_session("run"))
    transcript_route(router, "run")
    read = ScriptedRoute(router, "GET", f"/v1/schedules/{uid('backup')}", key="none")
    read.script(None, *schedule_read)
    bar = sidebar(api, storage, clock, zone)
    await bar.open()
    vm = SessionMessagesViewModel(api, device_zone=zone, origin_of=bar.origin_of)
    await vm.open(uid("run"))
    return vm


async def test_a_scheduled_sessions_transcript_starts_with_its_schedule_and_firing_time(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    Sessions(router).serve(scheduled_session("run"), session("chat", last_activity_at=NOW))
    transcript_route(router, "run")
    transcript_route(router, "chat")
    read = ScriptedRoute(router, "GET", f"/v1/schedules/{uid('backup')}", key="none")
    read.script(None, ok(detail("backup", revision=revision_body(2, title="Nightly backup"))))
    bar = sidebar(api, storage, clock, device_zone)
    await bar.open()
    vm = SessionMessagesViewModel(
        api, device_zone=device_zone, title_of=bar.title_of, origin_of=bar.origin_of
    )
    await vm.open(uid("run"))
    origin = vm.snapshot.origin
    assert origin is not None
    assert origin.text == "Started by the schedule \u201cNightly backup\u201d", (
        "the schedule's title"
    )
    assert origin.fired_text == "Firing of 1 Dec 2026, 04:00"
    assert origin.schedule_id == uid("backup"), "Open schedule opens this one"
    await vm.open(uid("chat"))
    assert vm.snapshot.origin is None, "a chat has no header"


async def test_a_schedule_that_cannot_be_read_leaves_started_by_a_schedule_until_read_again(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    named = ok(detail("backup", revision=revision_body(2, title="Nightly backup")))
    vm = await opened_run_transcript(
        api, router, storage, clock, device_zone, *server_down(), named
    )
    assert vm.snapshot.origin is not None
    assert vm.snapshot.origin.text == "Started by a schedule"
    assert len(vm.snapshot.messages) == 1, "the transcript shows all the same"
    vm.refresh_title()  # the sidebar learnt more: a read with no usable answer is made again
    await asyncio.gather(*asyncio.all_tasks() - {asyncio.current_task()})
    assert vm.snapshot.origin.text == "Started by the schedule \u201cNightly backup\u201d"


async def test_assistant_messages_are_markdown_with_no_raw_html_or_images() -> None:
    assert safe_markdown("- one\n- <b>two</b>") == "- one\n- &lt;b>two&lt;/b>"
    assert (
        safe_markdown("![pixel](https://t.example/p.png)") == "!\\[pixel](https://t.example/p.png)"
    )
    assert safe_markdown("use `<br>` here") == "use `<br>` here", "code shows literally already"
    fenced = "```\n<div>\n```\n<p>"
    assert safe_markdown(fenced) == "```\n<div>\n```\n&lt;p>"


async def test_links_open_outside_the_app_only_for_web_and_mail_addresses() -> None:
    assert outside_link("https://example.com/a") == "https://example.com/a"
    assert outside_link("mailto:me@example.com") == "mailto:me@example.com"
    assert outside_link("javascript:alert(1)") is None
    assert outside_link("/schedules/x") is None, "never a route inside the app"


async def test_the_transcripts_assistant_rows_carry_markdown_and_user_rows_plain_text(
    api: ScheduleClient, router: respx.MockRouter, device_zone: ZoneInfo
) -> None:
    route = ScriptedRoute(router, "GET", f"/v1/sessions/{uid('s')}/messages")
    route.script(
        None,
        ok(
            page(
                [
                    message("q", role="user", text="<i>hi</i>", created_at=NOW),
                    message("a", role="assistant", text="<i>hi</i>", created_at=NOW),
                ]
            )
        ),
    )
    vm = SessionMessagesViewModel(api, device_zone=device_zone)
    await vm.open(uid("s"))
    mine, answer = vm.snapshot.messages
    assert mine.markdown is None and mine.text == "<i>hi</i>"
    assert answer.markdown == "&lt;i>hi&lt;/i>"


async def test_the_detail_counts_a_schedules_sessions_honestly_and_reveals_its_group(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    server = Sessions(router)
    server.serve(*(firing(n, hours_ago=n) for n in range(1, 6)), firing(1, schedule="lone"))
    bar = sidebar(api, storage, clock, device_zone)
    assert bar.schedule_sessions(uid("digest")).text == "No sessions known yet"
    await bar.open()
    five = bar.schedule_sessions(uid("digest"))
    assert five.text == "5 sessions" and five.can_reveal
    assert bar.schedule_sessions(uid("lone")).text == "1 session"
    assert bar.schedule_sessions(uid("other")).text == "No sessions yet"
    assert not bar.schedule_sessions(uid("other")).can_reveal
    server.sessions.rescript(None, *server_down())
    await bar.refresh()
    assert bar.schedule_sessions(uid("digest")).text == "5 sessions known so far", (
        "only what the device holds is known after a failed read"
    )
    (group,) = bar.snapshot.scheduled
    assert not group.expanded
    await bar.reveal_schedule(uid("digest"))
    (group,) = bar.snapshot.scheduled
    assert group.expanded, "Show in the sidebar expands the group"
    assert bar.snapshot.revealed_schedule_id == uid("digest")
    assert await storage.get("sidebar.expanded_groups") == [str(uid("digest"))], "remembered"


async def test_a_groups_count_is_named_for_the_eye_and_the_full_name_is_kept_for_the_tooltip(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    long_title = "Inbox triage before standup, with the calendar and the team's board"
    Sessions(router).serve(firing(1, title=long_title), firing(2, hours_ago=1))
    bar = sidebar(api, storage, clock, device_zone)
    await bar.open()
    (group,) = bar.snapshot.scheduled
    assert group.count_text == "2 sessions", "the words the row shows, not a bare 2"
    assert group.label == long_title, "the full name, which the tooltip shows"
    assert group.accessibility_label.startswith(f"{long_title}, 2 sessions")


async def test_a_refused_schedule_read_is_not_an_error_and_not_asked_again(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    vm = await opened_run_transcript(
        api, router, storage, clock, device_zone, refused(404, "schedule.not_found")
    )
    assert vm.snapshot.first_page_error is None
    assert vm.snapshot.origin is not None and vm.snapshot.origin.text == "Started by a schedule"
    reads = len(router.calls)
    vm.refresh_title()
    assert len(router.calls) == reads, "a refusal is an answer: it is not asked again"
    assert not asyncio.all_tasks() - {asyncio.current_task()}


async def test_the_firing_time_survives_the_devices_history_cache(
    api: ScheduleClient,
    router: respx.MockRouter,
    storage: MemoryStorage,
    clock: FakeClock,
    device_zone: ZoneInfo,
) -> None:
    Sessions(router).serve(scheduled_session("run"))
    await sidebar(api, storage, clock, device_zone).open()
    (kept,) = await storage.get("sidebar.history")  # type: ignore[misc]
    assert isinstance(kept, dict) and kept["fired_at"] == FIRED.isoformat()
    restarted = sidebar(api, storage, clock, device_zone)
    Sessions(router).sessions.rescript(None, *server_down())
    await restarted.open()
    origin = restarted.origin_of(uid("run"))
    assert origin is not None
    assert origin.schedule_id == uid("backup") and origin.fired_at == FIRED
