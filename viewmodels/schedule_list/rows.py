"""A list row from a ``ScheduleSummary``: every text decided here, none in the view."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from uuid import UUID
from zoneinfo import ZoneInfo

from transport.models import ScheduleDetail, ScheduleState, ScheduleSummary
from viewmodels.attention.ending import ended_sentence
from viewmodels.attention.outcome_words import attention_line
from viewmodels.attention.overdue_words import overdue_text
from viewmodels.formatting import (
    adjustment_text,
    cadence_summary,
    next_firing_text,
    pause_reason_text,
    state_label,
    state_tone,
)
from viewmodels.formatting.clock_text import in_named_zone, words_of
from viewmodels.formatting.joins import with_aside, with_clause
from viewmodels.language import N_
from viewmodels.schedule_list.search_match import highlighted
from viewmodels.schedule_list.snapshot import OPENED_ROW_TEXT, ScheduleRow

WEBSITE_BADGE_TEXT = N_("Website access")
INSTRUCTION_MATCH_TEXT = N_("Matches words further on in its instruction")
"""A searched row whose title and preview show none of the words: why it is listed."""
SIGN_IN_UNAVAILABLE_TEXT = N_("Website sign-in unavailable")


def schedule_row(
    summary: ScheduleSummary,
    now: datetime,
    device_zone: ZoneInfo,
    *,
    passed: str | None = None,
    unready_profiles: Callable[[UUID], bool] = lambda _profile_id: False,
    searched: str = "",
) -> ScheduleRow:
    """The row for ``summary``; ``next_fire_at`` shows only when the server sent it.

    A next firing a clock change moved (or made the first of two) says so:
    "Next: 14 Mar 2027 at 03:00 (moved by the clock change)". When the
    schedule's zone is not the device's, the next firing names both times:
    "Next: tomorrow at 07:30 (02:30 America/New_York)". An ended schedule says
    how and when it ended instead ("Cancelled on 3 Nov"). ``passed`` is
    what a next firing that has passed reads instead of "due now" (a row
    shown from the device's copy: "due (as of 10:42)"). A firing the server
    marks overdue reads "Overdue: due at 09:00 (12 min ago)" instead of "due
    now", as a warning (``next_fire_overdue``). An ACTIVE schedule
    whose bound sign-in ``unready_profiles`` names (not READY, or no longer
    listed) shows the warning chip "Website sign-in unavailable" instead of
    the ordinary one: its next run will not have that website. ``searched``
    (the search the row answers) marks the matched words of the title and
    preview; a row that shows none of them says its instruction matched.
    Every text is in the language of the locale ``device_zone`` carries.
    """
    words = words_of(device_zone)
    label = state_label(summary.state, words=words)
    reason = pause_reason_text(summary.state, summary.pause_reason, words=words)
    cadence = cadence_summary(summary.cadence, device_zone)
    zone = summary.cadence.timezone if summary.cadence is not None else None
    next_fire = None
    pair = None
    if summary.next_fire_at is not None:
        next_fire = next_firing_text(summary.next_fire_at, now, device_zone)
        if summary.next_fire_at > now:
            pair = in_named_zone(summary.next_fire_at, device_zone, zone)
    if passed is not None and summary.next_fire_at is not None and summary.next_fire_at <= now:
        next_fire = words.gettext("Next: {when}").format(when=passed)
    overdue = passed is None and summary.overdue_since is not None
    if summary.overdue_since is not None and overdue:
        next_fire = overdue_text(summary.overdue_since, now, device_zone)
    adjusted = None if overdue else adjustment_text(summary.next_fire_adjustment, words=words)
    if next_fire is not None and adjusted is not None:
        # One bracket: "(03:00 America/New_York, moved by the clock change)".
        pair = adjusted if pair is None else with_clause(pair, adjusted, words)
    if next_fire is not None:
        next_fire = with_aside(next_fire, pair, words)
    bound = summary.browser_profile_id is not None
    badge = words.gettext(WEBSITE_BADGE_TEXT) if bound else None
    warn = (
        summary.browser_profile_id is not None
        and summary.known_state is ScheduleState.ACTIVE
        and unready_profiles(summary.browser_profile_id)
    )
    if warn:
        badge = words.gettext(SIGN_IN_UNAVAILABLE_TEXT)
    attention = attention_line(summary.last_outcome, now, device_zone)
    ended = ended_sentence(
        summary.state,
        summary.updated_at,
        summary.cadence.known_kind if summary.cadence is not None else None,
        summary.last_outcome,
        now,
        device_zone,
    )
    spoken = [summary.title, label if reason is None else f"{label}, {reason}", cadence]
    if attention:
        spoken.append(attention)
    if next_fire:
        spoken.append(next_fire)
    if ended:
        spoken.append(ended)
    if badge:
        spoken.append(badge)
    title_spans = highlighted(summary.title, searched)
    preview_spans = highlighted(summary.instruction_preview, searched)
    shown_match = any(span.matched for span in (*title_spans, *preview_spans))
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
        next_fire_overdue=overdue,
        preview=summary.instruction_preview,
        website_badge=badge,
        website_warning=warn,
        attention_text=attention,
        ended_text=ended,
        accessibility_label=". ".join(spoken),
        title_spans=title_spans,
        preview_spans=preview_spans,
        match_text=(
            words.gettext(INSTRUCTION_MATCH_TEXT) if searched.strip() and not shown_match else None
        ),
        opened_text=words.gettext(OPENED_ROW_TEXT),
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
        overdue_since=detail.overdue_since,
    )
