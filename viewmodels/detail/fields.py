"""The detail's text, from the point read's ``ScheduleDetail``."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from transport.models import ScheduleDetail
from viewmodels.detail.snapshot import LabelledValue, ScheduleDetailFields
from viewmodels.formatting import (
    NOT_AVAILABLE_TEXT,
    available,
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
    """Every field DESIGN.md lists for the detail; the instruction is the complete one.

    A field the server left out or sent unreadable shows "Not available".
    """
    revision = detail.revision
    zone = revision.cadence.timezone if revision.cadence is not None else None
    failures = detail.consecutive_failures
    allowed = revision.max_consecutive_failures
    agent_id = available(revision.agent_id, str)
    agent_version = available(revision.agent_version, str)
    pause_reason = pause_reason_text(detail.state, detail.pause_reason)
    if pause_reason is None and detail.state == "PAUSED" and detail.unreadable("pause_reason"):
        pause_reason = NOT_AVAILABLE_TEXT
    next_fire = (
        instant_text_naming_zone(detail.next_fire_at, device_zone, zone)
        if detail.next_fire_at is not None
        else None
    )
    if detail.unreadable("next_fire_at"):
        next_fire = NOT_AVAILABLE_TEXT
    return ScheduleDetailFields(
        schedule_id=detail.schedule_id,
        title=revision.title,
        state=detail.state,
        state_label=state_label(detail.state),
        pause_reason_text=pause_reason,
        next_fire_text=next_fire,
        cadence_summary=cadence_summary(revision.cadence, device_zone),
        revision=detail.current_revision,
        revision_text=f"Revision {detail.current_revision}",
        instruction=revision.instruction,
        requested_scopes=tuple(revision.requested_scopes or ()),
        scopes_text=scopes_text(revision.requested_scopes),
        agent_id=agent_id,
        agent_version=agent_version,
        agent_text=f"{agent_id} (version {agent_version})" if revision.agent_id else agent_id,
        policy_profile=available(revision.policy_profile, str),
        limits=tuple(LabelledValue(label, value) for label, value in limit_lines(revision.limits)),
        run_timeout_text=available(revision.run_timeout_seconds, duration_text),
        misfire_grace_text=available(revision.misfire_grace_seconds, duration_text),
        failure_policy_text=(
            f"{failures} of {allowed} consecutive failures"
            if failures is not None and allowed is not None
            else NOT_AVAILABLE_TEXT
        ),
        created_text=available(
            detail.created_at, lambda at: instant_text_naming_zone(at, device_zone, None)
        ),
        updated_text=available(
            detail.updated_at, lambda at: instant_text_naming_zone(at, device_zone, None)
        ),
        browser_profile_id=revision.browser_profile_id,
    )
