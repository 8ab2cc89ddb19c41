"""The view cache: bounded, oldest out first, dropped (never an error) when unreadable."""

from __future__ import annotations

from datetime import timedelta

from app.view_cache_keys import ALL_KEYS, INDEX_KEY, MOST_DETAILS, agenda_key, list_key
from app.view_cache_store import ViewCacheStore
from devtools.api_bodies import NOW, agenda_item_json, detail, projection, summary, uid
from transport.models import AgendaItem, Projection, ScheduleDetail, ScheduleSummary
from viewmodels.agenda import AgendaSpan
from viewmodels.offline import CachedWebsite, NoViewCache
from viewmodels.ports import JsonValue, MemoryStorage


def a_detail(name: str) -> ScheduleDetail:
    return ScheduleDetail.model_validate(detail(name))


def rows(*names: str) -> list[ScheduleSummary]:
    return [ScheduleSummary.model_validate(summary(name)) for name in names]


def firings(*names: str) -> list[AgendaItem]:
    return [
        AgendaItem.model_validate(agenda_item_json(schedule_id=str(uid(name)), title=name))
        for name in names
    ]


async def test_the_last_50_details_are_kept_and_the_oldest_opened_goes_first(
    storage: MemoryStorage,
) -> None:
    cache = ViewCacheStore(storage)
    names = [f"s{number}" for number in range(MOST_DETAILS + 2)]
    for number, name in enumerate(names):
        await cache.keep_detail(a_detail(name), NOW + timedelta(minutes=number), None)
        if number == 2:
            assert await cache.detail(uid("s0")) is not None  # opened again: used recently

    reread = ViewCacheStore(storage)  # another session of the same device
    assert await reread.detail(uid("s0")) is not None
    assert await reread.detail(uid("s1")) is None
    assert await reread.detail(uid("s2")) is None
    kept = [name for name in names if await reread.detail(uid(name)) is not None]
    assert len(kept) == MOST_DETAILS
    assert set(storage.keys()) <= set(ALL_KEYS)


async def test_a_detail_keeps_its_website_binding_and_the_months_last_shown(
    storage: MemoryStorage,
) -> None:
    cache = ViewCacheStore(storage)
    website = CachedWebsite(uid("p"), "mail.example.com", "expired")
    await cache.keep_detail(a_detail("a"), NOW, website)
    for month in ("2026-10", "2026-11", "2026-12", "2027-01"):
        body = projection(str(uid("a")), "2026-11-30T00:00:00Z", "2027-01-11T00:00:00Z")
        await cache.keep_month(uid("a"), month, Projection.model_validate(body), NOW)

    kept = await ViewCacheStore(storage).detail(uid("a"))
    assert kept is not None and kept.website == website and kept.read_at == NOW
    again = ViewCacheStore(storage)
    assert await again.month(uid("a"), "2026-10") is None  # only the newest three months
    assert await again.month(uid("a"), "2027-01") is not None


async def test_a_corrupt_cache_is_dropped_whole_without_an_error(storage: MemoryStorage) -> None:
    cache = ViewCacheStore(storage)
    await cache.keep_section("current", rows("a", "b"), NOW)
    await cache.keep_detail(a_detail("a"), NOW, None)
    await storage.set(INDEX_KEY, {"format": 1, "entries": "not a table"})

    reread = ViewCacheStore(storage)
    assert await reread.section("current") is None
    assert await reread.detail(uid("a")) is None
    assert [await storage.get(key) for key in ALL_KEYS] == [None] * len(ALL_KEYS)


async def test_an_entry_that_does_not_read_back_is_dropped_and_the_rest_stays(
    storage: MemoryStorage,
) -> None:
    cache = ViewCacheStore(storage)
    await cache.keep_section("current", rows("a"), NOW)
    await cache.keep_section("recent_history", rows("h"), NOW)
    await storage.set(list_key("current"), {"read_at": "yesterday", "items": [{"title": 3}]})

    reread = ViewCacheStore(storage)
    assert await reread.section("current") is None
    assert await storage.get(list_key("current")) is None
    history = await reread.section("recent_history")
    assert history is not None and [item.title for item in history.items] == ["Schedule h"]


async def test_an_oversized_cache_is_dropped_without_an_error(storage: MemoryStorage) -> None:
    cache = ViewCacheStore(storage)
    await cache.keep_section("current", rows("a"), NOW)
    index = await storage.get(INDEX_KEY)
    assert isinstance(index, dict) and isinstance(index["entries"], dict)
    entries: dict[str, JsonValue] = dict(index["entries"])
    entry = entries[list_key("current")]
    assert isinstance(entry, dict)
    entries[list_key("current")] = {**entry, "size": 50_000_000}
    await storage.set(INDEX_KEY, {**index, "entries": entries})

    assert await ViewCacheStore(storage).section("current") is None
    assert [await storage.get(key) for key in ALL_KEYS] == [None] * len(ALL_KEYS)


async def test_the_whole_stays_within_its_budget_the_least_recently_used_going_first(
    storage: MemoryStorage,
) -> None:
    one = len(str(detail("x"))) * 1.2  # about one entry's stored size
    cache = ViewCacheStore(storage, budget=int(one * 4))
    for number in range(8):
        await cache.keep_detail(a_detail(f"s{number}"), NOW, None)

    assert await cache.size() <= int(one * 4)
    assert await cache.detail(uid("s7")) is not None
    assert await cache.detail(uid("s0")) is None


