"""Each wire model reads every server the contract allows: optional fields null, absent or odd.

For every lenient field of every model, the answer is read three ways: the
field null, the field absent, the field malformed. The model still reads, the
field alone is None, and ``unreadable`` tells the malformed case apart. The
identity and the fields a screen needs stay strict.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from devtools import api_bodies as bodies
from transport.models import (
    Cadence,
    ErrorEnvelope,
    LastOutcome,
    Limits,
    Occurrence,
    ScheduleDetail,
    ScheduleRevision,
    ScheduleSummary,
    SessionSummary,
    WireModel,
)

ODD_TEXT = {"not": "text"}
ODD_NUMBER = "twelve"
ODD_INSTANT = "2026-11-02T10:00:00"  # naive: the contract wants an offset
ODD_UUID = "not-a-uuid"

Sample = Callable[..., dict[str, Any]]

CASES: list[tuple[type[WireModel], Sample, str, object]] = [
    (ScheduleSummary, bodies.summary_json, "pause_reason", ODD_TEXT),
    (ScheduleSummary, bodies.summary_json, "current_revision", ODD_NUMBER),
    (ScheduleSummary, bodies.summary_json, "next_fire_at", ODD_INSTANT),
    (ScheduleSummary, bodies.summary_json, "cadence", "DAILY"),
    (ScheduleSummary, bodies.summary_json, "browser_profile_id", ODD_UUID),
    (ScheduleSummary, bodies.summary_json, "created_at", ODD_INSTANT),
    (ScheduleSummary, bodies.summary_json, "updated_at", ODD_INSTANT),
    (ScheduleSummary, bodies.summary_json, "last_outcome", {"disposition": "MISSED"}),
    (ScheduleDetail, bodies.detail_json, "pause_reason", ODD_TEXT),
    (ScheduleDetail, bodies.detail_json, "next_fire_at", ODD_INSTANT),
    (ScheduleDetail, bodies.detail_json, "consecutive_failures", ODD_NUMBER),
    (ScheduleDetail, bodies.detail_json, "created_at", ODD_INSTANT),
    (ScheduleDetail, bodies.detail_json, "updated_at", ODD_INSTANT),
    (ScheduleDetail, bodies.detail_json, "last_outcome", "FAILED"),
    (LastOutcome, bodies.last_outcome_json, "reason_code", ODD_TEXT),
    (LastOutcome, bodies.last_outcome_json, "run_status", ODD_TEXT),
    (LastOutcome, bodies.last_outcome_json, "failure_reason", ODD_TEXT),
    (LastOutcome, bodies.last_outcome_json, "session_id", ODD_UUID),
    (LastOutcome, bodies.last_outcome_json, "needs_attention", "sometimes"),
    (ScheduleRevision, bodies.revision_json, "revision", ODD_NUMBER),
    (ScheduleRevision, bodies.revision_json, "agent_id", ODD_UUID),
    (ScheduleRevision, bodies.revision_json, "agent_version", ODD_TEXT),
    (ScheduleRevision, bodies.revision_json, "policy_profile", ODD_TEXT),
    (ScheduleRevision, bodies.revision_json, "requested_scopes", "browser.profile.read"),
    (ScheduleRevision, bodies.revision_json, "limits", [20, 20, 40]),
    (ScheduleRevision, bodies.revision_json, "run_timeout_seconds", ODD_NUMBER),
    (ScheduleRevision, bodies.revision_json, "cadence", "WEEKLY"),
    (ScheduleRevision, bodies.revision_json, "timezone", ODD_TEXT),
    (ScheduleRevision, bodies.revision_json, "misfire_grace_seconds", ODD_NUMBER),
    (ScheduleRevision, bodies.revision_json, "max_consecutive_failures", ODD_NUMBER),
    (ScheduleRevision, bodies.revision_json, "created_by_principal_id", ODD_TEXT),
    (ScheduleRevision, bodies.revision_json, "created_at", ODD_INSTANT),
    (Limits, bodies.limits_json, "max_steps", ODD_NUMBER),
    (Limits, bodies.limits_json, "max_model_calls", 2.5),
    (Limits, bodies.limits_json, "max_tool_calls", ODD_NUMBER),
    (Limits, bodies.limits_json, "max_cost", "five dollars"),
    (Limits, bodies.limits_json, "reserve_steps", ODD_NUMBER),
    (Limits, bodies.limits_json, "reserve_model_calls", ODD_NUMBER),
    (Limits, bodies.limits_json, "reserve_cost", "NaN"),
    (Cadence, bodies.cadence_json, "local_time", 800),
    (Cadence, bodies.cadence_json, "timezone", ODD_TEXT),
    (Cadence, bodies.cadence_json, "weekdays", "MWF"),
    (Cadence, bodies.monthly_cadence_json, "days_of_month", ["first"]),
    (Cadence, bodies.monthly_cadence_json, "last_day", ODD_TEXT),
    (Cadence, bodies.yearly_cadence_json, "dates", [{"month": "Feb"}]),
    (Cadence, bodies.once_cadence_json, "at", ODD_INSTANT),
    (Occurrence, bodies.occurrence_json, "schedule_revision", ODD_NUMBER),
    (Occurrence, bodies.occurrence_json, "nominal_fire_at", ODD_INSTANT),
    (Occurrence, bodies.occurrence_json, "session_id", ODD_UUID),
    (Occurrence, bodies.occurrence_json, "run_id", ODD_UUID),
    (Occurrence, bodies.occurrence_json, "reason_code", ODD_TEXT),
    (Occurrence, bodies.occurrence_json, "authority_version", ODD_TEXT),
    (Occurrence, bodies.occurrence_json, "materialized_at", ODD_INSTANT),
    (Occurrence, bodies.occurrence_json, "links_erased_at", ODD_INSTANT),
    (Occurrence, bodies.occurrence_json, "created_at", ODD_INSTANT),
    (SessionSummary, bodies.session_json, "folder_id", ODD_UUID),
]
IDS = [f"{model.__name__}.{field}" for model, _, field, _ in CASES]


def _without(body: dict[str, Any], field: str) -> dict[str, Any]:
    return {key: value for key, value in body.items() if key != field}


@pytest.mark.parametrize(("model", "sample", "field", "odd"), CASES, ids=IDS)
def test_optional_field_null_absent_or_malformed_degrades_alone(
    model: type[WireModel], sample: Sample, field: str, odd: object
) -> None:
    whole = model.model_validate(sample())
    for body, malformed in (
        (sample(**{field: None}), False),
        (_without(sample(), field), False),
        (sample(**{field: odd}), True),
    ):
        read = model.model_validate(body)
        assert getattr(read, field) is None
        assert read.unreadable(field) is malformed
        for other in type(whole).model_fields:
            if other != field:
                assert getattr(read, other) == getattr(whole, other), other


@pytest.mark.parametrize(
    ("model", "sample", "field"),
    [
        (ScheduleSummary, bodies.summary_json, "schedule_id"),
        (ScheduleSummary, bodies.summary_json, "title"),
        (ScheduleSummary, bodies.summary_json, "state"),
        (ScheduleDetail, bodies.detail_json, "schedule_id"),
        (ScheduleDetail, bodies.detail_json, "current_revision"),
        (ScheduleRevision, bodies.revision_json, "instruction"),
        (ScheduleRevision, bodies.revision_json, "browser_profile_id"),
        (Occurrence, bodies.occurrence_json, "occurrence_id"),
        (LastOutcome, bodies.last_outcome_json, "nominal_fire_at"),
        (LastOutcome, bodies.last_outcome_json, "disposition"),
        (SessionSummary, bodies.session_json, "session_id"),
        (Cadence, bodies.cadence_json, "kind"),
    ],
)
def test_identity_and_what_a_screen_needs_stay_strict(
    model: type[WireModel], sample: Sample, field: str
) -> None:
    with pytest.raises(ValidationError):
        model.model_validate(sample(**{field: {"not": "readable"}}))


def test_once_revision_without_a_zone_reads_with_its_instruction() -> None:
    revision = ScheduleRevision.model_validate(
        bodies.revision_json(cadence=bodies.once_cadence_json(), timezone=None)
    )
    assert revision.timezone is None
    assert not revision.unreadable("timezone")
    assert revision.instruction == bodies.INSTRUCTION


def test_unreadable_limit_and_cadence_field_keep_their_siblings() -> None:
    revision = ScheduleRevision.model_validate(
        bodies.revision_json(
            limits=bodies.limits_json(max_cost="1e5000000x"),
            cadence=bodies.cadence_json(weekdays=[1, "Wed"]),
        )
    )
    assert revision.limits is not None and revision.limits.max_cost is None
    assert revision.limits.unreadable("max_cost") and revision.limits.max_steps == 20
    assert revision.cadence is not None and revision.cadence.weekdays is None
    assert revision.cadence.timezone == "America/Los_Angeles"


@pytest.mark.parametrize(
    ("message", "details"),
    [(None, None), (42, "none"), ("refused", ["a"])],
    ids=["null", "wrong-types", "list-details"],
)
def test_error_envelope_keeps_its_code_whatever_message_and_details_are(
    message: object, details: object
) -> None:
    envelope = ErrorEnvelope.model_validate(
        {"error": {"code": "schedule.terminal", "message": message, "details": details}}
    )
    assert envelope.error.code == "schedule.terminal"
    assert envelope.error.message == (message if isinstance(message, str) else "")
    assert envelope.error.details == {}


@pytest.mark.parametrize("metadata", [None, "schedule", [1, 2], 7])
def test_session_metadata_that_is_not_an_object_reads_as_empty(metadata: object) -> None:
    session = SessionSummary.model_validate(bodies.session_json(metadata=metadata))
    assert session.metadata == {}
    assert session.schedule_id is None
