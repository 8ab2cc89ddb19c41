"""A list row from a ``ScheduleSummary``: every text decided here, none in the view."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from transport.models import ScheduleDetail, ScheduleSummary
from viewmodels.attention.outcome_words import attention_line
from viewmodels.formatting import (
    adjustment_text,
    cadence_summary,
    next_firing_text,
    pause_reason_text,
    state_label,
    state_tone,
)
from viewmodels.schedule_list.snapshot import ScheduleRow

WEBSITE_BADGE_TEXT = "Website access"


def schedule_row(
    summary: ScheduleSummary, now: datetime, device_zone: ZoneInfo, *, passed: str | None = None
) -> ScheduleRow:
    """The row for ``summary``; ``next_fire_at`` shows only when the server sent it.

    A next firing a clock change moved (or made the first of two) says so:
    "Next: 14 Mar 2027 at 03:00 (moved by the clock change)". ``passed`` is
    what a next firing that has passed reads instead of "due now" (a row
    shown from the device's copy: "due (as of 10:42)").
    """
    label = state_label(summary.state)
    reason = pause_reason_text(summary.state, summary.pause_reason)
    cadence = cadence_summary(summary.cadence, device_zone)
    next_fire = (
        next_firing_text(summary.next_fire_at, now, device_zone)
        if summary.next_fire_at is not None
        else None
    )
    if passed is not None and summary.next_fire_at is not None and summary.next_fire_at <= now:
        next_fire = f"Next: {passed}"
    adjusted = adjustment_text(summary.next_fire_adjustment)
    if next_fire is not None and adjusted is not None:
        next_fire = f"{next_fire} ({adjusted})"
    bound = summary.browser_profile_id is not None
    attention = attention_line(summary.last_outcome, now, device_zone)
    spoken = [summary.title, label if reason is None else f"{label}, {reason}", cadence]
    if attention:
        spoken.append(attention)
    if next_fire:
        spoken.append(next_fire)
    if bound:
        spoken.append(WEBSITE_BADGE_TEXT)
    return ScheduleRow(
        schedule_id=summary.schedule_id,
        title=summary.title,
        state=summary.state,
        state_label=label,
        state_tone=state_tone(summary.state),
        pause_reason_text=reason,
        cadence_summary=cadence,
        next_fire_at=summary.next_fire_at,
        next_fire_text=next_fire,
        preview=summary.instruction_preview,
        website_badge=WEBSITE_BADGE_TEXT if bound else None,
        attention_text=attention,
        accessibility_label=". ".join(spoken),
    )


def summary_of(detail: ScheduleDetail, instruction_preview: str) -> ScheduleSummary:
    """The list's view of a point read, with the preview the list already had.

    A point read carries every field of a list row except the bounded preview,
    which a website binding never changes.
    """
    return ScheduleSummary(
        schedule_id=detail.schedule_id,
        title=detail.title,
        state=detail.state,
        pause_reason=detail.pause_reason,
        current_revision=detail.current_revision,
        next_fire_at=detail.next_fire_at,
        next_fire_adjustment=detail.next_fire_adjustment,
        cadence=detail.revision.cadence,
        instruction_preview=instruction_preview,
        browser_profile_id=detail.revision.browser_profile_id,
        created_at=detail.created_at,
        updated_at=detail.updated_at,
        last_outcome=detail.last_outcome,
    )
