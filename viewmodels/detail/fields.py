"""The detail's text, from the point read's ``ScheduleDetail``, in its display groups."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from transport.models import ScheduleDetail
from viewmodels.detail.snapshot import DetailGroup, GroupKind, LabelledValue, ScheduleDetailFields
from viewmodels.formatting import (
    cadence_summary,
    duration_text,
    instant_text,
    instant_text_naming_zone,
    limit_lines,
    pause_reason_text,
    scopes_text,
    state_label,
)

INSTRUCTION_HEADING = "Instruction"
WEBSITE_ACCESS_HEADING = "Website access"
NO_NEXT_FIRING = "None scheduled"


def detail_fields(detail: ScheduleDetail, device_zone: ZoneInfo) -> ScheduleDetailFields:
    """Every field DESIGN.md lists for the detail; the instruction is the complete one."""
    revision = detail.revision
    label = state_label(detail.state)
    reason = pause_reason_text(detail.state, detail.pause_reason)
    next_firing = (
        instant_text_naming_zone(detail.next_fire_at, device_zone, revision.cadence.timezone)
        if detail.next_fire_at is not None
        else NO_NEXT_FIRING
    )
    schedule = DetailGroup(
        "Schedule",
        lines=(
            LabelledValue("State", label if reason is None else f"{label} ({reason})"),
            LabelledValue("Next firing", next_firing),
            LabelledValue("Cadence", cadence_summary(revision.cadence, device_zone)),
            LabelledValue("Revision", str(detail.current_revision)),
        ),
    )
    limits = DetailGroup(
        "Execution limits",
        lines=(
            *(LabelledValue(name, value) for name, value in limit_lines(revision.limits)),
            LabelledValue("Run timeout", duration_text(revision.run_timeout_seconds)),
            LabelledValue("Misfire grace", duration_text(revision.misfire_grace_seconds)),
        ),
    )
    authority = DetailGroup(
        "Authority",
        lines=(
            LabelledValue("Requested scopes", scopes_text(revision.requested_scopes)),
            LabelledValue("Agent", f"{revision.agent_id} (version {revision.agent_version})"),
            LabelledValue("Policy profile", revision.policy_profile),
        ),
    )
    failures = detail.consecutive_failures
    allowed = revision.max_consecutive_failures
    lifecycle = DetailGroup(
        "Lifecycle",
        lines=(
            LabelledValue("Failure policy", f"{failures} of {allowed} consecutive failures"),
            LabelledValue("Created", instant_text(detail.created_at, device_zone)),
            LabelledValue("Updated", instant_text(detail.updated_at, device_zone)),
        ),
    )
    return ScheduleDetailFields(
        schedule_id=detail.schedule_id,
        title=revision.title,
        state=detail.state,
        state_label=label,
        pause_reason_text=reason,
        revision=detail.current_revision,
        instruction=revision.instruction,
        groups=(
            schedule,
            DetailGroup(INSTRUCTION_HEADING, GroupKind.INSTRUCTION),
            DetailGroup(WEBSITE_ACCESS_HEADING, GroupKind.WEBSITE_ACCESS),
            limits,
            authority,
            lifecycle,
        ),
    )
