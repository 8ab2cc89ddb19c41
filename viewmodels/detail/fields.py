"""The detail's text, from the point read's ``ScheduleDetail``, in its display groups.

A field the server left out or sent unreadable shows "Not available" on its
own line; the rest of the detail renders. The state is the heading's chip
alone (never a chip and a line); an ended schedule says how and when it
ended, a paused one why and how to get it resumed (``pause_help``). The technical fields the
seed requires (revision, failure policy, scopes, agent, policy, limits) sit
in one "Advanced" group, each with a line saying what it means; the group
starts folded, on a wide window as on a phone.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from transport.models import ScheduleDetail, ScheduleState
from viewmodels.attention.ending import ended_sentence
from viewmodels.attention.outcome_words import last_firing_text
from viewmodels.attention.overdue_words import overdue_explanation, overdue_text
from viewmodels.detail.explanations import ADVANCED_HEADING, explanation
from viewmodels.detail.pause_help import pause_help
from viewmodels.detail.snapshot import (
    DetailGroup,
    GroupKind,
    LabelledValue,
    ScheduleDetailFields,
)
from viewmodels.formatting import (
    NOT_AVAILABLE_TEXT,
    adjustment_text,
    available,
    cadence_summary,
    duration_text,
    instant_text_naming_zone,
    limit_lines,
    pause_reason_text,
    scopes_text,
    state_label,
    state_tone,
)
from viewmodels.formatting.clock_text import minute_text_naming_device_zone
from viewmodels.server_kind import ServerKind

INSTRUCTION_HEADING = "Instruction"
WEBSITE_ACCESS_HEADING = "Website access"
CALENDAR_HEADING = "Calendar"
NO_NEXT_FIRING = "None scheduled"
ENDED_NEXT_FIRING = "None: the schedule has ended"
LAST_FIRING_LABEL = "Last firing"
ENDED_LABEL = "Ended"


def detail_fields(
    detail: ScheduleDetail,
    device_zone: ZoneInfo,
    *,
    passed: str | None = None,
    now: datetime | None = None,
    server: ServerKind = ServerKind.PLATFORM,
) -> ScheduleDetailFields:
    """Every field the detail shows (viewmodels/README.md); the instruction is the complete one.

    ``passed`` (with ``now``) is what a next firing before ``now`` reads on
    the device's copy ("due (as of 10:42)"), never a guessed later one. A
    firing the server marks overdue reads "Overdue: due at 09:00 (12 min
    ago)", a warning, with what it means beneath.
    ``server`` says where a paused schedule is resumed.
    """
    revision = detail.revision
    label = state_label(detail.state)
    reason = pause_reason_text(detail.state, detail.pause_reason)
    paused = detail.known_state is ScheduleState.PAUSED
    if reason is None and paused and detail.unreadable("pause_reason"):
        reason = NOT_AVAILABLE_TEXT
    zone = revision.cadence.timezone if revision.cadence is not None else None
    ended = ended_sentence(
        detail.state,
        detail.updated_at,
        revision.cadence.known_kind if revision.cadence is not None else None,
        detail.last_outcome,
        now,
        device_zone,
    )

    def when(instant: datetime) -> str:
        return minute_text_naming_device_zone(instant, device_zone)

    schedule = DetailGroup(
        "Schedule",
        lines=(
            *((LabelledValue(ENDED_LABEL, ended),) if ended is not None else ()),
            (None if passed is not None else _overdue_line(detail, device_zone, now))
            or LabelledValue(
                "Next firing",
                passed
                if passed is not None
                and now is not None
                and detail.next_fire_at is not None
                and detail.next_fire_at <= now
                else _next_firing(detail, device_zone, zone, ended=ended is not None),
            ),
            LabelledValue(LAST_FIRING_LABEL, _last_firing(detail, device_zone)),
            LabelledValue("Cadence", cadence_summary(revision.cadence, device_zone)),
            LabelledValue("Created", available(detail.created_at, when)),
            LabelledValue("Updated", available(detail.updated_at, when)),
        ),
    )
    failures, allowed = detail.consecutive_failures, revision.max_consecutive_failures
    agent_id = available(revision.agent_id, str)
    agent_version = available(revision.agent_version, str)
    technical = (
        ("Revision", str(detail.current_revision)),
        (
            "Failure policy",
            f"{failures} of {allowed} consecutive failures"
            if failures is not None and allowed is not None
            else NOT_AVAILABLE_TEXT,
        ),
        ("Requested scopes", scopes_text(revision.requested_scopes)),
        ("Agent", f"{agent_id} (version {agent_version})" if revision.agent_id else agent_id),
        ("Policy profile", available(revision.policy_profile, str)),
        *limit_lines(revision.limits),
        ("Run timeout", available(revision.run_timeout_seconds, duration_text)),
        ("Misfire grace", available(revision.misfire_grace_seconds, duration_text)),
    )
    advanced = DetailGroup(
        ADVANCED_HEADING,
        lines=tuple(LabelledValue(name, value, explanation(name)) for name, value in technical),
        starts_folded=True,
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
            advanced,
        ),
        ended_text=ended,
        pause=pause_help(detail, device_zone, server),
    )


def _overdue_line(
    detail: ScheduleDetail, device_zone: ZoneInfo, now: datetime | None
) -> LabelledValue | None:
    """The overdue firing's line, when the server says it is overdue."""
    if detail.overdue_since is None or now is None:
        return None
    return LabelledValue(
        "Next firing",
        overdue_text(detail.overdue_since, now, device_zone),
        overdue_explanation(detail.revision.misfire_grace_seconds),
        warning=True,
    )


def _next_firing(
    detail: ScheduleDetail, device_zone: ZoneInfo, zone: str | None, *, ended: bool
) -> str:
    if detail.unreadable("next_fire_at"):
        return NOT_AVAILABLE_TEXT
    if detail.next_fire_at is None:
        return ENDED_NEXT_FIRING if ended else NO_NEXT_FIRING
    text = instant_text_naming_zone(detail.next_fire_at, device_zone, zone)
    adjusted = adjustment_text(detail.next_fire_adjustment)
    return text if adjusted is None else f"{text}, {adjusted}"


def _last_firing(detail: ScheduleDetail, device_zone: ZoneInfo) -> str:
    if detail.unreadable("last_outcome"):
        return NOT_AVAILABLE_TEXT
    return last_firing_text(detail.last_outcome, device_zone)
