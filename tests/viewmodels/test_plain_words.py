"""Issue 24's words: whose time a time is, how a schedule ended, why it is paused,
plain words for the technical fields, and empty sections that guide."""

from __future__ import annotations

from datetime import date, timedelta
from zoneinfo import ZoneInfo

import respx

from devtools.api_bodies import (
    NOW,
    SESSION_ID,
    detail,
    last_outcome_json,
    limits_json,
    once_cadence_json,
    principal,
    revision_body,
    summary,
    uid,
)
from tests.clock import FakeClock
from tests.viewmodels.fake_server import ScriptedRoute, ok
from transport.client import ScheduleClient
from transport.models import ScheduleDetail, ScheduleSummary
from viewmodels.detail import ScheduleDetailViewModel
from viewmodels.detail.fields import detail_fields
from viewmodels.formatting.clock_text import HourCycle, display_zone
from viewmodels.navigation import session_route
from viewmodels.paging import FeedPhase
from viewmodels.schedule_list import ScheduleListViewModel
from viewmodels.schedule_list.rows import schedule_row
from viewmodels.schedule_list.snapshot import ListSection, ScheduleListSnapshot
from viewmodels.server_kind import ServerKind

NEW_YORK_DAILY = {"kind": "DAILY", "local_time": "02:30:00", "timezone": "America/New_York"}
UTC_ZONE = ZoneInfo("Etc/UTC")


def _row_of(**changes: object) -> ScheduleSummary:
    return ScheduleSummary.model_validate(summary("s1", **changes))


def _detail_of(**changes: object) -> ScheduleDetail:
    return ScheduleDetail.model_validate(detail("s1", **changes))


# 1. Whose time a time is


def test_a_rows_next_firing_names_the_schedules_time_when_its_zone_is_not_yours() -> None:
    row = schedule_row(
        _row_of(cadence=NEW_YORK_DAILY, next_fire_at=NOW + timedelta(hours=24, minutes=30)),
        NOW,
        UTC_ZONE,
    )

    assert row.next_fire_text == "Next: tomorrow at 07:30 (02:30 America/New_York)"
    assert "Next: tomorrow at 07:30 (02:30 America/New_York)" in row.accessibility_label


def test_a_rows_next_firing_in_your_own_zone_names_no_second_time() -> None:
    same = {"kind": "DAILY", "local_time": "07:30:00", "timezone": "UTC"}
    row = schedule_row(
        _row_of(cadence=same, next_fire_at=NOW + timedelta(hours=24, minutes=30)), NOW, UTC_ZONE
    )

    assert row.next_fire_text == "Next: tomorrow at 07:30"


def test_the_list_names_your_zone_once(api: ScheduleClient, clock: FakeClock) -> None:
    vm = ScheduleListViewModel(api, clock=clock, device_zone=UTC_ZONE)

    assert vm.snapshot.zone_text == "Times in UTC, your device's zone"


def test_a_zone_chosen_in_settings_is_named_as_chosen_not_as_the_devices(
    api: ScheduleClient, clock: FakeClock
) -> None:
    kolkata = display_zone(ZoneInfo("Asia/Kolkata"), HourCycle.LANGUAGE, chosen=True)
    vm = ScheduleListViewModel(api, clock=clock, device_zone=kolkata)

    assert vm.snapshot.zone_text == "Times in Asia/Kolkata, chosen in Settings"


def test_created_and_updated_drop_seconds_and_name_their_zone() -> None:
    record = _detail_of(created_at="2026-11-01T10:00:42Z", updated_at="2026-11-20T10:15:09Z")

    fields = detail_fields(record, UTC_ZONE, now=NOW)

    assert fields.value("Created") == "1 Nov 2026, 10:00 (Etc/UTC)"
    assert fields.value("Updated") == "20 Nov 2026, 10:15 (Etc/UTC)"


# 2. How and when a schedule ended


def test_a_completed_once_schedule_says_when_it_ended_after_its_only_firing() -> None:
    ran = last_outcome_json(
        nominal_fire_at="2026-11-27T07:00:00Z", run_status="COMPLETED", failure_reason=None
    )
    completed = _row_of(
        state="COMPLETED",
        cadence=once_cadence_json(at="2026-11-27T07:00:00Z"),
        updated_at="2026-11-27T07:04:00Z",
        last_outcome=ran,
    )

    row = schedule_row(completed, NOW, UTC_ZONE)

    assert row.ended_text == "Completed on 27 Nov after its only firing. Ran at 07:00"
    assert row.next_fire_text is None


