"""The detail's text, from the point read's ``ScheduleDetail``, in its display groups.

A field the server left out or sent unreadable shows "Not available" on its
own line; the rest of the detail renders.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from transport.models import ScheduleDetail
from viewmodels.attention.outcome_words import last_firing_text
from viewmodels.detail.snapshot import DetailGroup, GroupKind, LabelledValue, ScheduleDetailFields
from viewmodels.formatting import (
    NOT_AVAILABLE_TEXT,
    adjustment_text,
    available,
    cadence_summary,
    duration_text,
    instant_text,
    instant_text_naming_zone,
    limit_lines,
    pause_reason_text,
    scopes_text,
    state_label,
    state_tone,
)

INSTRUCTION_HEADING = "Instruction"
WEBSITE_ACCESS_HEADING = "Website access"
CALENDAR_HEADING = "Calendar"
NO_NEXT_FIRING = "None scheduled"
LAST_FIRING_LABEL = "Last firing"


def detail_fields(
    detail: ScheduleDetail,
    device_zone: ZoneInfo,
    *,
    passed: str | None = None,
    now: datetime | None = None,
) -> ScheduleDetailFields:
    """Every field the detail shows (viewmodels/README.md); the instruction is the complete one.

    ``passed`` (with ``now``) is what a next firing before ``now`` reads on
    the device's copy ("due (as of 10:42)"), never a guessed later one.
    """
    revision = detail.revision
    label = state_label(detail.state)
    reason = pause_reason_text(detail.state, detail.pause_reason)
    if reason is None and detail.state == "PAUSED" and detail.unreadable("pause_reason"):
        reason = NOT_AVAILABLE_TEXT
    zone = revision.cadence.timezone if revision.cadence is not None else None

    def in_device_zone(instant: datetime) -> str:
        return instant_text(instant, device_zone)

    schedule = DetailGroup(
        "Schedule",
        lines=(
            LabelledValue("State", label if reason is None else f"{label} ({reason})"),
            LabelledValue(
                "Next firing",
                passed
                if passed is not None
                and now is not None
                and detail.next_fire_at is not None
                and detail.next_fire_at <= now
                else _next_firing(detail, device_zone, zone),
            ),
            LabelledValue(LAST_FIRING_LABEL, _last_firing(detail, device_zone)),
            LabelledValue("Cadence", cadence_summary(revision.cadence, device_zone)),
            LabelledValue("Revision", str(detail.current_revision)),
        ),
    )
    limits = DetailGroup(
        "Execution limits",
        lines=(
            *(LabelledValue(name, value) for name, value in limit_lines(revision.limits)),
            LabelledValue("Run timeout", available(revision.run_timeout_seconds, duration_text)),
            LabelledValue(
                "Misfire grace", available(revision.misfire_grace_seconds, duration_text)
            ),
        ),
    )
    agent_id = available(revision.agent_id, str)
    agent_version = available(revision.agent_version, str)
    authority = DetailGroup(
        "Authority",
        lines=(
            LabelledValue("Requested scopes", scopes_text(revision.requested_scopes)),
            LabelledValue(
                "Agent",
                f"{agent_id} (version {agent_version})" if revision.agent_id else agent_id,
            ),
            LabelledValue("Policy profile", available(revision.policy_profile, str)),
        ),
    )
    failures, allowed = detail.consecutive_failures, revision.max_consecutive_failures
    lifecycle = DetailGroup(
        "Lifecycle",
        lines=(
            LabelledValue(
                "Failure policy",
                f"{failures} of {allowed} consecutive failures"
                if failures is not None and allowed is not None
                else NOT_AVAILABLE_TEXT,
            ),
            LabelledValue("Created", available(detail.created_at, in_device_zone)),
            LabelledValue("Updated", available(detail.updated_at, in_device_zone)),
        ),
    )
    return ScheduleDetailFields(
        schedule_id=detail.schedule_id,
        title=revision.title,
        state=detail.state,
        state_label=label,
        state_tone=state_tone(detail.state),
        pause_reason_text=reason,
        revision=detail.current_revision,
        instruction=revision.instruction,
        groups=(
            schedule,
            DetailGroup(INSTRUCTION_HEADING, GroupKind.INSTRUCTION),
            DetailGroup(WEBSITE_ACCESS_HEADING, GroupKind.WEBSITE_ACCESS),
            DetailGroup(CALENDAR_HEADING, GroupKind.CALENDAR),
            limits,
            authority,
            lifecycle,
        ),
    )


def _next_firing(detail: ScheduleDetail, device_zone: ZoneInfo, zone: str | None) -> str:
    if detail.unreadable("next_fire_at"):
        return NOT_AVAILABLE_TEXT
    if detail.next_fire_at is None:
        return NO_NEXT_FIRING
    text = instant_text_naming_zone(detail.next_fire_at, device_zone, zone)
    adjusted = adjustment_text(detail.next_fire_adjustment)
    return text if adjusted is None else f"{text}, {adjusted}"


def _last_firing(detail: ScheduleDetail, device_zone: ZoneInfo) -> str:
    if detail.unreadable("last_outcome"):
        return NOT_AVAILABLE_TEXT
    return last_firing_text(detail.last_outcome, device_zone)
