"""The view cache the app keeps on a device: the ``viewmodels.offline.ViewCache`` port.

Each entry is the server's JSON as received, with the instant it was read,
kept in ``BoundedEntries`` (``app.view_cache_entries``): page one of each list
section and of each agenda span, and per schedule its detail, website-access
binding and the calendar months last shown (``MONTHS_PER_SCHEDULE``). An entry
that does not read back as what it should be is forgotten and answers None.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any
from uuid import UUID

from pydantic import ValidationError

from app.view_cache_entries import BoundedEntries
from app.view_cache_keys import BUDGET_CHARS, agenda_key, list_key
from transport.models import AgendaItem, Projection, ScheduleDetail, ScheduleSummary
from viewmodels.offline import (
    CachedAgenda,
    CachedDetail,
    CachedList,
    CachedMonth,
    CachedWebsite,
)
from viewmodels.ports import DeviceStorage

MONTHS_PER_SCHEDULE = 3


class ViewCacheStore:
    """The view cache over one ``DeviceStorage``, within ``budget`` characters of JSON."""

    def __init__(self, storage: DeviceStorage, *, budget: int = BUDGET_CHARS) -> None:
        self._entries = BoundedEntries(storage, budget)

    @property
    def enabled(self) -> bool:
        return True

    async def size(self) -> int:
        """Characters the cache holds now, index included (for the benchmark and tests)."""
        return await self._entries.size()

    async def holds_anything(self) -> bool:
        """Whether any entry is kept (a hosted sign-in may open offline only then)."""
        return await self._entries.holds_anything()

    async def drop(self) -> None:
        """Everything the cache wrote, removed (the cache stays usable, empty)."""
        await self._entries.drop()

    async def section(self, section: str) -> CachedList | None:
        raw = await self._entries.read(list_key(section))
        if raw is None:
            return None
        try:
            items = tuple(ScheduleSummary.model_validate(item) for item in raw["items"])
            return CachedList(items, _instant(raw["read_at"]))
        except (KeyError, TypeError, ValueError, ValidationError):
            await self._entries.forget(list_key(section))
            return None

    async def agenda(self, span: str) -> CachedAgenda | None:
        raw = await self._entries.read(agenda_key(span))
        if raw is None:
            return None
        try:
            items = tuple(AgendaItem.model_validate(item) for item in raw["items"])
            return CachedAgenda(items, _instant(raw["read_at"]))
        except (KeyError, TypeError, ValueError, ValidationError):
            await self._entries.forget(agenda_key(span))
            return None

    async def detail(self, schedule_id: UUID) -> CachedDetail | None:
        found = await self._entries.read_slot(schedule_id)
        if found is None:
            return None
        key, raw = found
        try:
            website = raw.get("website")
            return CachedDetail(
                ScheduleDetail.model_validate(raw["detail"]),
                _instant(raw["read_at"]),
                None
                if website is None
                else CachedWebsite(
                    UUID(website["profile_id"]) if website["profile_id"] else None,
                    str(website["label"]),
                    None if website["state_text"] is None else str(website["state_text"]),
                ),
            )
        except (KeyError, TypeError, ValueError, ValidationError):
            await self._entries.forget(key)
            return None

    async def month(self, schedule_id: UUID, month: str) -> CachedMonth | None:
        """``month`` is "YYYY-MM"; only months of a cached detail are kept."""
        found = await self._entries.read_slot(schedule_id)
        if found is None:
            return None
        key, raw = found
        try:
            shown = raw.get("months", {}).get(month)
            if shown is None:
                return None
            return CachedMonth(
                Projection.model_validate(shown["projection"]), _instant(shown["read_at"])
            )
        except (AttributeError, KeyError, TypeError, ValueError, ValidationError):
            await self._entries.forget(key)
            return None

    async def keep_section(
        self, section: str, items: Iterable[ScheduleSummary], read_at: datetime
    ) -> None:
        value = {"read_at": read_at.isoformat(), "items": [item.received() for item in items]}
        await self._entries.write(list_key(section), value, read_at)

    async def keep_agenda(self, span: str, items: Iterable[AgendaItem], read_at: datetime) -> None:
        value = {"read_at": read_at.isoformat(), "items": [item.received() for item in items]}
        await self._entries.write(agenda_key(span), value, read_at)

    async def keep_detail(
        self, detail: ScheduleDetail, read_at: datetime, website: CachedWebsite | None
    ) -> None:
        """The detail as read; the months kept for it before stay while it is the same one."""

        def kept(earlier: dict[str, Any] | None) -> dict[str, Any]:
            months = earlier.get("months", {}) if isinstance(earlier, dict) else {}
            return {
                "schedule_id": str(detail.schedule_id),
                "read_at": read_at.isoformat(),
                "detail": detail.received(),
                "website": None
                if website is None
                else {
                    "profile_id": str(website.profile_id) if website.profile_id else None,
                    "label": website.label,
                    "state_text": website.state_text,
                },
                "months": months if isinstance(months, dict) else {},
            }

        await self._entries.change_slot(detail.schedule_id, kept, read_at)

    async def keep_month(
        self, schedule_id: UUID, month: str, projection: Projection, read_at: datetime
    ) -> None:
        """A calendar month as shown; kept only beside its detail, the newest few."""

        def with_month(value: dict[str, Any] | None) -> dict[str, Any] | None:
            if not isinstance(value, dict):
                return None
            months = value.get("months")
            kept: dict[str, Any] = dict(months) if isinstance(months, dict) else {}
            kept.pop(month, None)
            kept[month] = {"read_at": read_at.isoformat(), "projection": projection.received()}
            while len(kept) > MONTHS_PER_SCHEDULE:
                kept.pop(next(iter(kept)))  # insertion order: the month shown longest ago
            return {**value, "months": kept}

        await self._entries.change_slot(schedule_id, with_month, None)


def _instant(value: object) -> datetime:
    moment = datetime.fromisoformat(str(value))
    if moment.tzinfo is None:
        raise ValueError("a cached instant lost its offset")
    return moment
