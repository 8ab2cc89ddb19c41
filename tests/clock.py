"""The one fake clock of the tests: an aware instant that moves only when a test moves it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
"""Where the server tests' clock starts."""


class FakeClock:
    """Call it for the current instant; ``advance`` moves it (a timedelta, or its parts)."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta = timedelta(0), **parts: float) -> None:
        self.now += delta + timedelta(**parts)

    def monotonic(self) -> float:
        """The same instant in seconds, for code that measures spans as ``time.monotonic`` does."""
        return self.now.timestamp()


class Clock(FakeClock):
    """A clock starting at ``NOW``: the server tests' ``clock`` fixture, and the app tests' own."""

    def __init__(self) -> None:
        super().__init__(NOW)
