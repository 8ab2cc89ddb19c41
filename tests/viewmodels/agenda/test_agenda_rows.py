"""The agenda's words: day headings, the Now line, each row's sentence, the busy strip.

``NOW`` is Tuesday 1 December 2026, 07:00 in the device zone (Europe/London).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from devtools.api_bodies import NOW, agenda_density_json, page_json
from tests.clock import FakeClock
from tests.viewmodels.agenda.conftest import item
from tests.viewmodels.fake_server import ScriptedRoute, ok
from viewmodels.agenda import AgendaSpan, AgendaViewModel
from viewmodels.formatting.clock_text import HourCycle, display_zone
from viewmodels.formatting.marks import MarkKind

MIDNIGHT = datetime(2026, 12, 1, tzinfo=UTC)
LONDON = ZoneInfo("Europe/London")
TWELVE_HOUR = display_zone(LONDON, HourCycle.H12)
"""The device zone as Settings hand it over when the person chose the 12-hour clock."""


async def test_rows_are_grouped_under_today_tomorrow_and_a_named_day(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute
) -> None:
    agenda_route.script(
        None,
        ok(
            page_json(
                item("a", MIDNIGHT + timedelta(hours=9)),
                item("b", MIDNIGHT + timedelta(days=1, hours=9)),
                item("c", MIDNIGHT + timedelta(days=2, hours=9)),
            )
        ),
    )
    await agenda.select_span(AgendaSpan.WEEK)
    headings = [day.heading for day in agenda.snapshot.days]
    assert headings == ["Today", "Tomorrow", "Thursday 3 December"]


async def test_the_now_line_sits_between_past_and_future_firings_today(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute, clock: FakeClock
) -> None:
    agenda_route.script(
        None,
        ok(
            page_json(
                item("early", MIDNIGHT + timedelta(hours=6)),
                item("late", MIDNIGHT + timedelta(hours=9)),
            )
        ),
    )
    await agenda.open()
    [today] = agenda.snapshot.days
    assert today.now_at == 1
    clock.advance(hours=3)
    await agenda.refresh()
    assert agenda.snapshot.days[0].now_at == 2


async def test_a_past_firing_says_its_outcome_and_a_future_one_none(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute
) -> None:
    agenda_route.script(
        None,
        ok(
            page_json(
                item("ran", NOW - timedelta(hours=3), disposition="MATERIALIZED"),
                item(
                    "failed",
                    NOW - timedelta(hours=2),
                    disposition="MATERIALIZED",
                    run_status="FAILED",
                ),
                item("unrecorded", NOW - timedelta(hours=1)),
                item("coming", NOW + timedelta(hours=1)),
            )
        ),
    )
    await agenda.open()
    rows = {row.title: row for row in agenda.snapshot.days[0].rows}
    assert rows["ran"].outcome_text == "Ran"
    assert rows["failed"].outcome_text == "Run failed: it stopped with an error"
    assert rows["failed"].mark is MarkKind.FAILED
    assert rows["unrecorded"].outcome_text == "No record"
    assert rows["coming"].outcome_text is None
    assert rows["coming"].mark is MarkKind.FIRES


async def test_a_shared_instant_says_how_many_schedules_fire_then(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute
) -> None:
    at = MIDNIGHT + timedelta(hours=9)
    agenda_route.script(
        None, ok(page_json(item("herd", at, clash_count=9), item("alone", at + timedelta(hours=1))))
    )
    await agenda.open()
    herd, alone = agenda.snapshot.days[0].rows
    assert herd.clash_text == "9 schedules at 09:00"
    assert alone.clash_text is None


async def test_a_firing_that_may_overlap_says_it_may_be_skipped_with_its_own_mark(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute
) -> None:
    agenda_route.script(
        None, ok(page_json(item("long", MIDNIGHT + timedelta(hours=9), may_overlap=True)))
    )
    await agenda.open()
    [row] = agenda.snapshot.days[0].rows
    assert row.overlap_text == "May be skipped if the previous run is still going"
    assert "May be skipped if the previous run is still going" in row.name
    assert row.mark is MarkKind.MAY_OVERLAP


async def test_the_schedules_own_time_shows_only_when_its_zone_differs(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute
) -> None:
    at = MIDNIGHT + timedelta(hours=9)
    agenda_route.script(
        None,
        ok(
            page_json(
                item("paris", at, timezone="Europe/Paris", local_time="10:00:00"),
                item("london", at, timezone="Europe/London", local_time="09:00:00"),
            )
        ),
    )
    await agenda.open()
    paris, london = agenda.snapshot.days[0].rows
    assert (paris.time_text, paris.own_time_text) == ("09:00", "10:00 in Paris")
    assert (london.time_text, london.own_time_text) == ("09:00", None)


async def test_the_busy_strip_marks_quiet_hours_and_says_them(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute, density_route: ScriptedRoute
) -> None:
    counts = [0] * 8 + [3, 1] + [0] * 14
    density_route.script(None, ok(agenda_density_json(MIDNIGHT, counts)))
    agenda_route.script(None, ok(page_json()))
    await agenda.open()
    shown = agenda.snapshot
    assert shown.busy_heading == "Busy hours"
    assert [cell.count for cell in shown.busy] == counts
    assert shown.busy[0].quiet and not shown.busy[8].quiet
    assert shown.busy[8].heat == 1.0
    assert shown.busy[8].name == "08:00: 3 firings"
    assert shown.busy[0].name == "00:00: no firing (quiet)"
    assert shown.quiet_text == "Quiet hours: 00:00 to 08:00, 10:00 to 00:00"


@pytest.mark.parametrize("device_zone", [TWELVE_HOUR], ids=["12-hour"])
async def test_a_person_on_the_12_hour_clock_reads_the_agendas_times_as_6_00_pm(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute
) -> None:
    at = MIDNIGHT + timedelta(hours=18)
    paris_daily = {"kind": "DAILY", "local_time": "19:00:00", "timezone": "Europe/Paris"}
    agenda_route.script(
        None,
        ok(
            page_json(
                item("paris", at, local_time="19:00:00", cadence=paris_daily, clash_count=2),
                item("new york", at, timezone="America/New_York", local_time=None),
            )
        ),
    )
    await agenda.open()
    paris, new_york = agenda.snapshot.days[0].rows
    assert (paris.time_text, paris.own_time_text) == ("6:00 pm", "7:00 pm in Paris")
    assert paris.cadence_text == "Every day at 7:00 pm (Europe/Paris)"
    assert paris.clash_text == "2 schedules at 6:00 pm"
    assert paris.name.startswith("6:00 pm, 7:00 pm in Paris, paris, Every day at 7:00 pm")
    assert new_york.own_time_text == "1:00 pm in New York", "read from the instant"


@pytest.mark.parametrize(
    ("device_zone", "labels", "evening", "quiet"),
    [
        pytest.param(
            LONDON,
            ("00", "08", "18"),
            "18:00: 2 firings",
            "Quiet hours: 00:00 to 08:00, 10:00 to 18:00, 19:00 to 00:00",
            id="language",
        ),
        pytest.param(
            TWELVE_HOUR,
            ("12 am", "8 am", "6 pm"),
            "6:00 pm: 2 firings",
            "Quiet hours: 12:00 am to 8:00 am, 10:00 am to 6:00 pm, 7:00 pm to 12:00 am",
            id="12-hour",
        ),
    ],
)
async def test_the_busy_strips_hours_are_written_on_the_persons_clock(
    agenda: AgendaViewModel,
    agenda_route: ScriptedRoute,
    density_route: ScriptedRoute,
    labels: tuple[str, str, str],
    evening: str,
    quiet: str,
) -> None:
    counts = [0] * 8 + [3, 1] + [0] * 8 + [2] + [0] * 5
    density_route.script(None, ok(agenda_density_json(MIDNIGHT, counts)))
    agenda_route.script(None, ok(page_json()))
    await agenda.open()
    shown = agenda.snapshot
    assert (shown.busy[0].label, shown.busy[8].label, shown.busy[18].label) == labels
    assert shown.busy[18].name == evening
    assert shown.quiet_text == quiet


@pytest.mark.parametrize("device_zone", [TWELVE_HOUR], ids=["12-hour"])
async def test_next_7_days_names_each_hour_on_the_persons_clock_with_its_day(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute, density_route: ScriptedRoute
) -> None:
    density_route.script(None, ok(agenda_density_json(MIDNIGHT + timedelta(days=1), [1, 0])))
    agenda_route.script(None, ok(page_json()))
    await agenda.select_span(AgendaSpan.WEEK)
    assert [cell.name for cell in agenda.snapshot.busy] == [
        "12:00 am Tomorrow: 1 firing",
        "1:00 am Tomorrow: no firing (quiet)",
    ]


async def test_next_7_days_counts_one_quiet_hour_in_the_singular(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute, density_route: ScriptedRoute
) -> None:
    density_route.script(None, ok(agenda_density_json(MIDNIGHT, [1, 0, 2])))
    agenda_route.script(None, ok(page_json()))
    await agenda.select_span(AgendaSpan.WEEK)
    assert agenda.snapshot.quiet_text == "1 hour with no firing, marked in the strip"


async def test_month_marks_the_days_with_no_firing(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute, density_route: ScriptedRoute
) -> None:
    counts = [2, 0, 1]
    density_route.script(
        None, ok(agenda_density_json(MIDNIGHT, counts, step=timedelta(days=1), bucket="day"))
    )
    agenda_route.script(None, ok(page_json()))
    await agenda.select_span(AgendaSpan.MONTH)
    shown = agenda.snapshot
    assert shown.busy_heading == "Busy days"
    assert [cell.label for cell in shown.busy] == ["1", "2", "3"]
    assert shown.quiet_text == "Days with no firing: Tomorrow"
    assert density_route.requests[-1].url.params["bucket"] == "day"
    assert density_route.requests[-1].url.params["timezone"] == "Europe/London"


async def test_without_the_density_route_the_busy_strip_hides(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute
) -> None:
    agenda_route.script(None, ok(page_json(item("a", MIDNIGHT + timedelta(hours=9)))))
    await agenda.open()
    assert agenda.snapshot.busy_heading is None
    assert agenda.snapshot.busy == ()
    assert agenda.snapshot.days
