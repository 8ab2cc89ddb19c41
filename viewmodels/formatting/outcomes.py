"""What became of a past firing, in one set of words and marks for every screen.

A past firing is a recorded disposition (or nothing recorded), a stable reason
code, and for a firing that materialized the run's status and failure reason.
The calendar, the agenda, a row's last-outcome line and Needs attention all say
it through these functions, so each outcome has one phrase and one verb for a
firing that happened ("Ran", never "fired"): "Ran", "Run failed at 02:30: it
ran past its deadline", "Missed: the server was down", "Skipped: the previous
run was still going", "Not fired: nothing was recorded (the scheduler was not
running)" for an instant the server expected, "No record". A failed run is
never a success. Values this client does not know are humanized inside a
generic sentence, never shown raw and never dropped. ``at`` (the firing's
instant in words) gives the timed form.
"""

from __future__ import annotations

from dataclasses import dataclass

from transport.models import Disposition, RunStatus, known_member
from viewmodels.formatting.labels import humanize
from viewmodels.formatting.marks import MarkKind

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
    "cadence_unreadable": "its cadence could not be read",
    "materialization_failed": "the server could not start its run",
}
_MISSED = {
    "active_run_limit": "too many of its owner's runs were already going",
}
_RUN_FAILURES = {
    "deadline_exceeded": "it ran past its deadline",
    "executor_error": "the agent stopped with an error",
    "executor_refused": "the agent refused the run",
    "executor_answer_invalid": "the agent's answer could not be read",
    "browser_profile_unavailable": "its browser sign-in was not available",
}


@dataclass(frozen=True, slots=True)
class _Words:
    """One outcome's sentence, alone and with the firing's instant (``{at}``)."""

    alone: str
    timed: str
    mark: MarkKind


_RAN = _Words("Ran", "Ran at {at}", MarkKind.RAN)
_QUEUED = _Words("Waiting to run", "Waiting to run since {at}", MarkKind.RUNNING)
_RUNNING = _Words("Running", "Running since {at}", MarkKind.RUNNING)
_CANCELLED = _Words("Run cancelled", "Run cancelled at {at}", MarkKind.FAILED)
_FAILED = _Words("Run failed: {why}", "Run failed at {at}: {why}", MarkKind.FAILED)
_RUN_ELSE = _Words("Ran; its run is {status}", "Ran at {at}; its run is {status}", MarkKind.RAN)
_MISSED_WORDS = _Words(
    "Missed: the server was down", "Missed at {at}: the server was down", MarkKind.MISSED
)
_MISSED_WHY = _Words("Missed: {why}", "Missed at {at}: {why}", MarkKind.MISSED)
_SKIPPED = _Words(
    "Skipped: the previous run was still going",
    "Skipped at {at}: the previous run was still going",
    MarkKind.SKIPPED,
)
_REFUSED = _Words("Refused: {why}", "Refused at {at}: {why}", MarkKind.REFUSED)
_NOT_RUN_WORDS = _Words("Not run: {why}", "Not run at {at}: {why}", MarkKind.NOT_RUN)
_UNKNOWN = _Words(
    "Did not run as planned ({unknown})",
    "The firing at {at} did not run as planned ({unknown})",
    MarkKind.NOT_RUN,
)
_NO_RECORD = _Words("No record", "No record of the firing at {at}", MarkKind.NO_RECORD)
_NOT_FIRED = _Words(
    "Not fired: nothing was recorded (the scheduler was not running)",
    "Not fired: nothing was recorded (the scheduler was not running at {at})",
    MarkKind.NOT_FIRED,
)
_RUN_STATUSES = {
    RunStatus.COMPLETED: _RAN,
    RunStatus.QUEUED: _QUEUED,
    RunStatus.RUNNING: _RUNNING,
    RunStatus.CANCELLED: _CANCELLED,
    RunStatus.FAILED: _FAILED,
}


def past_firing_words(
    disposition: Disposition | str | None,
    reason_code: str | None,
    run_status: RunStatus | str | None,
    *,
    failure_reason: str | None = None,
    at: str | None = None,
    expected: bool = False,
) -> str:
    """The sentence for a past firing; with ``at`` (its instant in words), the timed form.

    ``disposition`` None: nothing was recorded, "Not fired: …" when the server
    says the cadence selected the instant (``expected``), else "No record". ``run_status`` None
    on a materialized firing: the run is not known (an erased session, an older
    server), and the firing ran. ``failure_reason`` says why a FAILED run failed.
    """
    words, fields = _choose(disposition, reason_code, run_status, failure_reason, expected)
    template = words.timed if at is not None else words.alone
    return template.format(at=at, **fields)


def past_firing_mark(
    disposition: Disposition | str | None,
    reason_code: str | None,
    run_status: RunStatus | str | None,
    *,
    expected: bool = False,
) -> MarkKind:
    """The mark a past firing carries: a failed run is FAILED, never RAN."""
    return _choose(disposition, reason_code, run_status, None, expected)[0].mark


def _choose(
    disposition: Disposition | str | None,
    reason_code: str | None,
    run_status: RunStatus | str | None,
    failure_reason: str | None,
    expected: bool,
) -> tuple[_Words, dict[str, str]]:
    if disposition is None:
        return (_NOT_FIRED if expected else _NO_RECORD), {}
    known = known_member(Disposition, disposition)
    code = reason_code or ""
    if known is Disposition.MATERIALIZED:
        return _run(run_status, failure_reason)
    if known is Disposition.MISSED:
        why = _MISSED.get(code)
        return (_MISSED_WORDS, {}) if why is None else (_MISSED_WHY, {"why": why})
    if known is Disposition.SKIPPED_OVERLAP:
        return _SKIPPED, {}
    if known is Disposition.AUTHORIZATION_FAILED:
        return _REFUSED, {"why": _REFUSALS.get(code) or _reason(code, "permission check failed")}
    if known is Disposition.CONFIGURATION_FAILED:
        why = _NOT_RUN.get(code) or _reason(code, "its definition could not be used")
        return _NOT_RUN_WORDS, {"why": why}
    return _UNKNOWN, {"unknown": humanize(disposition).lower()}


def _run(
    run_status: RunStatus | str | None, failure_reason: str | None
) -> tuple[_Words, dict[str, str]]:
    if run_status is None:
        return _RAN, {}
    known = known_member(RunStatus, run_status)
    if known is None:
        return _RUN_ELSE, {"status": humanize(run_status).lower()}
    why = _RUN_FAILURES.get(failure_reason or "") or _reason(
        failure_reason, "it stopped with an error"
    )
    return _RUN_STATUSES[known], {"why": why}


def _reason(code: str | None, generic: str) -> str:
    """A generic reason, naming a code this client does not know (humanized)."""
    return generic if not code else f"{generic} ({humanize(code).lower()})"
