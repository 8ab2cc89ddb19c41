"""Pydantic wire models of ``docs/API.md``, one resource per module.

Every model is frozen and keeps fields it does not know. Enumerations stay raw
strings with a ``known_*`` accessor that answers None for a value this client
does not know. Every instant is aware and normalised to UTC. This package does
not import httpx: view models depend on it directly.
"""

from __future__ import annotations

from transport.models.agenda import (
    AGENDA_NOT_OFFERED,
    AgendaBucket,
    AgendaDensity,
    AgendaItem,
    AgendaNotOffered,
    DensityBucket,
)
from transport.models.base import Instant, WireModel, known_member
from transport.models.browser_profile import BrowserProfile
from transport.models.cadence import Cadence, MonthDay
from transport.models.counts import ScheduleCounts
from transport.models.enums import (
    CadenceKind,
    Disposition,
    FiringAdjustment,
    ListOrder,
    MessageRole,
    NoticeReason,
    PauseReason,
    ProfileState,
    RunStatus,
    SchedulerState,
    ScheduleState,
)
from transport.models.envelope import ErrorBody, ErrorEnvelope
from transport.models.feeds import FEEDS_NOT_OFFERED, CreatedFeed, Feed, FeedsNotOffered
from transport.models.last_outcome import LastOutcome
from transport.models.occurrence import Occurrence
from transport.models.page import Page
from transport.models.principal import Principal
from transport.models.projection import (
    PastOccurrence,
    ProjectedFiring,
    Projection,
    ProjectionNotice,
)
from transport.models.schedule import Limits, ScheduleDetail, ScheduleRevision, ScheduleSummary
from transport.models.scheduler import (
    SCHEDULER_NOT_OFFERED,
    SchedulerNotOffered,
    SchedulerStatus,
)
from transport.models.session import Folder, SessionMessage, SessionSummary

__all__ = [
    "AGENDA_NOT_OFFERED",
    "FEEDS_NOT_OFFERED",
    "SCHEDULER_NOT_OFFERED",
    "AgendaBucket",
    "AgendaDensity",
    "AgendaItem",
    "AgendaNotOffered",
    "BrowserProfile",
    "Cadence",
    "CadenceKind",
    "CreatedFeed",
    "DensityBucket",
    "Disposition",
    "ErrorBody",
    "ErrorEnvelope",
    "Feed",
    "FeedsNotOffered",
    "FiringAdjustment",
    "Folder",
    "Instant",
    "LastOutcome",
    "Limits",
    "ListOrder",
    "MessageRole",
    "MonthDay",
    "NoticeReason",
    "Occurrence",
    "Page",
    "PastOccurrence",
    "PauseReason",
    "Principal",
    "ProfileState",
    "ProjectedFiring",
    "Projection",
    "ProjectionNotice",
    "RunStatus",
    "ScheduleCounts",
    "ScheduleDetail",
    "ScheduleRevision",
    "ScheduleState",
    "ScheduleSummary",
    "SchedulerNotOffered",
    "SchedulerState",
    "SchedulerStatus",
    "SessionMessage",
    "SessionSummary",
    "WireModel",
    "known_member",
]
