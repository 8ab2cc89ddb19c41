"""The pure retry decision and backoff of transport.retry."""

from __future__ import annotations

import pytest

from transport.retry import (
    BASE_DELAY_SECONDS,
    MAX_ATTEMPTS,
    MAX_DELAY_SECONDS,
    MAX_RETRY_AFTER_SECONDS,
    Outcome,
    delay_before_retry,
    parse_retry_after,
    should_retry,
)

NO_ANSWER = Outcome(None)


@pytest.mark.parametrize(
    ("outcome", "expected"),
    [
        pytest.param(NO_ANSWER, True, id="connection-error"),
        pytest.param(Outcome(429), True, id="429"),
        pytest.param(Outcome(500), True, id="500"),
        pytest.param(Outcome(503, 2.0), True, id="503-retry-after"),
        pytest.param(Outcome(599), True, id="599"),
        pytest.param(Outcome(400), False, id="400"),
        pytest.param(Outcome(404), False, id="404"),
        pytest.param(Outcome(409), False, id="409"),
        pytest.param(Outcome(422), False, id="422"),
        pytest.param(Outcome(429, MAX_RETRY_AFTER_SECONDS + 1), False, id="429-too-long"),
    ],
)
def test_reads_retry_only_transient_outcomes(outcome: Outcome, expected: bool) -> None:
    assert should_retry("GET", outcome, 1, idempotent_create=False) is expected


@pytest.mark.parametrize("method", ["PATCH", "POST", "DELETE"])
@pytest.mark.parametrize("outcome", [NO_ANSWER, Outcome(429), Outcome(503)])
def test_writes_never_retry(method: str, outcome: Outcome) -> None:
    assert not should_retry(method, outcome, 1, idempotent_create=False)


def test_create_with_idempotency_key_retries() -> None:
    assert should_retry("POST", Outcome(503), 1, idempotent_create=True)
    assert should_retry("POST", NO_ANSWER, 2, idempotent_create=True)
    assert not should_retry("POST", Outcome(422), 1, idempotent_create=True)


def test_no_retry_after_the_last_attempt() -> None:
    assert MAX_ATTEMPTS == 3
    assert should_retry("GET", Outcome(500), MAX_ATTEMPTS - 1, idempotent_create=False)
    assert not should_retry("GET", Outcome(500), MAX_ATTEMPTS, idempotent_create=False)


def test_method_case_does_not_matter() -> None:
    assert should_retry("get", Outcome(500), 1, idempotent_create=False)


def test_backoff_grows_exponentially_with_equal_jitter_and_a_cap() -> None:
    assert delay_before_retry(1, NO_ANSWER, 0.0) == BASE_DELAY_SECONDS / 2
    assert delay_before_retry(1, NO_ANSWER, 1.0) == BASE_DELAY_SECONDS
    assert delay_before_retry(2, NO_ANSWER, 1.0) == BASE_DELAY_SECONDS * 2
    assert delay_before_retry(30, NO_ANSWER, 1.0) == MAX_DELAY_SECONDS
    assert delay_before_retry(30, NO_ANSWER, 7.0) == MAX_DELAY_SECONDS


def test_retry_after_is_honoured_exactly() -> None:
    assert delay_before_retry(1, Outcome(429, 12.0), 0.9) == 12.0


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("5", 5.0),
        (" 2.5 ", 2.5),
        ("0", 0.0),
        (None, None),
        ("-1", None),
        ("soon", None),
        ("inf", None),
        ("Wed, 21 Oct 2026 07:28:00 GMT", None),
    ],
)
def test_retry_after_seconds_form_only(header: str | None, expected: float | None) -> None:
    assert parse_retry_after(header) == expected
