"""The projection and the next firing's adjustment, read as the lenient client reads any answer.

The window is sent as two UTC instants; readings only a sentence needs degrade
alone; adjustments, notice reasons, dispositions and run statuses this client
does not know stay raw, with their ``known_*`` accessor answering None.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
import respx
from pydantic import ValidationError

from devtools import api_bodies as bodies
from transport.client import ScheduleClient
from transport.models import (
    Disposition,
    FiringAdjustment,
    NoticeReason,
    Projection,
    RunStatus,
    ScheduleDetail,
    ScheduleState,
    ScheduleSummary,
)

S = bodies.uid("s1")
START, END = "2027-03-01T00:00:00Z", "2027-04-01T00:00:00Z"
AT = datetime(2027, 3, 14, 7, 0, tzinfo=UTC)


def _answer(**changes: object) -> dict[str, object]:
    body = bodies.projection(
        S,
        START,
        END,
        firings=[
            bodies.firing(
                AT,
                local=datetime(2027, 3, 14, 3, 0),
                scheduled=datetime(2027, 3, 14, 2, 30),
                adjustment="MOVED_TO_TRANSITION",
            )
        ],
        notices=[bodies.notice("2027-04-31", "DAY_NOT_IN_MONTH")],
        past_items=[bodies.past("o1", AT - timedelta(days=1), "SKIPPED_OVERLAP")],
    )
    body.update(changes)
    return body


async def test_the_window_is_sent_in_utc_and_the_answer_read_whole(
    router: respx.Router, client: ScheduleClient
) -> None:
    route = router.get(f"/v1/schedules/{S}/projection").respond(200, json=_answer())
    paris = timezone(timedelta(hours=1))
    projection = await client.get_projection(
        S, start=datetime(2027, 3, 1, 1, tzinfo=paris), end=datetime(2027, 4, 1, tzinfo=UTC)
    )
    params = route.calls.last.request.url.params
    assert (params["from"], params["to"]) == (START, END)
    assert (projection.window_start, projection.window_end) == (
        datetime(2027, 3, 1, tzinfo=UTC),
        datetime(2027, 4, 1, tzinfo=UTC),
    )
    (firing,) = projection.firings
    assert firing.at == AT and firing.known_adjustment is FiringAdjustment.MOVED_TO_TRANSITION
    assert (firing.local_date, firing.local_time) == (date(2027, 3, 14), "03:00:00")
    assert (firing.scheduled_date, firing.scheduled_time) == (date(2027, 3, 14), "02:30:00")
    (notice,) = projection.notices
    assert notice.parts == (2027, 4, 31) and notice.known_reason is NoticeReason.DAY_NOT_IN_MONTH
    (past,) = projection.past
    assert past.known_disposition is Disposition.SKIPPED_OVERLAP


async def test_a_naive_window_is_refused_before_anything_is_sent(client: ScheduleClient) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        await client.get_projection(S, start=datetime(2027, 3, 1), end=AT)


def test_unknown_values_stay_raw_and_odd_readings_degrade_alone() -> None:
    body = _answer(as_if_resumed="maybe", timezone=7)
    firings = body["firings"]
    assert isinstance(firings, list)
    firings[0].update(adjustment="SHIFTED_BY_DECREE", local_date="14 March", scheduled_time=None)
    body["notices"] = [bodies.notice("2027-02-30", "HOLIDAY_BLACKOUT")]
    projection = Projection.model_validate(body)
    firing = projection.firings[0]
    assert firing.adjustment == "SHIFTED_BY_DECREE" and firing.known_adjustment is None
    assert firing.local_date is None and firing.unreadable("local_date")
    assert firing.scheduled_time is None and not firing.unreadable("scheduled_time")
    assert projection.as_if_resumed is None and projection.timezone is None
    assert projection.notices[0].known_reason is None


def test_the_schedules_state_beside_the_projection_is_typed_when_known() -> None:
    assert Projection.model_validate(_answer()).known_state is ScheduleState.ACTIVE
    dormant = Projection.model_validate(_answer(state="DORMANT"))
    assert (dormant.state, dormant.known_state) == ("DORMANT", None)


@pytest.mark.parametrize(
    ("field", "value"),
    [("from", "2027-03-01T00:00:00"), ("firings", [{"at": "soon"}]), ("schedule_id", "x")],
)
def test_what_the_calendar_cannot_place_makes_the_answer_unreadable(
    field: str, value: object
) -> None:
    with pytest.raises(ValidationError):
        Projection.model_validate(_answer(**{field: value}))


def test_a_notice_date_that_is_not_yyyy_mm_dd_is_unreadable() -> None:
    with pytest.raises(ValidationError):
        Projection.model_validate(_answer(notices=[bodies.notice("31 April", "DAY_NOT_IN_MONTH")]))


def test_rows_and_the_point_read_carry_the_next_firings_adjustment() -> None:
    row = ScheduleSummary.model_validate(
        bodies.summary("s1", next_fire_at=AT, next_fire_adjustment="EARLIER_OF_TWO")
    )
    assert row.known_next_fire_adjustment is FiringAdjustment.EARLIER_OF_TWO
    detail = ScheduleDetail.model_validate(
        bodies.detail("s1", next_fire_at=AT, next_fire_adjustment="SOMETHING_NEW")
    )
    assert detail.next_fire_adjustment == "SOMETHING_NEW"
    assert detail.known_next_fire_adjustment is None
    odd = ScheduleSummary.model_validate(
        {**bodies.summary("s2"), "next_fire_adjustment": {"not": "text"}}
    )
    assert odd.next_fire_adjustment is None and odd.unreadable("next_fire_adjustment")
    older = bodies.summary("s3")
    del older["next_fire_adjustment"]
    assert ScheduleSummary.model_validate(older).next_fire_adjustment is None


def test_a_past_firings_run_status_is_optional_and_an_unknown_one_stays_raw() -> None:
    day = AT - timedelta(days=1)
    body = _answer()
    body["past"] = [
        bodies.past("o1", day, run_status="FAILED", failure_reason="deadline_exceeded"),
        bodies.past("o2", day + timedelta(hours=1), run_status="PAUSED_BY_OPERATOR"),
        bodies.past("o3", day + timedelta(hours=2)),
        bodies.past("o4", day + timedelta(hours=3), run_status=None),
        bodies.past("o5", day + timedelta(hours=4), run_status=7),  # type: ignore[arg-type]
    ]
    failed, unknown, older, erased, odd = Projection.model_validate(body).past
    assert (failed.known_run_status, failed.failure_reason) == (
        RunStatus.FAILED,
        "deadline_exceeded",
    )
    assert (unknown.run_status, unknown.known_run_status) == ("PAUSED_BY_OPERATOR", None)
    assert (older.run_status, older.failure_reason, older.known_run_status) == (None, None, None)
    assert (erased.run_status, erased.known_run_status) == (None, None)
    assert odd.run_status is None and odd.unreadable("run_status")


def _expected(at: datetime) -> dict[str, object]:
    return {
        "occurrence_id": None,
        "nominal_fire_at": bodies.instant(at),
        "disposition": None,
        "reason_code": None,
        "expected": True,
    }


def test_an_expected_past_instant_reads_without_id_or_disposition() -> None:
    day = AT - timedelta(days=2)
    body = _answer()
    body["past"] = [
        _expected(day),
        {**bodies.past("o1", day + timedelta(days=1)), "expected": False},
    ]
    expected, recorded = Projection.model_validate(body).past
    assert (expected.occurrence_id, expected.disposition, expected.nominal_fire_at) == (
        None,
        None,
        day,
    )
    assert expected.not_fired and not recorded.not_fired
    assert recorded.known_disposition is Disposition.MATERIALIZED


@pytest.mark.parametrize(
    "entry",
    [
        pytest.param({"expected": False}, id="expected-false"),
        pytest.param({}, id="expected-absent"),
        pytest.param({"expected": "sometimes"}, id="expected-unreadable"),
    ],
)
def test_a_past_entry_with_neither_a_disposition_nor_expected_makes_the_answer_unreadable(
    entry: dict[str, object],
) -> None:
    odd = {**_expected(AT - timedelta(days=1)), **entry}
    if "expected" not in entry:
        del odd["expected"]
    with pytest.raises(ValidationError):
        Projection.model_validate(_answer(past=[odd]))


def test_a_recorded_past_entry_without_its_id_makes_the_answer_unreadable() -> None:
    odd = {**bodies.past("o1", AT - timedelta(days=1)), "occurrence_id": None}
    with pytest.raises(ValidationError):
        Projection.model_validate(_answer(past=[odd]))


def test_a_future_firings_may_overlap_reads_when_sent_and_is_none_from_an_older_server() -> None:
    body = _answer()
    firings = body["firings"]
    assert isinstance(firings, list)
    firings[0]["may_overlap"] = True
    firings.append(bodies.firing(AT + timedelta(days=1)))
    firings.append({**bodies.firing(AT + timedelta(days=2)), "may_overlap": "often"})
    flagged, older, odd = Projection.model_validate(body).firings
    assert (flagged.may_overlap, older.may_overlap, odd.may_overlap) == (True, None, None)
    assert odd.unreadable("may_overlap")