def test_a_person_on_the_12_hour_clock_reads_when_an_ended_schedule_last_ran_as_7_00_am() -> None:
    ran = last_outcome_json(
        nominal_fire_at="2026-11-27T07:00:00Z", run_status="COMPLETED", failure_reason=None
    )
    completed = _row_of(
        state="COMPLETED",
        cadence=once_cadence_json(at="2026-11-27T07:00:00Z"),
        updated_at="2026-11-27T07:04:00Z",
        last_outcome=ran,
    )

    row = schedule_row(completed, NOW, display_zone(UTC_ZONE, HourCycle.H12))

    assert row.ended_text == "Completed on 27 Nov after its only firing. Ran at 7:00 am"


def test_a_cancelled_schedule_says_when_and_its_last_firings_outcome() -> None:
    cancelled = _row_of(state="CANCELLED", updated_at="2026-11-03T09:00:00Z")

    row = schedule_row(cancelled, NOW, UTC_ZONE)

    assert row.ended_text == (
        "Cancelled on 3 Nov. Run failed at 30 Nov 2026, 16:00: it ran past its deadline"
    )


def test_a_schedule_cancelled_before_it_fired_says_so_and_a_running_one_says_nothing() -> None:
    never = _row_of(state="CANCELLED", updated_at="2025-11-03T09:00:00Z", last_outcome=None)

    assert schedule_row(never, NOW, UTC_ZONE).ended_text == (
        "Cancelled on 3 Nov 2025 before it ever fired"
    )
    assert schedule_row(_row_of(), NOW, UTC_ZONE).ended_text is None


def test_the_detail_of_an_ended_schedule_says_how_and_when_it_ended() -> None:
    record = _detail_of(state="CANCELLED", updated_at="2026-11-03T09:00:00Z", next_fire_at=None)

    fields = detail_fields(record, UTC_ZONE, now=NOW)

    assert fields.value("Ended") == fields.ended_text
    assert fields.ended_text is not None and fields.ended_text.startswith("Cancelled on 3 Nov. ")
    assert fields.value("Next firing") == "None: the schedule has ended"


async def test_an_ended_schedules_calendar_opens_on_the_month_of_its_last_firing(
    api: ScheduleClient, router: respx.MockRouter, clock: FakeClock
) -> None:
    ScriptedRoute(router, "GET", "/v1/principal", key="none").script(None, ok(principal()))
    ScriptedRoute(router, "GET", "/v1/browser-profiles").script(
        None, ok({"items": [], "next_cursor": None})
    )
    ended = detail(
        "s1",
        state="COMPLETED",
        next_fire_at=None,
        last_outcome=last_outcome_json(nominal_fire_at="2026-10-27T07:00:00Z"),
    )
    ScriptedRoute(router, "GET", f"/v1/schedules/{uid('s1')}", key="none").script(None, ok(ended))
    vm = ScheduleDetailViewModel(api, clock=clock, device_zone=UTC_ZONE)

    await vm.open(uid("s1"))

    assert vm.calendar.snapshot.month_title == "October 2026"
    assert vm.calendar.snapshot.selected_day == date(2026, 10, 27)


# 3. Why a schedule is paused, and what to do


def test_a_schedule_paused_after_failures_gives_the_reason_its_session_and_how_to_resume() -> None:
    record = _detail_of(state="PAUSED", pause_reason="failure_limit", consecutive_failures=3)

    pause = detail_fields(record, UTC_ZONE, now=NOW, server=ServerKind.PLATFORM).pause

    assert pause is not None
    assert pause.failure_text == "Run failed at 30 Nov 2026, 16:00: it ran past its deadline"
    assert pause.session_id == SESSION_ID
    assert pause.session_label == "Open the failed firing's session"
    assert session_route(pause.session_id) == f"/sessions/{SESSION_ID}"
    title = record.revision.title
    assert pause.resume_text == (
        f"To resume it, ask your agent to resume “{title}” (copy its name and id below),"
        " or use the agent platform's own tools."
    )
    assert pause.check_first_text == (
        "Check the last failure first: resuming it unchanged may fail the same way."
    )
    assert pause.copy_label == "Copy name and id"
    assert pause.copy_text == f"“{title}” (schedule id {record.schedule_id})"


