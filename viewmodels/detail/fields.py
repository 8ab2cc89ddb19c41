"""The detail's text, from the point read's ``ScheduleDetail``."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from transport.models import ScheduleDetail
from viewmodels.detail.snapshot import LabelledValue, ScheduleDetailFields
from viewmodels.formatting import (
    cadence_summary,
    duration_text,
    instant_text_naming_zone,
    limit_lines,
    pause_reason_text,
    scopes_text,
    state_label,
)


def detail_fields(
    detail: ScheduleDetail, now: datetime, device_zone: ZoneInfo
) -> ScheduleDetailFields:
    """Every field DESIGN.md lists for the detail; the instruction is the complete one."""
    revision = detail.revision
    zone = revision.cadence.timezone
    failures = detail.consecutive_failures
    allowed = revision.max_consecutive_failures
    return ScheduleDetailFields(
        schedule_id=detail.schedule_id,
        title=revision.title,
        state=detail.state,
        state_label=state_label(detail.state),
        pause_reason_text=pause_reason_text(detail.state, detail.pause_reason),
        next_fire_text=(
            instant_text_naming_zone(detail.next_fire_at, device_zone, zone)
            if detail.next_fire_at is not None
            else None
        ),
        cadence_summary=cadence_summary(revision.cadence, device_zone),
        revision=detail.current_revision,
        revision_text=f"Revision {detail.current_revision}",
        instruction=revision.instruction,
        requested_scopes=tuple(revision.requested_scopes),
        scopes_text=scopes_text(revision.requested_scopes),
        agent_id=str(revision.agent_id),
        agent_version=revision.agent_version,
        agent_text=f"{revision.agent_id} (version {revision.agent_version})",
        policy_profile=revision.policy_profile,
        limits=tuple(LabelledValue(label, value) for label, value in limit_lines(revision.limits)),
        run_timeout_text=duration_text(revision.run_timeout_seconds),
        misfire_grace_text=duration_text(revision.misfire_grace_seconds),
        failure_policy_text=f"{failures} of {allowed} consecutive failures",
        created_text=instant_text_naming_zone(detail.created_at, device_zone, None),
        updated_text=instant_text_naming_zone(detail.updated_at, device_zone, None),
        browser_profile_id=revision.browser_profile_id,
    )
