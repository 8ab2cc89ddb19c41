"""What one scheduler scan decides for one due schedule: fire, record a miss, or wait.

Only the latest due instant can fire, and only within the grace window;
older ones are coalesced into one counted record, so one decision yields at
most one occurrence however long the schedule slept, at a fixed cost.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from server.domain.cadence import Cadence
from server.domain.recurrence import count_between, first_after, latest_at_or_before

__all__ = ["Coalesced", "MisfireDecision", "Verdict", "decide"]

_JUST_BEFORE = timedelta(microseconds=1)


class Verdict(StrEnum):
    NOTHING_DUE = "NOTHING_DUE"
    FIRE = "FIRE"
    MISSED = "MISSED"


@dataclass(frozen=True, slots=True)
class Coalesced:
    """Older due instants folded into one record, never one row each."""

    first_nominal_at: datetime
    last_nominal_at: datetime
    count: int


@dataclass(frozen=True, slots=True)
class MisfireDecision:
    """The outcome of one scan for one schedule.

    ``nominal_at`` is the instant to materialize (``FIRE``) or to record as
    missed (``MISSED``), and None when nothing is due. ``completes`` is true
    when the schedule has no future instant left (a decided ONCE).
    """

    verdict: Verdict
    nominal_at: datetime | None
    coalesced: Coalesced | None
    next_fire_at: datetime | None
    completes: bool


def decide(
    cadence: Cadence, *, grace: timedelta, last_nominal_at: datetime, now: datetime
) -> MisfireDecision:
    """Decide what is due at ``now``.

    ``last_nominal_at`` is the last nominal instant recorded for the schedule;
    before its first one, pass the instant it began owing occurrences (its
    creation, or its resume, since resuming never backfills).
    """
    if grace <= timedelta(0):
        raise ValueError("misfire grace must be positive")
    latest = latest_at_or_before(cadence, now)
    if latest is None or latest <= last_nominal_at:
        upcoming = first_after(cadence, max(now, last_nominal_at))
        return MisfireDecision(
            verdict=Verdict.NOTHING_DUE,
            nominal_at=None,
            coalesced=None,
            next_fire_at=upcoming,
            completes=upcoming is None,
        )
    coalesced = _coalesce(cadence, last_nominal_at, latest)
    upcoming = first_after(cadence, now)
    return MisfireDecision(
        verdict=Verdict.FIRE if now - latest <= grace else Verdict.MISSED,
        nominal_at=latest,
        coalesced=coalesced,
        next_fire_at=upcoming,
        completes=upcoming is None,
    )


def _coalesce(cadence: Cadence, last_nominal_at: datetime, latest: datetime) -> Coalesced | None:
    """The due instants strictly between the last recorded one and ``latest``, as one record."""
    older = count_between(cadence, last_nominal_at, latest) - 1
    if older <= 0:
        return None
    first = first_after(cadence, last_nominal_at)
    previous = latest_at_or_before(cadence, latest - _JUST_BEFORE)
    if first is None or previous is None:
        # Unreachable while ``older`` counts at least one instant between them.
        return None
    return Coalesced(first_nominal_at=first, last_nominal_at=previous, count=older)