async def test_a_disabled_cache_keeps_nothing_and_finds_nothing(storage: MemoryStorage) -> None:
    cache = NoViewCache()
    await cache.keep_section("current", rows("a"), NOW)
    await cache.keep_detail(a_detail("a"), NOW, None)
    await cache.keep_agenda("today", firings("a"), NOW)
    assert await cache.section("current") is None
    assert await cache.detail(uid("a")) is None
    assert await cache.agenda("today") is None
    assert storage.keys() == []


async def test_each_agenda_span_is_kept_apart_under_a_key_the_cache_may_drop(
    storage: MemoryStorage,
) -> None:
    cache = ViewCacheStore(storage)
    for span in AgendaSpan:
        await cache.keep_agenda(span.value, firings(f"{span.value} 1", f"{span.value} 2"), NOW)

    reread = ViewCacheStore(storage)  # another session of the same device
    for span in AgendaSpan:
        assert agenda_key(span.value) in ALL_KEYS
        kept = await reread.agenda(span.value)
        assert kept is not None and kept.read_at == NOW
        assert [item.title for item in kept.items] == [f"{span.value} 1", f"{span.value} 2"]
    assert set(storage.keys()) <= set(ALL_KEYS)


async def test_dropping_the_cache_removes_the_kept_agenda(storage: MemoryStorage) -> None:
    cache = ViewCacheStore(storage)
    await cache.keep_agenda("week", firings("a"), NOW)
    assert await storage.get(agenda_key("week")) is not None
    await cache.drop()
    assert await storage.get(agenda_key("week")) is None
    assert [await storage.get(key) for key in ALL_KEYS] == [None] * len(ALL_KEYS)


async def test_an_agenda_lost_from_the_index_is_still_removed_with_the_cache(
    storage: MemoryStorage,
) -> None:
    await ViewCacheStore(storage).keep_agenda("month", firings("a"), NOW)
    await storage.set(INDEX_KEY, {"format": 1, "entries": "not a table"})
    assert await ViewCacheStore(storage).agenda("month") is None
    assert await storage.get(agenda_key("month")) is None


async def test_an_agenda_that_does_not_read_back_is_forgotten_and_the_rest_stays(
    storage: MemoryStorage,
) -> None:
    cache = ViewCacheStore(storage)
    await cache.keep_agenda("today", firings("a"), NOW)
    await cache.keep_section("current", rows("a"), NOW)
    await storage.set(agenda_key("today"), {"read_at": "2026-12-01T07:00:00", "items": []})

    reread = ViewCacheStore(storage)
    assert await reread.agenda("today") is None  # an instant without its offset
    assert await storage.get(agenda_key("today")) is None
    assert await reread.section("current") is not None


async def test_the_agenda_counts_in_the_budget_and_the_least_recently_used_goes_first(
    storage: MemoryStorage,
) -> None:
    one = len(str(detail("x"))) * 1.2  # about one entry's stored size
    cache = ViewCacheStore(storage, budget=int(one * 4))
    await cache.keep_agenda("today", firings("a", "b"), NOW)
    for number in range(8):
        await cache.keep_detail(a_detail(f"s{number}"), NOW, None)
    assert await cache.size() <= int(one * 4)
    assert await cache.agenda("today") is None  # the oldest entry went first

    await cache.keep_agenda("week", firings("a", "b"), NOW)
    assert await cache.size() <= int(one * 4)
    assert await cache.agenda("week") is not None


class FailingStorage(MemoryStorage):
    """A store whose writes fail once ``failing``: a browser's storage over its quota, or
    a tab reloaded or closed while its session writes on."""

    failing = False

    async def set(self, key: str, value: JsonValue) -> None:
        if self.failing:
            raise RuntimeError("QuotaExceededError")
        await super().set(key, value)


async def test_a_store_that_refuses_writes_loses_the_entry_never_the_screen() -> None:
    storage = FailingStorage()
    storage.failing = True
    cache = ViewCacheStore(storage)
    await cache.keep_section("current", rows("a"), NOW)
    await cache.keep_detail(a_detail("a"), NOW, None)
    assert await cache.section("current") is None


async def test_a_write_that_fails_keeps_the_copy_kept_before() -> None:
    storage = FailingStorage()
    cache = ViewCacheStore(storage)
    await cache.keep_section("current", rows("a"), NOW)
    await cache.keep_detail(a_detail("a"), NOW, None)
    storage.failing = True

    later = NOW + timedelta(minutes=5)
    await cache.keep_section("current", rows("a", "b"), later)
    await cache.keep_detail(a_detail("a"), later, None)
    await cache.keep_detail(a_detail("b"), later, None)

    for reader in (cache, ViewCacheStore(storage)):  # this session, and the next one
        kept_list = await reader.section("current")
        assert kept_list is not None
        assert [item.schedule_id for item in kept_list.items] == [uid("a")]
        assert kept_list.read_at == NOW
        kept_detail = await reader.detail(uid("a"))
        assert kept_detail is not None
        assert kept_detail.read_at == NOW
        assert await reader.detail(uid("b")) is None
