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
instant in words) gives the timed form. Every sentence is whole, in the
person's language (``words``), with the instant, a reason or a value as named
placeholders; the reasons are phrases said inside those sentences.
"""

from __future__ import annotations

from dataclasses import dataclass

from transport.models import Disposition, RunStatus, known_member
from viewmodels.formatting.labels import humanize
from viewmodels.formatting.marks import MarkKind
from viewmodels.language import N_, Words

_REFUSALS = {
    # Translators: this and the reasons after it are said after "Refused: ", "Not run: ",
    # "Missed: " or "Run failed: " (lower case, as a clause of that sentence).
    "principal_unknown": N_("the schedule's owner is no longer known to the server"),
    "principal_disabled": N_("the schedule's owner is disabled"),
    "scope_revoked": N_("the schedule's owner lost a scope it asks for"),
    "scope_not_granted": N_("the schedule's owner lost a scope it asks for"),
    "authority_changed": N_("the owner's permissions changed since the schedule was saved"),
}
_NOT_RUN = {
    "definition_invalid": N_("its saved definition is no longer valid"),
    "agent_version_missing": N_("its agent version is no longer available"),
    "cadence_unreadable": N_("its cadence could not be read"),
    "materialization_failed": N_("the server could not start its run"),
}
_MISSED = {
    "active_run_limit": N_("too many of its owner's runs were already going"),
}
_RUN_FAILURES = {
    "deadline_exceeded": N_("it ran past its deadline"),
    "executor_error": N_("the agent stopped with an error"),
    "executor_refused": N_("the agent refused the run"),
    "executor_answer_invalid": N_("the agent's answer could not be read"),
    "browser_profile_unavailable": N_("its browser sign-in was not available"),
}
_PERMISSION_FAILED = N_("permission check failed")
_DEFINITION_UNUSABLE = N_("its definition could not be used")
_STOPPED = N_("it stopped with an error")


@dataclass(frozen=True, slots=True)
class _Words:
    """One outcome's sentence, alone and with the firing's instant (``{at}``), in English:
    ``past_firing_words`` looks it up."""

    alone: str
    timed: str
    mark: MarkKind


# Translators: {at} is a firing's instant in words ("09:00", "02:30 yesterday").
_RAN = _Words(N_("Ran"), N_("Ran at {at}"), MarkKind.RAN)
_QUEUED = _Words(N_("Waiting to run"), N_("Waiting to run since {at}"), MarkKind.RUNNING)
_RUNNING = _Words(N_("Running"), N_("Running since {at}"), MarkKind.RUNNING)
_CANCELLED = _Words(N_("Run cancelled"), N_("Run cancelled at {at}"), MarkKind.FAILED)
_FAILED = _Words(N_("Run failed: {why}"), N_("Run failed at {at}: {why}"), MarkKind.FAILED)
_RUN_ELSE = _Words(
    # Translators: {status} is a run status this app does not know, humanized in English.
    N_("Ran; its run is {status}"),
    N_("Ran at {at}; its run is {status}"),
    MarkKind.RAN,
)
_MISSED_WORDS = _Words(
    N_("Missed: the server was down"), N_("Missed at {at}: the server was down"), MarkKind.MISSED
)
_MISSED_WHY = _Words(N_("Missed: {why}"), N_("Missed at {at}: {why}"), MarkKind.MISSED)
_SKIPPED = _Words(
    N_("Skipped: the previous run was still going"),
    N_("Skipped at {at}: the previous run was still going"),
    MarkKind.SKIPPED,
)
_REFUSED = _Words(N_("Refused: {why}"), N_("Refused at {at}: {why}"), MarkKind.REFUSED)
_NOT_RUN_WORDS = _Words(N_("Not run: {why}"), N_("Not run at {at}: {why}"), MarkKind.NOT_RUN)
_UNKNOWN = _Words(
    # Translators: {unknown} is an outcome this app does not know, humanized in English.
    N_("Did not run as planned ({unknown})"),
    N_("The firing at {at} did not run as planned ({unknown})"),
    MarkKind.NOT_RUN,
)
_NO_RECORD = _Words(N_("No record"), N_("No record of the firing at {at}"), MarkKind.NO_RECORD)
_NOT_FIRED = _Words(
    N_("Not fired: nothing was recorded (the scheduler was not running)"),
    N_("Not fired: nothing was recorded (the scheduler was not running at {at})"),
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
    words: Words,
    failure_reason: str | None = None,
    at: str | None = None,
    expected: bool = False,
) -> str:
    """The sentence for a past firing in ``words``; with ``at`` (its instant in words), the
    timed form.

    ``disposition`` None: nothing was recorded, "Not fired: …" when the server
    says the cadence selected the instant (``expected``), else "No record". ``run_status`` None
    on a materialized firing: the run is not known (an erased session, an older
    server), and the firing ran. ``failure_reason`` says why a FAILED run failed.
    """
    said, fields = _choose(disposition, reason_code, run_status, failure_reason, expected)
    template = said.timed if at is not None else said.alone
    return words.gettext(template).format(at=at, **_said_fields(fields, words))


def past_firing_mark(
    disposition: Disposition | str | None,
    reason_code: str | None,
    run_status: RunStatus | str | None,
    *,
    expected: bool = False,
) -> MarkKind:
    """The mark a past firing carries: a failed run is FAILED, never RAN."""
    return _choose(disposition, reason_code, run_status, None, expected)[0].mark


@dataclass(frozen=True, slots=True)
class _Reason:
    """A phrase (English, looked up), or a value this client does not know (``code``,
    humanized), or a generic phrase naming one."""

    phrase: str | None
    code: str | None = None


def _said_fields(fields: dict[str, _Reason], words: Words) -> dict[str, str]:
    return {name: _reason_text(value, words) for name, value in fields.items()}


def _reason_text(reason: _Reason, words: Words) -> str:
    if reason.phrase is None:
        return humanize(reason.code or "", words=words).lower()
    phrase = words.gettext(reason.phrase)
    if not reason.code:
        return phrase
    # Translators: a reason and the code of one this app does not know ("…error (tool crashed)").
    return words.gettext("{reason} ({code})").format(
        reason=phrase, code=humanize(reason.code, words=words).lower()
    )


def _choose(
    disposition: Disposition | str | None,
    reason_code: str | None,
    run_status: RunStatus | str | None,
    failure_reason: str | None,
    expected: bool,
) -> tuple[_Words, dict[str, _Reason]]:
    if disposition is None:
        return (_NOT_FIRED if expected else _NO_RECORD), {}
    known = known_member(Disposition, disposition)
    code = reason_code or ""
    if known is Disposition.MATERIALIZED:
        return _run(run_status, failure_reason)
    if known is Disposition.MISSED:
        why = _MISSED.get(code)
        return (_MISSED_WORDS, {}) if why is None else (_MISSED_WHY, {"why": _Reason(why)})
    if known is Disposition.SKIPPED_OVERLAP:
        return _SKIPPED, {}
    if known is Disposition.AUTHORIZATION_FAILED:
        return _REFUSED, {"why": _known_or(_REFUSALS, code, _PERMISSION_FAILED)}
    if known is Disposition.CONFIGURATION_FAILED:
        return _NOT_RUN_WORDS, {"why": _known_or(_NOT_RUN, code, _DEFINITION_UNUSABLE)}
    return _UNKNOWN, {"unknown": _Reason(None, disposition)}


def _run(
    run_status: RunStatus | str | None, failure_reason: str | None
) -> tuple[_Words, dict[str, _Reason]]:
    if run_status is None:
        return _RAN, {}
    known = known_member(RunStatus, run_status)
    if known is None:
        return _RUN_ELSE, {"status": _Reason(None, run_status)}
    return _RUN_STATUSES[known], {"why": _known_or(_RUN_FAILURES, failure_reason, _STOPPED)}


def _known_or(phrases: dict[str, str], code: str | None, generic: str) -> _Reason:
    """The phrase for ``code``, else the generic one naming the code (humanized)."""
    phrase = phrases.get(code or "")
    return _Reason(phrase) if phrase is not None else _Reason(generic, code or None)
