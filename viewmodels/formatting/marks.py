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
    NO_RECORD = "no_record"
    """A past firing the server recorded nothing for."""
    NO_FIRING = "no_firing"
    """A date the rule selects that never fires (a notice)."""
