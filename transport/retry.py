"""When the client tries a request again, and how long it waits first.

The decision is a pure function of the request method, the outcome of the
attempt, the attempt number and whether the request is a create carrying its
``Idempotency-Key``; the client only supplies the random jitter and the sleep,
so tests can replace both. The rules:

- reads (GET) retry after a connection failure, a 429 or a 5xx;
- writes never retry on their own (a repeated PATCH or pause could apply
  twice or mask a conflict), except a create with its Idempotency-Key, which
  the server deduplicates;
- at most ``MAX_ATTEMPTS`` attempts in total;
- the wait is capped exponential backoff with jitter, unless the server sent
  ``Retry-After`` (seconds form), which is honoured exactly; a Retry-After
  longer than ``MAX_RETRY_AFTER_SECONDS`` is not waited for at all, the
  refusal goes to the caller (a UI must not hang for minutes).

Every tunable number is in this module, right below.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MAX_ATTEMPTS = 3
BASE_DELAY_SECONDS = 0.5
MAX_DELAY_SECONDS = 4.0
MAX_RETRY_AFTER_SECONDS = 30.0


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one attempt ended: an HTTP status, or None when no answer came back."""

    status: int | None
    retry_after: float | None = None

    @property
    def retryable(self) -> bool:
        if self.status is None:
            return True
        if self.status == 429:
            return self.retry_after is None or self.retry_after <= MAX_RETRY_AFTER_SECONDS
        return 500 <= self.status <= 599


def should_retry(method: str, outcome: Outcome, attempt: int, *, idempotent_create: bool) -> bool:
    """Whether to try again after ``attempt`` (1 = the first try) ended with ``outcome``."""
    if attempt >= MAX_ATTEMPTS:
        return False
    if method.upper() != "GET" and not idempotent_create:
        return False
    return outcome.retryable


def delay_before_retry(attempt: int, outcome: Outcome, jitter: float) -> float:
    """Seconds to wait after ``attempt`` failed; ``jitter`` is a random number in [0, 1).

    Equal jitter: half the capped exponential step is fixed, half is random,
    so retries from many clients spread out but never come back immediately.
    """
    if outcome.retry_after is not None:
        return outcome.retry_after
    step = min(MAX_DELAY_SECONDS, BASE_DELAY_SECONDS * 2.0 ** (attempt - 1))
    return step / 2 + step / 2 * min(max(jitter, 0.0), 1.0)


def parse_retry_after(value: str | None) -> float | None:
    """The seconds form of a ``Retry-After`` header; None for absent, dates or nonsense."""
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    if not math.isfinite(seconds) or seconds < 0:
        return None
    return seconds
