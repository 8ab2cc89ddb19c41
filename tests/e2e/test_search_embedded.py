"""Search, Needs attention and the notice against the real embedded server's demo data.

The same view models as the app, over the real client into
``open_embedded(..., demo=True)``: a search pages through its results with
its query bound to every cursor, the chip counts what the filter lists, and
the notices learn the demo's troubles without announcing them.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from tests.e2e.conftest import fixed_clock
from transport.client import ScheduleClient
from viewmodels.attention import AttentionNotices
from viewmodels.paging import FeedPhase
from viewmodels.ports import MemoryStorage
from viewmodels.schedule_list import ScheduleListViewModel

ZONE = ZoneInfo("Europe/London")


async def no_wait(_seconds: float) -> None:
    """The debounce, already over."""


async def test_a_search_pages_through_every_match_without_a_duplicate(
    api: ScheduleClient,
) -> None:
    vm = ScheduleListViewModel(api, clock=fixed_clock, device_zone=ZONE, page_size=1, sleep=no_wait)
    await vm.open()
    await vm.type_query("DIGEST")
    while vm.snapshot.can_load_more:
        await vm.load_more()
    assert vm.snapshot.phase is FeedPhase.END_REACHED
    assert vm.snapshot.later_page_error is None, "a cursor replayed with its own query"
    titles = [row.title for row in vm.snapshot.rows]
    assert len(set(titles)) == len(titles) >= 2
    expected = set()
    for summary in (await api.list_schedules(states=("ACTIVE", "PAUSED"), limit=100)).items:
        detail = await api.get_schedule(summary.schedule_id)
        if "digest" in f"{detail.title} {detail.revision.instruction}".casefold():
            expected.add(detail.title)
    assert set(titles) == expected


async def test_the_chip_counts_what_the_needs_attention_filter_lists(api: ScheduleClient) -> None:
    vm = ScheduleListViewModel(api, clock=fixed_clock, device_zone=ZONE, sleep=no_wait)
    await vm.open()
    await vm.select_attention(True)
    assert vm.snapshot.attention_count == len(vm.snapshot.rows) > 0
    assert all(row.attention_text or row.pause_reason_text for row in vm.snapshot.rows)


async def test_the_first_look_learns_the_demos_troubles_and_a_second_announces_nothing(
    api: ScheduleClient,
) -> None:
    storage = MemoryStorage()
    notices = AttentionNotices(api, storage, clock=fixed_clock, device_zone=ZONE)
    assert await notices.check()
    assert await notices.check()
    assert notices.snapshot.notice is None and notices.snapshot.announced == 0
    assert storage.keys() == ["attention.announced"]
