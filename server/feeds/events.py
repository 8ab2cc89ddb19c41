"""A feed's events: one per firing, with what a calendar app shows of it.

``FeedEvent`` is what the renderer (``server.feeds.calendar``) writes as a
VEVENT. Its UID is the schedule id and the nominal instant, so it is the same
on every fetch and every server, and a calendar app updates the event rather
than adding a second. The description says what became of a past firing,
the cadence and the state, and never quotes the instruction: a calendar
provider fetches the feed and keeps it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final
from uuid import UUID

from server.domain.cadence import Cadence
from server.feeds.words import cadence_words, firing_words, state_words

__all__ = ["DEFAULT_DURATION", "FeedEvent", "ScheduleFacts", "firing_event"]

DEFAULT_DURATION: Final = timedelta(minutes=15)
"""An event's length when the definition names no run-time limit."""


@dataclass(frozen=True, slots=True)
class FeedEvent:
    """One firing as a calendar event."""

    schedule_id: UUID
    at: datetime
    """The nominal instant, in UTC."""
    zone: str
    """The cadence's IANA zone (``UTC`` for ONCE): DTSTART is written in it."""
    duration: timedelta
    summary: str
    description: str

    @property
    def uid(self) -> str:
        fraction = f".{self.at.microsecond:06d}" if self.at.microsecond else ""
        return f"{self.schedule_id}-{self.at.astimezone(UTC):%Y%m%dT%H%M%S}{fraction}Z"


@dataclass(frozen=True, slots=True)
class ScheduleFacts:
    """What every event of one schedule shares: its title, zone, length and sentences."""

    schedule_id: UUID
    title: str
    zone: str
    duration: timedelta
    cadence: str
    state: str

    @classmethod
    def of(
        cls,
        schedule_id: UUID,
        definition: Mapping[str, Any],
        cadence: Cadence,
        state: str,
        pause_reason: str | None,
    ) -> ScheduleFacts:
        """From the current revision's definition (title, run-time limit) and the state."""
        limit = definition.get("run_timeout_seconds")
        duration = DEFAULT_DURATION
        if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0:
            duration = timedelta(seconds=limit)
        return cls(
            schedule_id=schedule_id,
            title=str(definition.get("title", "")),
            zone=cadence.zone_name,
            duration=duration,
            cadence=cadence_words(cadence),
            state=state_words(state, pause_reason),
        )


def firing_event(
    facts: ScheduleFacts,
    at: datetime,
    disposition: str | None = None,
    reason_code: str | None = None,
    run_status: str | None = None,
) -> FeedEvent:
    """The event of the firing at ``at``; a recorded one says what became of it."""
    lines = (firing_words(disposition, reason_code, run_status), facts.cadence, facts.state)
    return FeedEvent(
        schedule_id=facts.schedule_id,
        at=at.astimezone(UTC),
        zone=facts.zone,
        duration=facts.duration,
        summary=facts.title,
        description="\n".join(line for line in lines if line),
    )
