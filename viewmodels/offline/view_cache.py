"""The device's view cache as the screens see it: what is kept, and the port to it.

Each screen keeps what it last read from the server, to show when the server
is away: page one of each list section and of each agenda span (Today, Next
7 days, Month), and the last details opened with their website-access binding
and the calendar months shown for them. How it is
stored (bounds, eviction, layout) is the app's engine behind the ``ViewCache``
port (``app.view_cache_store``). ``NoViewCache`` keeps nothing: the embedded
server (never unreachable) and a hosted person who did not ask to be remembered.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol
from uuid import UUID

from transport.models import AgendaItem, Projection, ScheduleDetail, ScheduleSummary


@dataclass(frozen=True, slots=True)
class CachedList:
    """Page one of a section as last read."""

    items: tuple[ScheduleSummary, ...]
    read_at: datetime


@dataclass(frozen=True, slots=True)
class CachedAgenda:
    """Page one of an agenda span as last read (never a search's nor a filter's)."""

    items: tuple[AgendaItem, ...]
    read_at: datetime


@dataclass(frozen=True, slots=True)
class CachedWebsite:
    """The website picker's binding as last shown: the option's words, never a profile list."""

    profile_id: UUID | None
    label: str
    state_text: str | None


@dataclass(frozen=True, slots=True)
class CachedDetail:
    detail: ScheduleDetail
    read_at: datetime
    website: CachedWebsite | None


@dataclass(frozen=True, slots=True)
class CachedMonth:
    projection: Projection
    read_at: datetime


class ViewCache(Protocol):
    """What the screens read from and keep in the view cache; a read answers None when
    nothing (readable) is kept. ``month`` is "YYYY-MM"; months are kept only beside their
    schedule's detail. ``span`` is an agenda span's value ("today", "week", "month")."""

    @property
    def enabled(self) -> bool: ...

    async def holds_anything(self) -> bool: ...

    async def section(self, section: str) -> CachedList | None: ...

    async def detail(self, schedule_id: UUID) -> CachedDetail | None: ...

    async def month(self, schedule_id: UUID, month: str) -> CachedMonth | None: ...

    async def agenda(self, span: str) -> CachedAgenda | None: ...

    async def keep_section(
        self, section: str, items: Iterable[ScheduleSummary], read_at: datetime
    ) -> None: ...

    async def keep_agenda(
        self, span: str, items: Iterable[AgendaItem], read_at: datetime
    ) -> None: ...

    async def keep_detail(
        self, detail: ScheduleDetail, read_at: datetime, website: CachedWebsite | None
    ) -> None: ...

    async def keep_month(
        self, schedule_id: UUID, month: str, projection: Projection, read_at: datetime
    ) -> None: ...


class NoViewCache:
    """A view cache that keeps nothing and finds nothing."""

    @property
    def enabled(self) -> bool:
        return False

    async def holds_anything(self) -> bool:
        return False

    async def section(self, section: str) -> CachedList | None:
        return None

    async def detail(self, schedule_id: UUID) -> CachedDetail | None:
        return None

    async def month(self, schedule_id: UUID, month: str) -> CachedMonth | None:
        return None

    async def agenda(self, span: str) -> CachedAgenda | None:
        return None

    async def keep_section(
        self, section: str, items: Iterable[ScheduleSummary], read_at: datetime
    ) -> None:
        return None

    async def keep_agenda(self, span: str, items: Iterable[AgendaItem], read_at: datetime) -> None:
        return None

    async def keep_detail(
        self, detail: ScheduleDetail, read_at: datetime, website: CachedWebsite | None
    ) -> None:
        return None

    async def keep_month(
        self, schedule_id: UUID, month: str, projection: Projection, read_at: datetime
    ) -> None:
        return None
