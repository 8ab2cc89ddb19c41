"""What the sidebar knows of a schedule group from its schedule: ended or not, and each firing.

A group is told apart from another of the same title by its schedule's state
when that has ended ("Cancelled", "Completed"), and each of its session rows
carries what became of the firing that created it, in the words and marks every
screen uses (``formatting.outcomes``). Both come from one read of the
schedule's projection over the window its cached sessions fired in (at most
the route's 92 days); a schedule the server cannot show (removed, an older
server) simply has none.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import MappingProxyType

from transport.models import ScheduleState
from transport.models.projection import Projection
from viewmodels.formatting import state_label
from viewmodels.formatting.marks import MarkKind
from viewmodels.formatting.outcomes import past_firing_mark, past_firing_words
from viewmodels.language import Words
from viewmodels.sidebar.history_cache import CachedSession

LONGEST_WINDOW = timedelta(days=92)
"""The projection route's longest window: older firings carry no outcome."""
_AHEAD = timedelta(minutes=1)
"""The window ends a little after now: a firing the server recorded a moment ago is in it."""
_ENDED = (ScheduleState.COMPLETED, ScheduleState.CANCELLED)


@dataclass(frozen=True, slots=True)
class FiringOutcome:
    """What became of one session's firing: its sentence and its mark."""

    text: str
    """"Ran", "Run failed: it ran past its deadline", "Running"."""
    mark: MarkKind


@dataclass(frozen=True, slots=True)
class GroupFacts:
    """One schedule's ended state and its sessions' firing outcomes, as last read."""

    ended_text: str | None = None
    """"Cancelled" or "Completed" once the schedule has ended; None while it runs."""
    outcomes: Mapping[int, FiringOutcome] = field(default_factory=lambda: MappingProxyType({}))
    """By ``session_id.int``: the outcome of the firing that created the session."""


NO_FACTS = GroupFacts()


def firing_window(sessions: Iterable[CachedSession], now: datetime) -> tuple[datetime, datetime]:
    """The window to read: from the oldest session's firing (at most 92 days back) to now.

    A session without a firing instant (an older server) started after its
    firing, so its first activity bounds it from above: its activity is used.
    """
    end = now + _AHEAD
    oldest = min(
        (session.fired_at or session.last_activity_at for session in sessions), default=now
    )
    return max(oldest, end - LONGEST_WINDOW), end


def group_facts(projection: Projection, *, words: Words) -> GroupFacts:
    """The facts a projection gives: its state when ended, and each past firing's outcome
    (in ``words``' language)."""
    known = projection.known_state
    ended = state_label(projection.state or "", words=words) if known in _ENDED else None
    outcomes: dict[int, FiringOutcome] = {}
    for past in projection.past:
        if past.session_id is None:
            continue
        outcomes[past.session_id.int] = FiringOutcome(
            past_firing_words(
                past.disposition,
                past.reason_code,
                past.run_status,
                words=words,
                failure_reason=past.failure_reason,
            ),
            past_firing_mark(past.disposition, past.reason_code, past.run_status),
        )
    return GroupFacts(ended, MappingProxyType(outcomes))
