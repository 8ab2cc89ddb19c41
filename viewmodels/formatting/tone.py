"""The tone a state is shown in: a meaning the view turns into colours.

The view model reads the wire's state and names its tone; the view only
maps each tone to its theme colours. So a state the server adds later gets the
neutral tone here, where a test can see it, and no view compares wire strings.
Colour only helps: the label beside it carries the meaning.
"""

from __future__ import annotations

from enum import Enum

from transport.models import ScheduleState, known_member


class Tone(Enum):
    """How prominent a state is, from "going on now" to "nothing to do"."""

    LIVE = "live"
    """The schedule fires (ACTIVE)."""
    WARNING = "warning"
    """The schedule waits for someone to resume it (PAUSED)."""
    DONE = "done"
    """The schedule ended on its own terms (COMPLETED)."""
    NEUTRAL = "neutral"
    """Nothing to draw the eye to (CANCELLED, or a state this client does not know)."""


_STATE_TONES = {
    ScheduleState.ACTIVE: Tone.LIVE,
    ScheduleState.PAUSED: Tone.WARNING,
    ScheduleState.COMPLETED: Tone.DONE,
    ScheduleState.CANCELLED: Tone.NEUTRAL,
}


def state_tone(state: str) -> Tone:
    """The tone of a schedule state; an unknown state is neutral."""
    known = known_member(ScheduleState, state)
    return Tone.NEUTRAL if known is None else _STATE_TONES[known]
