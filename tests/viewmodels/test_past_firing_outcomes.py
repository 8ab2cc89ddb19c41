"""One set of words and marks for what became of a past firing (``formatting.outcomes``).

The calendar, the agenda, a row's last-outcome line and Needs attention all
say a past firing through these two functions; each test names the rule.
"""

from __future__ import annotations

import pytest

from transport.models import Disposition, RunStatus
from viewmodels.formatting import MarkKind, past_firing_mark, past_firing_words
from viewmodels.language import DEFAULT_LOCALE, words_for

RAN = Disposition.MATERIALIZED
ENGLISH = words_for(DEFAULT_LOCALE)


@pytest.mark.parametrize(
    ("disposition", "reason_code", "run_status", "failure_reason", "words", "mark"),
    [
        pytest.param(RAN, None, RunStatus.COMPLETED, None, "Ran", MarkKind.RAN, id="completed-ran"),
        pytest.param(
            RAN,
            None,
            RunStatus.FAILED,
            "deadline_exceeded",
            "Run failed: it ran past its deadline",
            MarkKind.FAILED,
            id="failed-run-is-not-a-success",
        ),
        pytest.param(
            RAN,
            None,
            RunStatus.FAILED,
            None,
            "Run failed: it stopped with an error",
            MarkKind.FAILED,
            id="failed-without-a-reason",
        ),
        pytest.param(
            RAN,
            None,
            RunStatus.FAILED,
            "tool_crashed_hard",
            "Run failed: it stopped with an error (tool crashed hard)",
            MarkKind.FAILED,
            id="failed-for-an-unknown-reason-names-it",
        ),
        pytest.param(
            RAN,
            None,
            RunStatus.CANCELLED,
            None,
            "Run cancelled",
            MarkKind.FAILED,
            id="cancelled-is-not-a-success",
        ),
        pytest.param(
            RAN, None, RunStatus.RUNNING, None, "Running", MarkKind.RUNNING, id="still-running"
        ),
        pytest.param(
            RAN,
            None,
            RunStatus.QUEUED,
            None,
            "Waiting to run",
            MarkKind.RUNNING,
            id="queued-waits-to-run",
        ),
        pytest.param(RAN, None, None, None, "Ran", MarkKind.RAN, id="erased-or-older-server-ran"),
        pytest.param(
            RAN,
            None,
            "PAUSED_BY_OPERATOR",
            None,
            "Ran; its run is paused by operator",
            MarkKind.RAN,
            id="unknown-run-status-humanized",
        ),
        pytest.param(
            Disposition.MISSED,
            "misfire_grace_exceeded",
            None,
            None,
            "Missed: the server was down",
            MarkKind.MISSED,
            id="missed-past-the-grace",
        ),
        pytest.param(
            Disposition.MISSED,
            "active_run_limit",
            None,
            None,
            "Missed: too many of its owner's runs were already going",
            MarkKind.MISSED,
            id="missed-at-the-run-limit",
        ),
        pytest.param(
            Disposition.SKIPPED_OVERLAP,
            "previous_run_in_flight",
            None,
            None,
            "Skipped: the previous run was still going",
            MarkKind.SKIPPED,
            id="skipped-overlap",
        ),
        pytest.param(
            Disposition.AUTHORIZATION_FAILED,
            "principal_disabled",
            None,
            None,
            "Refused: the schedule's owner is disabled",
            MarkKind.REFUSED,
            id="refused",
        ),
        pytest.param(
            Disposition.CONFIGURATION_FAILED,
            "cadence_unreadable",
            None,
            None,
            "Not run: its cadence could not be read",
            MarkKind.NOT_RUN,
            id="not-run",
        ),
        pytest.param(
            "LOST_IN_SPACE",
            None,
            None,
            None,
            "Did not run as planned (lost in space)",
            MarkKind.NOT_RUN,
            id="unknown-disposition-humanized",
        ),
        pytest.param(
            None, None, None, None, "No record", MarkKind.NO_RECORD, id="nothing-recorded"
        ),
    ],
)
def test_each_past_outcome_has_one_phrase_and_one_mark(
    disposition: Disposition | str | None,
    reason_code: str | None,
    run_status: RunStatus | str | None,
    failure_reason: str | None,
    words: str,
    mark: MarkKind,
) -> None:
    said = past_firing_words(
        disposition, reason_code, run_status, words=ENGLISH, failure_reason=failure_reason
    )
    assert said == words
    assert past_firing_mark(disposition, reason_code, run_status) is mark


@pytest.mark.parametrize(
    ("disposition", "reason_code", "run_status", "timed"),
    [
        pytest.param(RAN, None, RunStatus.COMPLETED, "Ran at 09:00", id="ran"),
        pytest.param(
            RAN,
            None,
            RunStatus.FAILED,
            "Run failed at 09:00: it stopped with an error",
            id="run-failed",
        ),
        pytest.param(
            Disposition.MISSED,
            "misfire_grace_exceeded",
            None,
            "Missed at 09:00: the server was down",
            id="missed",
        ),
        pytest.param(None, None, None, "No record of the firing at 09:00", id="no-record"),
    ],
)
def test_the_timed_form_names_the_firings_instant_in_the_same_words(
    disposition: Disposition | None,
    reason_code: str | None,
    run_status: RunStatus | None,
    timed: str,
) -> None:
    assert (
        past_firing_words(disposition, reason_code, run_status, words=ENGLISH, at="09:00") == timed
    )


def test_a_failed_run_never_reads_as_ran_whatever_its_reason() -> None:
    for reason in (None, "deadline_exceeded", "executor_error", "something_new"):
        said = past_firing_words(RAN, None, RunStatus.FAILED, words=ENGLISH, failure_reason=reason)
        assert said.startswith("Run failed: ")
    assert past_firing_mark(RAN, None, "FAILED") is MarkKind.FAILED
