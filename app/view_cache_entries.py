"""The view cache's entries in one ``DeviceStorage``: bounded, least recently used out.

The whole stays within ``BUDGET_CHARS`` of stored JSON. It is discardable: an
index or entry that does not read back (another version, a hand edit, a
half-written store) or a cache over its budget is dropped, never reported; a
failed write leaves what the store still holds. Keys: ``view_cache.index``,
``view_cache.list.<section>``, ``view_cache.agenda.<span>`` and one detail
slot per schedule, ``view_cache.detail.<0..49>``: a closed set, so a cache
whose index is lost can still be removed whole.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from app.view_cache_keys import (
    ALL_KEYS,
    FORMAT,
    INDEX_KEY,
    MOST_DETAILS,
    slot_key,
)
from viewmodels.ports import DeviceStorage, JsonValue


@dataclass(slots=True)
class _Entry:
    size: int
    used: int
    read_at: str
    schedule_id: str | None = None


Change = Callable[[dict[str, Any] | None], dict[str, Any] | None]
"""A slot's new value from the one kept (None: nothing readable); None leaves it as it is."""


class BoundedEntries:
    """The entries of one view cache, over one ``DeviceStorage``; see the module docstring."""

    def __init__(self, storage: DeviceStorage, budget: int) -> None:
        self._storage = storage
        self._budget = budget
        self._entries: dict[str, _Entry] | None = None
        self._values: dict[str, dict[str, Any]] = {}
        self._uses = 0
        self._lock = asyncio.Lock()

    async def size(self) -> int:
        async with self._lock:
            entries = await self._index()
            return sum(entry.size for entry in entries.values()) + len(_text(self._index_json()))

    async def holds_anything(self) -> bool:
        async with self._lock:
            return bool(await self._index())

    async def read(self, key: str) -> dict[str, Any] | None:
        async with self._lock:
            return await self._read_locked(key)

    async def read_slot(self, schedule_id: UUID) -> tuple[str, dict[str, Any]] | None:
        """The key and value of the schedule's slot, when one holds it."""
        async with self._lock:
            key = await self._slot_of_locked(schedule_id, claim=False)
            value = None if key is None else await self._read_locked(key)
            return None if key is None or value is None else (key, value)

    async def write(self, key: str, value: dict[str, Any], read_at: datetime) -> None:
        async with self._lock:
            await self._write_locked(key, value, read_at.isoformat())

    async def change_slot(
        self, schedule_id: UUID, change: Change, read_at: datetime | None
    ) -> None:
        """The schedule's slot changed in one step: with ``read_at``, a slot is claimed
        (a free or the oldest one) and stamped; without, only a slot already held
        changes, and keeps its stamp."""
        async with self._lock:
            key = await self._slot_of_locked(schedule_id, claim=read_at is not None)
            if key is None:
                return
            value = change(await self._read_locked(key))
            if value is None:
                return
            entry = (self._entries or {}).get(key)
            if read_at is not None:
                stamp = read_at.isoformat()
            elif entry is not None:
                stamp = entry.read_at
            else:
                return  # the slot's entry was dropped as it was read
            await self._write_locked(key, value, stamp, schedule_id=str(schedule_id))

    async def forget(self, key: str) -> None:
        async with self._lock:
            await self._forget_locked(key)

    async def drop(self) -> None:
        async with self._lock:
            await self._drop_locked()

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

    async def _write_locked(
        self,
        key: str,
        value: dict[str, Any],
        read_at: str,
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
        entries[key] = _Entry(size, self._uses, read_at, schedule_id)
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
        try:
            return await self._storage.get(key)
        except Exception:  # a discardable cache never fails a screen: unreadable is empty
            return None

    async def _set(self, key: str, value: JsonValue) -> bool:
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


def _text(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))
