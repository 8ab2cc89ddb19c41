"""The device's view cache: what the screens last read, kept to be shown when the server is away.

What is kept, each written as its screen reads it from the server:

- page one of each list section (Current, Recent History);
- the last ``MOST_DETAILS`` details opened, each with its website-access
  state (the binding shown) and the calendar months last shown for it
  (``MONTHS_PER_SCHEDULE``).

Every entry is the server's JSON as received, with the instant it was read.
The cache is bounded: entries are sized as the JSON text stored, the whole
stays within ``BUDGET_CHARS`` and the entries used least recently go first.
It is discardable: an index or an entry that does not read back (another
version, a hand edit, a half-written store) or a cache bigger than its budget
is dropped, never reported; the server's answer wins anyway. A write that
fails (a full browser storage, or a page reloaded while its session writes)
leaves the entry as the store still holds it: the copy kept before, if any.

Storage layout under ``DeviceStorage`` (already namespaced per server and
principal by the app): ``view_cache.index`` (small: which entry lives where,
its size, when it was read and used), ``view_cache.list.<section>`` and a
fixed set of detail slots ``view_cache.detail.<0..49>``. The key space is
closed, so a cache whose index is lost can still be removed whole.

Where it is kept is the app's choice, behind the port: a local session's in
the user data folder, a hosted person's in their browser, and only if they
ticked "Remember on this device". ``ViewCache.disabled()`` keeps nothing: the
embedded server (never unreachable) and a hosted person who did not tick it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from pydantic import ValidationError

from transport.models import Projection, ScheduleDetail, ScheduleSummary
from viewmodels.ports import DeviceStorage, JsonValue

BUDGET_CHARS = 5_000_000
"""The whole cache, index included, in characters of stored JSON (about 5 MB)."""
MOST_DETAILS = 50
MONTHS_PER_SCHEDULE = 3
INDEX_KEY = "view_cache.index"
FORMAT = 1
SECTIONS = ("current", "recent_history")


def list_key(section: str) -> str:
    return f"view_cache.list.{section}"


def slot_key(slot: int) -> str:
    return f"view_cache.detail.{slot}"


ALL_KEYS = (
    INDEX_KEY,
    *(list_key(section) for section in SECTIONS),
    *(slot_key(slot) for slot in range(MOST_DETAILS)),
)
"""Every key the cache may write: dropping the cache removes each of them."""


@dataclass(frozen=True, slots=True)
class CachedList:
    """Page one of a section as last read."""

    items: tuple[ScheduleSummary, ...]
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


@dataclass(slots=True)
class _Entry:
    size: int
    used: int
    read_at: str
    schedule_id: str | None = None


class ViewCache:
    """The bounded view cache over one ``DeviceStorage``; see the module docstring."""

    def __init__(self, storage: DeviceStorage | None, *, budget: int = BUDGET_CHARS) -> None:
        self._storage = storage
        self._budget = budget
        self._entries: dict[str, _Entry] | None = None
        self._values: dict[str, dict[str, Any]] = {}
        self._uses = 0
        self._lock = asyncio.Lock()

    @classmethod
    def disabled(cls) -> ViewCache:
        """A cache that keeps nothing and finds nothing."""
        return cls(None)

    @property
    def enabled(self) -> bool:
        return self._storage is not None

    async def size(self) -> int:
        """Characters the cache holds now, index included (for the benchmark and tests)."""
        async with self._lock:
            entries = await self._index()
            return sum(entry.size for entry in entries.values()) + len(_text(self._index_json()))

    async def holds_anything(self) -> bool:
        """Whether any entry is kept (a hosted sign-in may open offline only then)."""
        if not self.enabled:
            return False
        async with self._lock:
            return bool(await self._index())

    # Reading -------------------------------------------------------------

    async def section(self, section: str) -> CachedList | None:
        raw = await self._read(list_key(section))
        if raw is None:
            return None
        try:
            items = tuple(ScheduleSummary.model_validate(item) for item in raw["items"])
            return CachedList(items, _instant(raw["read_at"]))
        except (KeyError, TypeError, ValueError, ValidationError):
            await self._forget(list_key(section))
            return None

    async def detail(self, schedule_id: UUID) -> CachedDetail | None:
        key = await self._slot_of(schedule_id)
        raw = None if key is None else await self._read(key)
        if key is None or raw is None:
            return None
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
            await self._forget(key)
            return None

    async def month(self, schedule_id: UUID, month: str) -> CachedMonth | None:
        """``month`` is "YYYY-MM"; only months of a cached detail are kept."""
        key = await self._slot_of(schedule_id)
        raw = None if key is None else await self._read(key)
        if key is None or raw is None:
            return None
        try:
            shown = raw.get("months", {}).get(month)
            if shown is None:
                return None
            return CachedMonth(
                Projection.model_validate(shown["projection"]), _instant(shown["read_at"])
            )
        except (AttributeError, KeyError, TypeError, ValueError, ValidationError):
            await self._forget(key)
            return None

    # Writing -------------------------------------------------------------

    async def keep_section(
        self, section: str, items: Iterable[ScheduleSummary], read_at: datetime
    ) -> None:
        value = {"read_at": read_at.isoformat(), "items": [item.received() for item in items]}
        await self._write(list_key(section), value, read_at)

    async def keep_detail(
        self, detail: ScheduleDetail, read_at: datetime, website: CachedWebsite | None
    ) -> None:
        """The detail as read; the months kept for it before stay while it is the same one."""
        if not self.enabled:
            return
        async with self._lock:
            key = await self._slot_of_locked(detail.schedule_id, claim=True)
            if key is None:
                return
            earlier = await self._read_locked(key)
            months = earlier.get("months", {}) if isinstance(earlier, dict) else {}
            value: dict[str, Any] = {
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
            await self._write_locked(key, value, read_at, schedule_id=str(detail.schedule_id))

    async def keep_month(
        self, schedule_id: UUID, month: str, projection: Projection, read_at: datetime
    ) -> None:
        """A calendar month as shown; kept only beside its detail, the newest few."""
        if not self.enabled:
            return
        async with self._lock:
            key = await self._slot_of_locked(schedule_id, claim=False)
            if key is None:
                return
            value = await self._read_locked(key)
            if not isinstance(value, dict):
                return
            months = value.get("months")
            kept: dict[str, Any] = dict(months) if isinstance(months, dict) else {}
            kept.pop(month, None)
            kept[month] = {"read_at": read_at.isoformat(), "projection": projection.received()}
            while len(kept) > MONTHS_PER_SCHEDULE:
                kept.pop(next(iter(kept)))  # insertion order: the month shown longest ago
            entry = (self._entries or {}).get(key)
            stamp = _instant(entry.read_at) if entry is not None else read_at
            await self._write_locked(
                key, {**value, "months": kept}, stamp, schedule_id=str(schedule_id)
            )

    async def drop(self) -> None:
        """Everything the cache wrote, removed (the cache stays usable, empty)."""
        if self._storage is None:
            return
        async with self._lock:
            await self._drop_locked()

    # Inside --------------------------------------------------------------

    async def _read(self, key: str) -> dict[str, Any] | None:
        if not self.enabled:
            return None
        async with self._lock:
            return await self._read_locked(key)

    async def _read_locked(self, key: str) -> dict[str, Any] | None:
        entries = await self._index()
        entry = entries.get(key)
        if entry is None:
            return None
        if key in self._values:
            value = self._values[key]
        else:
            raw = await self._get(key)
            if raw is None:
                return None  # not answered (a store that timed out): kept for the next read
            if not isinstance(raw, dict) or len(_text(raw)) > self._budget:
                await self._forget_locked(key)
                return None
            value = raw
            self._values[key] = value
        self._uses += 1
        entry.used = self._uses
        return value

    async def _write(self, key: str, value: dict[str, Any], read_at: datetime) -> None:
        if not self.enabled:
            return
        async with self._lock:
            await self._write_locked(key, value, read_at)

    async def _write_locked(
        self,
        key: str,
        value: dict[str, Any],
        read_at: datetime,
        *,
        schedule_id: str | None = None,
    ) -> None:
        entries = await self._index()
        size = len(_text(value))
        if size > self._budget // 2:
            await self._forget_locked(key)  # one entry never crowds out all the others
            return
        before = entries.get(key), self._values.get(key)
        self._uses += 1
        entries[key] = _Entry(size, self._uses, read_at.isoformat(), schedule_id)
        self._values[key] = value
        evicted = self._evict_over_budget(keep=key)
        stored = await self._set(key, value)
        for gone in evicted:
            await self._set(gone, None)
        if not stored:
            self._restore(entries, key, *before)
        await self._set(INDEX_KEY, self._index_json())

    def _restore(
        self,
        entries: dict[str, _Entry],
        key: str,
        entry: _Entry | None,
        value: dict[str, Any] | None,
    ) -> None:
        """After a write that failed, ``key`` is what the store still holds: what was
        kept before (a store keeps the old value of a refused write), or nothing."""
        if entry is None:
            entries.pop(key, None)
        else:
            entries[key] = entry
        if value is None:
            self._values.pop(key, None)
        else:
            self._values[key] = value

    def _evict_over_budget(self, *, keep: str) -> list[str]:
        """The least recently used entries removed until the whole fits the budget."""
        entries = self._entries or {}
        evicted: list[str] = []
        while sum(e.size for e in entries.values()) + len(_text(self._index_json())) > self._budget:
            victims = sorted((k for k in entries if k != keep), key=lambda k: entries[k].used)
            if not victims:
                break
            entries.pop(victims[0])
            self._values.pop(victims[0], None)
            evicted.append(victims[0])
        return evicted

    async def _slot_of(self, schedule_id: UUID) -> str | None:
        if not self.enabled:
            return None
        async with self._lock:
            return await self._slot_of_locked(schedule_id, claim=False)

    async def _slot_of_locked(self, schedule_id: UUID, *, claim: bool) -> str | None:
        """The slot holding ``schedule_id``; with ``claim``, a free or the oldest one else."""
        entries = await self._index()
        wanted = str(schedule_id)
        for key, entry in entries.items():
            if entry.schedule_id == wanted:
                return key
        if not claim:
            return None
        slots = [slot_key(slot) for slot in range(MOST_DETAILS)]
        free = next((key for key in slots if key not in entries), None)
        if free is not None:
            return free
        oldest = min(slots, key=lambda key: entries[key].used)
        entries.pop(oldest)
        self._values.pop(oldest, None)
        return oldest

    async def _forget(self, key: str) -> None:
        async with self._lock:
            await self._forget_locked(key)

    async def _forget_locked(self, key: str) -> None:
        entries = await self._index()
        entries.pop(key, None)
        self._values.pop(key, None)
        await self._set(key, None)
        await self._set(INDEX_KEY, self._index_json())

    async def _index(self) -> dict[str, _Entry]:
        """The index, read once; one that does not read back drops the whole cache."""
        if self._entries is not None:
            return self._entries
        raw = await self._get(INDEX_KEY)
        entries = _parse_index(raw, self._budget)
        if entries is None:
            self._entries = {}
            if raw is not None:
                await self._drop_locked()
            return self._entries
        self._entries = entries
        self._uses = max((entry.used for entry in entries.values()), default=0)
        return entries

    async def _drop_locked(self) -> None:
        self._entries = {}
        self._values = {}
        for key in ALL_KEYS:
            await self._set(key, None)

    def _index_json(self) -> dict[str, JsonValue]:
        return {
            "format": FORMAT,
            "entries": {
                key: {
                    "size": entry.size,
                    "used": entry.used,
                    "read_at": entry.read_at,
                    "schedule_id": entry.schedule_id,
                }
                for key, entry in (self._entries or {}).items()
            },
        }

    async def _get(self, key: str) -> JsonValue:
        assert self._storage is not None
        try:
            return await self._storage.get(key)
        except Exception:  # a discardable cache never fails a screen: unreadable is empty
            return None

    async def _set(self, key: str, value: JsonValue) -> bool:
        assert self._storage is not None
        try:
            await self._storage.set(key, value)
        except Exception:  # a full or closed store loses the entry, never the screen
            return False
        return True


def _parse_index(raw: JsonValue, budget: int) -> dict[str, _Entry] | None:
    """The index's entries, or None when it is absent, unreadable or over the budget."""
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        return None
    listed = raw.get("entries")
    if not isinstance(listed, dict):
        return None
    allowed = set(ALL_KEYS)
    entries: dict[str, _Entry] = {}
    for key, value in listed.items():
        if key not in allowed or not isinstance(value, dict):
            return None
        size, used, read_at = value.get("size"), value.get("used"), value.get("read_at")
        schedule_id = value.get("schedule_id")
        if not isinstance(size, int) or not isinstance(used, int) or not isinstance(read_at, str):
            return None
        if schedule_id is not None and not isinstance(schedule_id, str):
            return None
        entries[key] = _Entry(size, used, read_at, schedule_id)
    if sum(entry.size for entry in entries.values()) > budget:
        return None
    return entries


def _instant(value: object) -> datetime:
    moment = datetime.fromisoformat(str(value))
    if moment.tzinfo is None:
        raise ValueError("a cached instant lost its offset")
    return moment


def _text(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))