def test_on_the_embedded_demo_server_the_pause_says_plainly_nothing_resumes_it() -> None:
    # Never the dead end "This app does not resume schedules…": what the person can do.
    record = _detail_of(state="PAUSED", pause_reason="user", last_outcome=None)

    pause = detail_fields(record, UTC_ZONE, now=NOW, server=ServerKind.EMBEDDED).pause

    assert pause is not None
    assert pause.failure_text is None and pause.session_id is None
    assert pause.resume_text == (
        f"On an agent platform you would ask your agent to resume “{record.revision.title}”"
        " by name; this demo server has no agent, so it stays paused."
    )
    assert pause.check_first_text is None, "paused by its owner: no failure to check"
    assert detail_fields(_detail_of(), UTC_ZONE, now=NOW).pause is None


# 8. Plain words for the technical fields


def test_the_technical_fields_sit_in_advanced_each_with_a_line_folded_at_every_size() -> None:
    fields = detail_fields(_detail_of(), UTC_ZONE, now=NOW)

    advanced = fields.groups[-1]
    assert advanced.title == "Advanced"
    assert advanced.starts_folded, "folded at every size, on a wide window as on a phone"
    labels = [line.label for line in advanced.lines]
    for technical in ("Revision", "Failure policy", "Requested scopes", "Agent", "Policy profile"):
        assert technical in labels
    assert all(line.explanation for line in advanced.lines), "each field says what it means"
    grace = next(line for line in advanced.lines if line.label == "Misfire grace")
    assert grace.explanation == "How late a firing may still run after the server was down"


def test_reserved_cost_carries_its_unit_where_the_server_gives_one() -> None:
    with_unit = revision_body(limits=limits_json(reserve_cost="0.5", currency="USD"))
    fields = detail_fields(_detail_of(revision=with_unit), UTC_ZONE, now=NOW)
    without = detail_fields(_detail_of(), UTC_ZONE, now=NOW)

    assert fields.value("Reserved cost") == "0.50 USD"
    assert fields.value("Currency") is None, "the unit is no limit of its own"
    assert without.value("Reserved cost") == "1.00"


def test_a_cost_without_a_unit_says_it_is_in_the_platforms_cost_units() -> None:
    advanced = detail_fields(_detail_of(), UTC_ZONE, now=NOW).groups[-1]
    costs = {line.label: line for line in advanced.lines if line.label.endswith("cost")}
    assert costs["Max cost"].value == "5.00"
    for line in costs.values():
        assert line.explanation is not None
        assert line.explanation.endswith("in the agent platform's cost units")


def test_the_state_shows_once_as_the_headings_chip_not_also_as_a_line() -> None:
    fields = detail_fields(_detail_of(), UTC_ZONE, now=NOW)

    assert fields.state_label == "Active"
    assert fields.value("State") is None


# 10. Empty sections that guide


def _empty(section: ListSection, server: ServerKind) -> ScheduleListSnapshot:
    return ScheduleListSnapshot(section=section, phase=FeedPhase.END_REACHED, server=server)


def test_an_empty_embedded_server_says_where_schedules_come_from_and_how_to_load_the_demo() -> None:
    empty = _empty(ListSection.CURRENT, ServerKind.EMBEDDED)

    assert empty.empty_text == "No active or paused schedules."
    assert empty.empty_guidance == (
        "Schedules are created by the agent platform; this app shows them."
        " To see the demo, start the app again without --no-demo,"
        " or with a new data folder (--data-dir NEW_FOLDER)."
    )
    assert _empty(ListSection.CURRENT, ServerKind.PLATFORM).empty_guidance == (
        "Schedules are created by the agent platform; this app shows them."
    )


def test_an_empty_recent_history_says_ended_schedules_stay_for_30_days() -> None:
    empty = _empty(ListSection.RECENT_HISTORY, ServerKind.EMBEDDED)

    assert empty.empty_guidance == "Ended schedules appear here for 30 days."
