"""A schedule's last firing in the app's own words: the row's warning line, the detail's line.

The server says what became of the latest firing (``last_outcome``: the
disposition, a stable reason code, the run's status and failure reason) and
whether it needs attention. These functions turn that into one sentence a
person can act on, in the device zone: "Missed at 02:30: the server was down
past the grace", "Refused: the schedule's owner lost a scope it asks for",
"Run failed: it ran past its deadline". A code this client does not know is
humanized inside a generic sentence, never shown raw and never dropped.
Nothing here reads the instruction, so a notice built from these words
cannot leak it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from transport.models import Disposition, LastOutcome, RunStatus
from viewmodels.formatting import date_text, humanize, instant_text
from viewmodels.formatting.clock_text import clock_time

NEVER_FIRED_TEXT = "Never fired"

_REFUSALS = {
    "principal_unknown": "the schedule's owner is no longer known to the server",
    "principal_disabled": "the schedule's owner is disabled",
    "scope_revoked": "the schedule's owner lost a scope it asks for",
    "scope_not_granted": "the schedule's owner lost a scope it asks for",
    "authority_changed": "the owner's permissions changed since the schedule was saved",
}
_NOT_RUN = {
    "definition_invalid": "its saved definition is no longer valid",
    "agent_version_missing": "its agent version is no longer available",
}
_RUN_FAILURES = {
    "deadline_exceeded": "it ran past its deadline",
}


def firing_moment(at: datetime, now: datetime, zone: ZoneInfo) -> str:
    """ "02:30" today, "yesterday at 02:30", else "28 Nov 2026 at 02:30" (device zone)."""
    local = at.astimezone(zone)
    time = clock_time(local.hour, local.minute, local.second)
    today = now.astimezone(zone).date()
    if local.date() == today:
        return time
    if local.date() == today - timedelta(days=1):
        return f"yesterday at {time}"
    return f"{date_text(local)} at {time}"


def outcome_sentence(outcome: LastOutcome, at: str) -> str:
    """What became of the latest firing (``at``: its instant in words), needing attention or not."""
    code = outcome.reason_code
    disposition = outcome.known_disposition
    if disposition is Disposition.MISSED:
        return f"Missed at {at}: the server was down past the grace"
    if disposition is Disposition.SKIPPED_OVERLAP:
        return f"Skipped at {at}: the previous run was still going"
    if disposition is Disposition.AUTHORIZATION_FAILED:
        why = _REFUSALS.get(code or "") or _unknown_reason(code, "permission check failed")
        return f"Refused at {at}: {why}"
    if disposition is Disposition.CONFIGURATION_FAILED:
        why = _NOT_RUN.get(code or "") or _unknown_reason(code, "its definition could not be used")
        return f"Not run at {at}: {why}"
    if disposition is Disposition.MATERIALIZED:
        return _run_sentence(outcome, at)
    unknown = humanize(outcome.disposition).lower()
    return f"The firing at {at} did not run as planned ({unknown})"


def attention_line(outcome: LastOutcome | None, now: datetime, zone: ZoneInfo) -> str | None:
    """The row's warning line: only for an outcome the server says needs attention."""
    if outcome is None or outcome.needs_attention is not True:
        return None
    return outcome_sentence(outcome, firing_moment(outcome.nominal_fire_at, now, zone))


def last_firing_text(outcome: LastOutcome | None, zone: ZoneInfo) -> str:
    """The detail's "Last firing" line; its instant is a full date, as the detail's others are."""
    if outcome is None:
        return NEVER_FIRED_TEXT
    return outcome_sentence(outcome, instant_text(outcome.nominal_fire_at, zone))


def _run_sentence(outcome: LastOutcome, at: str) -> str:
    status = outcome.known_run_status
    if status is RunStatus.FAILED:
        reason = outcome.failure_reason
        why = _RUN_FAILURES.get(reason or "") or _unknown_reason(reason, "it stopped with an error")
        return f"Run failed: {why} (fired at {at})"
    if status is RunStatus.COMPLETED:
        return f"Ran at {at}"
    if status is RunStatus.CANCELLED:
        return f"Fired at {at}; the run was cancelled"
    if status is RunStatus.QUEUED or status is RunStatus.RUNNING:
        return f"Fired at {at}; the run is {status.lower()}"
    return f"Fired at {at}"


def _unknown_reason(code: str | None, generic: str) -> str:
    return generic if not code else f"{generic} ({humanize(code).lower()})"
