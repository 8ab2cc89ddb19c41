"""``GET /v1/scheduler``: whether the server's scheduler is firing schedules.

``state`` is kept as the raw text (a server may add values; ``known_state``
answers None for one this client does not know, which shows nothing). The
rest only enriches the sentence, so it is ``Lenient``. A server without the
route answers 404/405, which the client hands back as
``SCHEDULER_NOT_OFFERED``, not as an error.
"""

from __future__ import annotations

from enum import Enum
from typing import Final, Literal

from transport.models.base import Instant, Lenient, WireModel, known_member
from transport.models.enums import SchedulerState


class SchedulerStatus(WireModel):
    """The cluster's scheduler by its newest heartbeat, and the caller's due backlog."""

    state: str
    last_tick_at: Lenient[Instant] = None
    replicas_running: Lenient[int] = None
    oldest_due_at: Lenient[Instant] = None
    due_backlog: Lenient[int] = None

    @property
    def known_state(self) -> SchedulerState | None:
        return known_member(SchedulerState, self.state)


class _NotOffered(Enum):
    SCHEDULER_NOT_OFFERED = "scheduler not offered"


SchedulerNotOffered = Literal[_NotOffered.SCHEDULER_NOT_OFFERED]
"""The type of ``SCHEDULER_NOT_OFFERED``: the server has no ``/v1/scheduler`` (404/405)."""
SCHEDULER_NOT_OFFERED: Final = _NotOffered.SCHEDULER_NOT_OFFERED
