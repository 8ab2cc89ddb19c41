"""Slowing token guessing: repeated authentication failures from one address wait.

The schedule server applies it to every request (``server.api.auth``) and the
hosted web view to each browser's sign-in (``app.browser_address``), so it
lives in neither and imports only the standard library. The rule, decided
from the address before any token is read, is in ``docs/API.md``, "Slowing
token guessing". Memory stays bounded; time comes only from the injected clock.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

DEFAULT_MAX_ADDRESSES = 10_000


@dataclass(frozen=True, slots=True)
class FailurePolicy:
    """How many failures an address may make in ``window``, and the wait after that."""

    failures: int = 10
    window: timedelta = timedelta(minutes=1)
    first_wait: timedelta = timedelta(seconds=5)

    def __post_init__(self) -> None:
        if self.failures < 1:
            raise ValueError("failures must be at least 1")
        if not timedelta(0) < self.first_wait <= self.window:
            raise ValueError("first_wait must be positive and within the window")

    def wait_after(self, strikes: int) -> timedelta:
        """The wait after the ``strikes``-th failure at or beyond the count (1 = first)."""
        doubled: timedelta = self.first_wait * (2 ** min(strikes - 1, 30))
        return min(doubled, self.window)


@dataclass(frozen=True, slots=True)
class AddressRecord:
    """One address's failures inside the window (newest last), its strikes, and its wait."""

    failures: tuple[datetime, ...]
    strikes: int
    """Failures since the count was reached; each sets a wait twice the last."""
    blocked_until: datetime | None


FORGIVEN = AddressRecord((), 0, None)


def recent(record: AddressRecord, policy: FailurePolicy, now: datetime) -> AddressRecord:
    """``record`` at ``now``: forgiven after a quiet window (counted from the end of its
    last wait, so waiting out a wait is not being quiet), else old failures dropped."""
    if not record.failures:
        return FORGIVEN
    quiet_since = max(record.failures[-1], record.blocked_until or record.failures[-1])
    if now - quiet_since >= policy.window:
        return FORGIVEN
    kept = tuple(t for t in record.failures if now - t < policy.window)
    blocked = record.blocked_until if record.blocked_until and record.blocked_until > now else None
    return AddressRecord(kept, record.strikes, blocked)


def after_failure(
    record: AddressRecord | None, policy: FailurePolicy, now: datetime
) -> AddressRecord:
    current = FORGIVEN if record is None else recent(record, policy, now)
    failures = (*current.failures, now)[-policy.failures :]
    if current.strikes == 0 and len(failures) < policy.failures:
        return AddressRecord(failures, 0, current.blocked_until)
    strikes = current.strikes + 1
    return AddressRecord(failures, strikes, now + policy.wait_after(strikes))


def seconds_left(record: AddressRecord, now: datetime) -> int | None:
    """Whole seconds until the address may try again (at least 1), or None."""
    if record.blocked_until is None or record.blocked_until <= now:
        return None
    return max(1, math.ceil((record.blocked_until - now).total_seconds()))


class AuthThrottle:
    """The failure records of every recent address, under one policy and one clock."""

    def __init__(
        self,
        policy: FailurePolicy,
        clock: Callable[[], datetime],
        *,
        max_addresses: int = DEFAULT_MAX_ADDRESSES,
    ) -> None:
        if max_addresses < 1:
            raise ValueError("max_addresses must be at least 1")
        self.policy = policy
        self._clock = clock
        self._max = max_addresses
        self._records: OrderedDict[str, AddressRecord] = OrderedDict()

    def __len__(self) -> int:
        return len(self._records)

    def wait(self, address: str) -> int | None:
        """Seconds ``address`` must wait before its token is even looked at; None: go on."""
        record = self._records.get(address)
        return None if record is None else seconds_left(record, self._clock())

    def failed(self, address: str) -> None:
        """Count one authentication failure from ``address``."""
        now = self._clock()
        record = after_failure(self._records.pop(address, None), self.policy, now)
        self._forget_idle(now)
        self._records[address] = record

    def _forget_idle(self, now: datetime) -> None:
        # Least recently failed first: stop at the first address still remembered.
        while self._records:
            oldest, record = next(iter(self._records.items()))
            current = recent(record, self.policy, now)
            idle = not current.failures and current.blocked_until is None
            if not idle and len(self._records) < self._max:
                return
            del self._records[oldest]
