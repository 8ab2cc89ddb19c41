"""How many requests one principal may make: a token bucket per caller.

Each caller (tenant and principal id) owns a bucket of ``burst`` tokens that
refills at ``requests_per_minute``; a request takes one token, and a request
that finds less than one is refused with 429 ``request.rate_limited`` and the
whole seconds until a token is back (``Retry-After``, at least 1). The
decision reads time only from the injected clock, so tests move time by hand.

Memory stays bounded: a bucket that has refilled completely carries no
information (a fresh bucket is the same), so such idle buckets are dropped as
they are met, oldest use first; past ``max_callers`` buckets the least
recently used one is dropped anyway, which at worst forgives that caller.
The limiter is called from the event loop only (an async dependency), so it
needs no lock.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from server.storage.records import Owner

DEFAULT_MAX_CALLERS = 10_000


@dataclass(frozen=True, slots=True)
class RateLimit:
    """The allowance of one principal: a sustained rate and the burst it may spend at once."""

    requests_per_minute: int
    burst: int

    def __post_init__(self) -> None:
        if self.requests_per_minute < 1:
            raise ValueError("requests_per_minute must be at least 1")
        if self.burst < 1:
            raise ValueError("burst must be at least 1")

    @property
    def tokens_per_second(self) -> float:
        return self.requests_per_minute / 60.0


@dataclass(frozen=True, slots=True)
class Bucket:
    """What is left of one caller's allowance as of ``updated``."""

    tokens: float
    updated: datetime


@dataclass(frozen=True, slots=True)
class Decision:
    """The bucket after a request, and the wait in whole seconds when it was refused."""

    bucket: Bucket
    retry_after_seconds: int | None

    @property
    def admitted(self) -> bool:
        return self.retry_after_seconds is None


def refilled(bucket: Bucket, limit: RateLimit, now: datetime) -> Bucket:
    """The bucket at ``now``; a clock that stepped back adds nothing and takes nothing."""
    elapsed = max(0.0, (now - bucket.updated).total_seconds())
    tokens = min(float(limit.burst), bucket.tokens + elapsed * limit.tokens_per_second)
    return Bucket(tokens, max(now, bucket.updated))


def take(bucket: Bucket | None, limit: RateLimit, now: datetime) -> Decision:
    """Spend one token of ``bucket`` (None: a caller not seen lately, so a full bucket)."""
    current = Bucket(float(limit.burst), now) if bucket is None else refilled(bucket, limit, now)
    if current.tokens >= 1.0:
        return Decision(Bucket(current.tokens - 1.0, current.updated), None)
    wait = (1.0 - current.tokens) / limit.tokens_per_second
    return Decision(current, max(1, math.ceil(wait)))


class RequestLimiter:
    """The buckets of every recent caller, under one ``RateLimit`` and one clock."""

    def __init__(
        self,
        limit: RateLimit,
        clock: Callable[[], datetime],
        *,
        max_callers: int = DEFAULT_MAX_CALLERS,
    ) -> None:
        if max_callers < 1:
            raise ValueError("max_callers must be at least 1")
        self.limit = limit
        self._clock = clock
        self._max_callers = max_callers
        self._buckets: OrderedDict[Owner, Bucket] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def admit(self, caller: Owner) -> int | None:
        """None when ``caller`` may go on; otherwise the seconds to wait before retrying."""
        now = self._clock()
        decision = take(self._buckets.pop(caller, None), self.limit, now)
        self._forget_idle(now)
        self._buckets[caller] = decision.bucket
        return decision.retry_after_seconds

    def _forget_idle(self, now: datetime) -> None:
        # Least recently used first: stop at the first bucket still refilling.
        while self._buckets:
            oldest, bucket = next(iter(self._buckets.items()))
            full = refilled(bucket, self.limit, now).tokens >= self.limit.burst
            if not full and len(self._buckets) < self._max_callers:
                return
            del self._buckets[oldest]
