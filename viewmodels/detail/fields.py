"""The detail's text, from the point read's ``ScheduleDetail``, in its display groups.

A field the server left out or sent unreadable shows "Not available" on its
own line; the rest of the detail renders. The state is the heading's chip
alone (never a chip and a line); an ended schedule says how and when it
ended, a paused one why and how to get it resumed (``pause_help``). The technical fields the
seed requires (revision, failure policy, scopes, agent, policy, limits) sit
in one "Advanced" group, each with a line saying what it means; the group
starts folded, on a wide window as on a phone. Labels are English here
(marked ``N_``) and shown in the language of the locale the display zone carries.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from transport.models import ScheduleDetail, ScheduleState
from viewmodels.attention.ending import ended_sentence
from viewmodels.attention.outcome_words import last_firing_text
from viewmodels.attention.overdue_words import overdue_explanation, overdue_text
from viewmodels.detail.explanations import ADVANCED_HEADING, meaning
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
from viewmodels.formatting.clock_text import locale_of, minute_text_naming_device_zone, words_of
from viewmodels.formatting.joins import with_clause
from viewmodels.language import N_, Words
from viewmodels.server_kind import ServerKind

SCHEDULE_HEADING = N_("Schedule")
INSTRUCTION_HEADING = N_("Instruction")
WEBSITE_ACCESS_HEADING = N_("Website access")
CALENDAR_HEADING = N_("Calendar")
NEXT_FIRING_LABEL = N_("Next firing")
NO_NEXT_FIRING = N_("None scheduled")
ENDED_NEXT_FIRING = N_("None: the schedule has ended")
LAST_FIRING_LABEL = N_("Last firing")
ENDED_LABEL = N_("Ended")
CADENCE_LABEL = N_("Cadence")
CREATED_LABEL = N_("Created")
UPDATED_LABEL = N_("Updated")


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
    words = words_of(device_zone)
    revision = detail.revision
    label = state_label(detail.state, words=words)
    reason = pause_reason_text(detail.state, detail.pause_reason, words=words)
    paused = detail.known_state is ScheduleState.PAUSED
    if reason is None and paused and detail.unreadable("pause_reason"):
        reason = words.gettext(NOT_AVAILABLE_TEXT)
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

    def spent(seconds: int) -> str:
        return duration_text(seconds, words=words)

    schedule = DetailGroup(
        words.gettext(SCHEDULE_HEADING),
        lines=(
            *((LabelledValue(words.gettext(ENDED_LABEL), ended),) if ended is not None else ()),
            (None if passed is not None else _overdue_line(detail, device_zone, now))
            or LabelledValue(
                words.gettext(NEXT_FIRING_LABEL),
                passed
                if passed is not None
                and now is not None
                and detail.next_fire_at is not None
                and detail.next_fire_at <= now
                else _next_firing(detail, device_zone, zone, ended=ended is not None),
            ),
            LabelledValue(words.gettext(LAST_FIRING_LABEL), _last_firing(detail, device_zone)),
            LabelledValue(
                words.gettext(CADENCE_LABEL), cadence_summary(revision.cadence, device_zone)
            ),
            LabelledValue(
                words.gettext(CREATED_LABEL), available(detail.created_at, when, words=words)
            ),
            LabelledValue(
                words.gettext(UPDATED_LABEL), available(detail.updated_at, when, words=words)
            ),
        ),
    )
    failures, allowed = detail.consecutive_failures, revision.max_consecutive_failures
    agent_id = available(revision.agent_id, str, words=words)
    agent_version = available(revision.agent_version, str, words=words)
    if revision.agent_id:
        # Translators: {agent} is the agent's id, {version} its version.
        agent = words.gettext("{agent} (version {version})")
        agent_id = agent.format(agent=agent_id, version=agent_version)
    technical = (
        (words.gettext("Revision"), str(detail.current_revision)),
        (words.gettext("Failure policy"), _failure_policy(failures, allowed, words)),
        (words.gettext("Requested scopes"), scopes_text(revision.requested_scopes, words=words)),
        (words.gettext("Agent"), agent_id),
        (words.gettext("Policy profile"), available(revision.policy_profile, str, words=words)),
        *limit_lines(revision.limits, locale=locale_of(device_zone)),
        (
            words.gettext("Run timeout"),
            available(revision.run_timeout_seconds, spent, words=words),
        ),
        (
            words.gettext("Misfire grace"),
            available(revision.misfire_grace_seconds, spent, words=words),
        ),
    )
    advanced = DetailGroup(
        words.gettext(ADVANCED_HEADING),
        lines=tuple(LabelledValue(name, value, meaning(name, words)) for name, value in technical),
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
            DetailGroup(words.gettext(INSTRUCTION_HEADING), GroupKind.INSTRUCTION),
            DetailGroup(words.gettext(WEBSITE_ACCESS_HEADING), GroupKind.WEBSITE_ACCESS),
            DetailGroup(words.gettext(CALENDAR_HEADING), GroupKind.CALENDAR),
            advanced,
        ),
        ended_text=ended,
        pause=pause_help(detail, device_zone, server),
    )


def _failure_policy(failures: int | None, allowed: int | None, words: Words) -> str:
    """ "1 of 3 consecutive failures": failed firings in a row, of how many pause it."""
    if failures is None or allowed is None:
        return words.gettext(NOT_AVAILABLE_TEXT)
    # Translators: {failures} failed firings in a row so far, of the {allowed} that
    # pause the schedule; the form follows {allowed}.
    policy = words.ngettext(
        "{failures} of {allowed} consecutive failures",
        "{failures} of {allowed} consecutive failures",
        allowed,
    )
    return policy.format(failures=failures, allowed=allowed)


def _overdue_line(
    detail: ScheduleDetail, device_zone: ZoneInfo, now: datetime | None
) -> LabelledValue | None:
    """The overdue firing's line, when the server says it is overdue."""
    if detail.overdue_since is None or now is None:
        return None
    words = words_of(device_zone)
    return LabelledValue(
        words.gettext(NEXT_FIRING_LABEL),
        overdue_text(detail.overdue_since, now, device_zone),
        overdue_explanation(detail.revision.misfire_grace_seconds, words=words),
        warning=True,
    )


def _next_firing(
    detail: ScheduleDetail, device_zone: ZoneInfo, zone: str | None, *, ended: bool
) -> str:
    words = words_of(device_zone)
    if detail.unreadable("next_fire_at"):
        return words.gettext(NOT_AVAILABLE_TEXT)
    if detail.next_fire_at is None:
        return words.gettext(ENDED_NEXT_FIRING if ended else NO_NEXT_FIRING)
    text = instant_text_naming_zone(detail.next_fire_at, device_zone, zone)
    adjusted = adjustment_text(detail.next_fire_adjustment, words=words)
    if adjusted is None:
        return text
    return with_clause(text, adjusted, words)


def _last_firing(detail: ScheduleDetail, device_zone: ZoneInfo) -> str:
    if detail.unreadable("last_outcome"):
        return words_of(device_zone).gettext(NOT_AVAILABLE_TEXT)
    return last_firing_text(detail.last_outcome, device_zone)
