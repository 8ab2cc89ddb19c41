"""Property: arbitrary interleavings of pages never show a schedule twice, never loop,
and end with the newest reload's rows.

A scripted server serves "versions" of the list: every page-one request starts
a new version whose rows are titled with it. Pages repeat IDs, a chain may
point back to an earlier cursor, some pages fail once; any answer may be held
and released later in any order. Hypothesis picks the pages, the user's
commands and the completion order.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

import httpx
import respx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from devtools.api_bodies import NOW, counts_json, page, summary
from tests.clock import FakeClock
from tests.viewmodels.conftest import BASE_URL, no_sleep
from transport.client import ScheduleClient
from viewmodels.paging import FeedPhase
from viewmodels.schedule_list import ScheduleListViewModel


@dataclass
class Catalogue:
    pages: list[list[int]]
    loop_back: int | None
    fails_once: set[int]


catalogues = st.builds(
    Catalogue,
    pages=st.lists(st.lists(st.integers(0, 12), max_size=4), min_size=1, max_size=5),
    loop_back=st.none() | st.integers(0, 4),
    fails_once=st.sets(st.integers(0, 4), max_size=2),
)


@dataclass
class VersionedServer:
    catalogue: Catalogue
    holds: list[bool]
    version: int = 0
    requests: int = 0
    pending: list[asyncio.Event] = field(default_factory=list)
    failed: set[int] = field(default_factory=set)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    def next_cursor(self, version: int, index: int) -> str | None:
        last = len(self.catalogue.pages) - 1
        if index < last:
            return f"v{version}-p{index + 1}"
        if self.catalogue.loop_back is not None and self.catalogue.loop_back <= last:
            return f"v{version}-p{self.catalogue.loop_back}" if self.catalogue.loop_back else None
        return None

    async def answer(self, request: httpx.Request) -> httpx.Response:
        cursor = request.url.params.get("cursor")
        if cursor is None:
            self.version += 1
            version, index = self.version, 0
        else:
            head, tail = cursor.split("-p")
            version, index = int(head[1:]), int(tail)
        hold = self.holds[self.requests % len(self.holds)] if self.holds else False
        self.requests += 1
        self.arrived.set()
        if hold:
            gate = asyncio.Event()
            self.pending.append(gate)
            await gate.wait()
        if index in self.catalogue.fails_once and index not in self.failed:
            self.failed.add(index)
            return httpx.Response(
                400, json={"error": {"code": "request.invalid", "message": "", "details": {}}}
            )
        items = [summary(f"s{n}", title=f"v{version}") for n in self.catalogue.pages[index]]
        return httpx.Response(200, json=page(items, self.next_cursor(version, index)))

    def reachable(self) -> list[str]:
        """The newest version's unique ids in order, up to the end or a repeated cursor."""
        seen: list[str] = []
        for index in range(len(self.catalogue.pages)):
            for n in self.catalogue.pages[index]:
                if f"s{n}" not in seen:
                    seen.append(f"s{n}")
        return seen


commands = st.lists(st.sampled_from(["reload", "load_more", "retry", "release"]), max_size=14)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    catalogue=catalogues,
    script=commands,
    holds=st.lists(st.booleans(), max_size=6),
    order=st.randoms(),
)
def test_interleavings_never_duplicate_never_loop_and_end_with_the_newest_reload(
    catalogue: Catalogue, script: list[str], holds: list[bool], order: object
) -> None:
    asyncio.run(_scenario(catalogue, script, holds, order))


async def _scenario(
    catalogue: Catalogue, script: list[str], holds: list[bool], order: object
) -> None:
    import random

    assert isinstance(order, random.Random)
    server = VersionedServer(catalogue, holds)
    with respx.mock(base_url=BASE_URL, assert_all_called=False) as router:
        router.get("/v1/schedules").mock(side_effect=server.answer)
        router.get("/v1/schedules/counts").mock(
            return_value=httpx.Response(200, json=counts_json())
        )
        async with ScheduleClient(BASE_URL, sleep=no_sleep) as api:
            vm = ScheduleListViewModel(
                api, clock=FakeClock(NOW), device_zone=ZoneInfo("UTC"), page_size=4
            )
            tasks: set[asyncio.Task[None]] = set()

            def check() -> None:
                ids = [row.schedule_id for row in vm.snapshot.rows]
                assert len(ids) == len(set(ids)), "a schedule shown twice"

            for command in ["reload", *script]:
                if command == "release":
                    if server.pending:
                        server.pending.pop(order.randrange(len(server.pending))).set()
                        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                        tasks -= done
                else:
                    server.arrived.clear()
                    task = asyncio.create_task(getattr(vm, command)())
                    arrival = asyncio.create_task(server.arrived.wait())
                    await asyncio.wait({task, arrival}, return_when=asyncio.FIRST_COMPLETED)
                    arrival.cancel()
                    if not task.done():
                        tasks.add(task)
                    else:
                        tasks.discard(task)
                check()
                assert server.requests <= 3 * (len(script) + 1), "paging looped"
            while server.pending:
                server.pending.pop(order.randrange(len(server.pending))).set()
            await asyncio.gather(*tasks)
            check()
            newest = f"v{server.version}"
            assert all(row.title == newest for row in vm.snapshot.rows), "an older reload leaked"

            server.holds = []
            await vm.reload()
            for _ in range(4 * len(catalogue.pages) + 4):
                if vm.snapshot.phase is FeedPhase.END_REACHED:
                    break
                if vm.snapshot.first_page_error or vm.snapshot.later_page_error:
                    await vm.retry()
                else:
                    await vm.load_more()
                check()
            assert vm.snapshot.phase is FeedPhase.END_REACHED, "paging never ended"
            assert [row.title for row in vm.snapshot.rows] == [f"v{server.version}"] * len(
                vm.snapshot.rows
            )
            expected = [summary(name)["schedule_id"] for name in server.reachable()]
            assert [str(row.schedule_id) for row in vm.snapshot.rows] == expected
