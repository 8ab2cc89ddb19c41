"""What a paused schedule's detail says the person can do, since this app never resumes one.

The app stays read-only: it names the platform's own way to resume (asking
their agent to resume the schedule by name, with the name and id ready to
copy) and what to check first (the last failure, its session one tap away).
On the embedded demo server there is no agent to ask, and the words say so,
in the language of the locale the display zone carries.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from transport.models import Disposition, RunStatus, ScheduleDetail, ScheduleState
from viewmodels.attention.outcome_words import outcome_sentence
from viewmodels.detail.snapshot import PauseHelp
from viewmodels.formatting import instant_text
from viewmodels.formatting.clock_text import words_of
from viewmodels.language import N_, Words
from viewmodels.server_kind import ServerKind

FAILED_SESSION_LABEL = N_("Open the failed firing's session")
COPY_NAME_AND_ID_LABEL = N_("Copy name and id")
NAME_AND_ID_COPIED_TEXT = N_("Name and id copied")
CHECK_FIRST_TEXT = N_("Check the last failure first: resuming it unchanged may fail the same way.")


def pause_help(
    detail: ScheduleDetail, device_zone: ZoneInfo, server: ServerKind
) -> PauseHelp | None:
    """Why it is paused and what to do: the last failure and its session, how to resume it.

    The failure is the server's ``last_outcome`` when it is one (a refusal, a
    firing not run, a run that failed); a schedule paused by its owner has
    only the way to resume it.
    """
    if detail.known_state is not ScheduleState.PAUSED:
        return None
    words = words_of(device_zone)
    outcome = detail.last_outcome
    failed = outcome is not None and (
        outcome.known_disposition is not Disposition.MATERIALIZED
        or outcome.known_run_status is RunStatus.FAILED
    )
    failure = None
    session = None
    if outcome is not None and failed:
        at = instant_text(outcome.nominal_fire_at, device_zone)
        failure = outcome_sentence(outcome, at, words=words)
        session = outcome.session_id
    title = detail.revision.title
    # Translators: copied for the person to hand their agent; {title} is the schedule's
    # title, {schedule_id} its id.
    copy_text = words.gettext("“{title}” (schedule id {schedule_id})")
    return PauseHelp(
        failure_text=failure,
        session_id=session,
        session_label=words.gettext(FAILED_SESSION_LABEL) if session is not None else None,
        resume_text=resume_text(title, server, words=words),
        check_first_text=words.gettext(CHECK_FIRST_TEXT) if failure is not None else None,
        copy_label=words.gettext(COPY_NAME_AND_ID_LABEL),
        copy_text=copy_text.format(title=title, schedule_id=detail.schedule_id),
        copied_text=words.gettext(NAME_AND_ID_COPIED_TEXT),
    )


def resume_text(title: str, server: ServerKind, *, words: Words) -> str:
    """How the person gets the schedule resumed, in their terms (never in this app)."""
    if server is ServerKind.EMBEDDED:
        # Translators: {title} is the schedule's title.
        text = words.gettext(
            "On an agent platform you would ask your agent to resume “{title}” by name;"
            " this demo server has no agent, so it stays paused."
        )
    else:
        # Translators: {title} is the schedule's title; "below" is the Copy name and id button.
        text = words.gettext(
            "To resume it, ask your agent to resume “{title}” (copy its name and id below),"
            " or use the agent platform's own tools."
        )
    return text.format(title=title)
