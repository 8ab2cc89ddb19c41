"""Wire models: tolerant of new values, strict about instants."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from uuid import UUID

import pytest
import respx
from pydantic import ValidationError

from devtools import api_bodies as bodies
from transport import errors
from transport.client import ScheduleClient
from transport.models import (
    BrowserProfile,
    Cadence,
    CadenceKind,
    Disposition,
    MessageRole,
    Occurrence,
    PauseReason,
    ProfileState,
    ScheduleDetail,
    ScheduleState,
    ScheduleSummary,
    SessionMessage,
    SessionSummary,
)

S = bodies.SCHEDULE_ID


def test_known_values_have_typed_accessors() -> None:
    detail = ScheduleDetail.model_validate(bodies.detail_json())
    assert detail.known_state is ScheduleState.PAUSED
    assert detail.known_pause_reason is PauseReason.FAILURE_LIMIT
    assert detail.revision.cadence.known_kind is CadenceKind.WEEKLY
    assert Occurrence.model_validate(bodies.occurrence_json()).known_disposition is (
        Disposition.MATERIALIZED
    )
    assert BrowserProfile.model_validate(bodies.profile_json()).known_state is ProfileState.READY
    assert SessionMessage.model_validate(bodies.message_json()).known_role is MessageRole.ASSISTANT


@pytest.mark.parametrize(
    ("state", "ended"),
    [
        (ScheduleState.ACTIVE, False),
        (ScheduleState.PAUSED, False),
        (ScheduleState.COMPLETED, True),
        (ScheduleState.CANCELLED, True),
    ],
)
def test_a_schedule_has_ended_only_when_completed_or_cancelled(
    state: ScheduleState, ended: bool
) -> None:
    assert state.ended is ended


def test_unknown_enum_values_stay_raw_with_accessor_none() -> None:
    summary = ScheduleSummary.model_validate(
        bodies.summary_json(state="WAITING_FOR_APPROVAL", pause_reason="maintenance")
    )
    assert summary.state == "WAITING_FOR_APPROVAL"
    assert summary.known_state is None
    assert summary.pause_reason == "maintenance"
    assert summary.known_pause_reason is None
    occurrence = Occurrence.model_validate(bodies.occurrence_json(disposition="DEFERRED"))
    assert (occurrence.disposition, occurrence.known_disposition) == ("DEFERRED", None)
    profile = BrowserProfile.model_validate(bodies.profile_json(state="LOCKED"))
    assert (profile.state, profile.known_state) == ("LOCKED", None)
    message = SessionMessage.model_validate(bodies.message_json(role="tool"))
    assert (message.role, message.known_role) == ("tool", None)


def test_unknown_cadence_kind_is_kept_whole() -> None:
    raw = {
        "kind": "EVERY_N_HOURS",
        "hours": 6,
        "anchor": {"local_time": "00:30:00"},
        "timezone": "Asia/Tokyo",
    }
    summary = ScheduleSummary.model_validate(bodies.summary_json(cadence=raw))
    cadence = summary.cadence
    assert cadence.kind == "EVERY_N_HOURS"
    assert cadence.known_kind is None
    assert cadence.timezone == "Asia/Tokyo"
    assert cadence.model_extra == {"hours": 6, "anchor": {"local_time": "00:30:00"}}
    assert cadence.model_dump(mode="json", exclude_unset=True) == raw


async def test_naive_instant_in_a_field_the_screen_needs_is_a_protocol_error(
    router: respx.Router, client: ScheduleClient
) -> None:
    router.get(f"/v1/sessions/{bodies.SESSION_ID}/messages").respond(
        200, json=bodies.page_json(bodies.message_json(created_at="2026-11-30T16:04:00"))
    )
    with pytest.raises(errors.ProtocolError) as caught:
        await client.list_session_messages(bodies.SESSION_ID)
    assert "created_at" in str(caught.value)
    assert isinstance(caught.value.__cause__, ValidationError)


async def test_naive_instant_in_a_lenient_field_is_not_available_alone(
    router: respx.Router, client: ScheduleClient
) -> None:
    router.get(f"/v1/schedules/{S}").respond(
        200, json=bodies.detail_json(updated_at="2026-11-02T10:00:00")
    )
    detail = await client.get_schedule(S)
    assert detail.updated_at is None
    assert detail.unreadable("updated_at")
    assert detail.revision.instruction == bodies.INSTRUCTION


async def test_naive_instant_inside_a_page_is_a_protocol_error(
    router: respx.Router, client: ScheduleClient
) -> None:
    router.get("/v1/sessions").respond(
        200, json=bodies.page_json(bodies.session_json(last_activity_at="2026-11-30 16:05:00"))
    )
    with pytest.raises(errors.ProtocolError):
        await client.list_sessions()


@pytest.mark.parametrize(
    "value", [1764000000, True, None, ""], ids=["epoch", "bool", "null", "empty"]
)
def test_instants_must_be_rfc3339_text(value: object) -> None:
    with pytest.raises(ValidationError):
        SessionMessage.model_validate(bodies.message_json(created_at=value))


def test_instants_are_normalised_to_utc() -> None:
    message = SessionMessage.model_validate(
        bodies.message_json(created_at="2026-11-30T18:04:00+02:00")
    )
    assert message.created_at == datetime(2026, 11, 30, 16, 4, tzinfo=UTC)
    assert message.created_at.utcoffset() == timedelta(0)
    assert message.created_at.tzinfo is UTC


def test_aware_python_datetimes_are_accepted_and_normalised() -> None:
    plus_two = timezone(timedelta(hours=2))
    cadence = Cadence(kind="ONCE", at=datetime(2026, 12, 24, 19, 0, tzinfo=plus_two))
    assert cadence.at == datetime(2026, 12, 24, 17, 0, tzinfo=UTC)
    assert cadence.model_dump(mode="json", exclude_unset=True) == {
        "kind": "ONCE",
        "at": "2026-12-24T17:00:00Z",
    }


@pytest.mark.parametrize(
    "value",
    [
        pytest.param(12, id="number"),
        pytest.param("not-a-uuid", id="text"),
        pytest.param(str(S).replace("-", ""), id="unhyphenated"),
        pytest.param(f"urn:uuid:{S}", id="urn"),
        pytest.param({"id": str(S)}, id="object"),
        pytest.param(None, id="null"),
    ],
)
def test_schedule_id_that_is_not_a_uuid_string_is_absent(value: object) -> None:
    session = SessionSummary.model_validate(bodies.session_json(metadata={"schedule_id": value}))
    assert session.schedule_id is None


def test_schedule_id_uuid_string_is_read_in_any_case() -> None:
    upper = SessionSummary.model_validate(
        bodies.session_json(metadata={"schedule_id": str(S).upper()})
    )
    assert upper.schedule_id == S
    chat = SessionSummary.model_validate(bodies.session_json(metadata={}))
    assert chat.schedule_id is None
    no_metadata = SessionSummary.model_validate(bodies.session_json(metadata=None))
    assert no_metadata.metadata == {}


def test_models_are_frozen() -> None:
    summary = ScheduleSummary.model_validate(bodies.summary_json())
    with pytest.raises(ValidationError):
        summary.title = "changed"  # type: ignore[misc]


def test_unknown_top_level_fields_are_kept() -> None:
    summary = ScheduleSummary.model_validate(bodies.summary_json(owner_hint="team-a"))
    assert summary.model_extra == {"owner_hint": "team-a"}
    assert summary.schedule_id == UUID(str(S))


def test_a_scheduled_sessions_firing_time_is_read_only_when_it_is_an_aware_instant() -> None:
    schedule = "3f2a7c52-8c7b-4b7e-9a59-0c1d2e3f4a5b"
    fired = "2026-12-01T07:30:00+00:00"

    def read(metadata: dict[str, object]) -> datetime | None:
        return SessionSummary.model_validate(bodies.session_json(metadata=metadata)).fired_at

    assert read({"schedule_id": schedule, "nominal_fire_at": fired}) == datetime(
        2026, 12, 1, 7, 30, tzinfo=UTC
    )
    assert read({"schedule_id": schedule, "nominal_fire_at": "2026-12-01T07:30:00"}) is None
    assert read({"schedule_id": schedule, "nominal_fire_at": "yesterday"}) is None
    assert read({"schedule_id": schedule, "nominal_fire_at": 12}) is None
    assert read({"nominal_fire_at": fired}) is None, "a chat has no firing"
