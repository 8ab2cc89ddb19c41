"""The kinds of mark a firing carries on a calendar day or an agenda row.

One list for every screen that draws firings, so a past firing's mark is chosen
once (``outcomes.past_firing_mark``) and the calendar, its legend and the agenda
agree. Each kind gets its own shape in the views: colour is never the only
difference.
"""

from __future__ import annotations

from enum import StrEnum


class MarkKind(StrEnum):
    """One kind of mark, in the order a day shows them: to come, what happened, never."""

    FIRES = "fires"
    """A firing still to come."""
    ADJUSTED = "adjusted"
    """A firing still to come that a clock change moved or made the first of two."""
    MAY_OVERLAP = "may_overlap"
    """A firing still to come that may be skipped if the previous run is still going."""
    WOULD_FIRE = "would_fire"
    """A paused schedule's firing as if resumed (hollow): nothing fires until it is resumed."""
    RAN = "ran"
    """Fired, and its run completed (or its run's end is not known: an erased session)."""
    RUNNING = "running"
    """Fired, and its run is queued or still going."""
    FAILED = "failed"
    """Fired, and its run failed or was cancelled: not a success."""
    MISSED = "missed"
    SKIPPED = "skipped"
    """Skipped because the previous run was still going."""
    REFUSED = "refused"
    """Refused for missing authority."""
    NOT_RUN = "not_run"
    """Any other past outcome (an invalid definition, a value this client does not know)."""
    NOT_FIRED = "not_fired"
    """A past instant the cadence selected that the server says was never decided."""
    NO_RECORD = "no_record"
    """A past firing the server recorded nothing for (an older server: not said why)."""
    NO_FIRING = "no_firing"
    """A date the rule selects that never fires (a notice)."""
