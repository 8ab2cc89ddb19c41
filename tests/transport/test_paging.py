"""iterate_pages follows cursors and refuses to loop."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx
import pytest
import respx

from devtools import api_bodies as bodies
from transport.client import ScheduleClient
from transport.errors import ApiError, NotFound, RepeatedCursor
from transport.models import Page
from transport.paging import CursorTrail, iterate_pages


def _fetcher(
    pages: dict[str | None, Page[int]], requested: list[str | None]
) -> Callable[[str | None], Awaitable[Page[int]]]:
    async def fetch(cursor: str | None) -> Page[int]:
        requested.append(cursor)
        return pages[cursor]

    return fetch


async def test_follows_cursors_until_null() -> None:
    requested: list[str | None] = []
    pages = {
        None: Page[int](items=[1, 2], next_cursor="a"),
        "a": Page[int](items=[3], next_cursor="b"),
        "b": Page[int](items=[4], next_cursor=None),
    }
    seen = [page.items async for page in iterate_pages(_fetcher(pages, requested))]
    assert seen == [[1, 2], [3], [4]]
    assert requested == [None, "a", "b"]


async def test_repeated_cursor_stops_paging() -> None:
    requested: list[str | None] = []
    pages = {
        None: Page[int](items=[1], next_cursor="a"),
        "a": Page[int](items=[2], next_cursor="b"),
        "b": Page[int](items=[3], next_cursor="a"),
    }
    seen: list[list[int]] = []
    with pytest.raises(RepeatedCursor) as caught:
        async for page in iterate_pages(_fetcher(pages, requested)):
            seen.append(page.items)
    assert caught.value.cursor == "a"
    assert isinstance(caught.value, ApiError)
    assert seen == [[1], [2], [3]]
    assert requested == [None, "a", "b"]


async def test_a_page_pointing_at_itself_stops_after_one_repeat() -> None:
    requested: list[str | None] = []
    pages = {None: Page[int](items=[], next_cursor="x"), "x": Page[int](items=[], next_cursor="x")}
    with pytest.raises(RepeatedCursor):
        async for _ in iterate_pages(_fetcher(pages, requested)):
            pass
    assert requested == [None, "x"]


def test_the_one_guard_ends_paging_at_null_or_a_cursor_already_requested() -> None:
    trail = CursorTrail()
    assert trail.ends_at(None)
    assert not trail.ends_at("a")
    trail.request("a")
    trail.request("a")  # a retry asks again: no repeat by itself
    assert trail.ends_at("a")
    assert not trail.ends_at("b")


async def test_fetch_errors_propagate_unchanged() -> None:
    async def fetch(cursor: str | None) -> Page[int]:
        raise NotFound(404, "session.not_found")

    with pytest.raises(NotFound):
        async for _ in iterate_pages(fetch):
            pass


async def test_pages_the_client_over_the_wire(router: respx.Router, client: ScheduleClient) -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        if "cursor" not in request.url.params:
            return httpx.Response(
                200, json=bodies.page_json(bodies.session_json(), next_cursor="p2")
            )
        return httpx.Response(200, json=bodies.page_json(bodies.session_json(title="Second")))

    route = router.get("/v1/sessions").mock(side_effect=answer)
    titles = [
        page.items[0].title
        async for page in iterate_pages(lambda cursor: client.list_sessions(cursor=cursor, limit=1))
    ]
    assert titles == ["Morning news digest", "Second"]
    assert [call.request.url.params.get("cursor") for call in route.calls] == [None, "p2"]
