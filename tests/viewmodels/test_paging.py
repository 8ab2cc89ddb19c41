"""The paging object every paged screen composes: its four safeguards, each on its own.

The feed is driven directly with a scripted ``fetch`` (no HTTP): each cursor
answers a page or raises, and an answer can be held on an ``asyncio.Event`` so
a test decides which of two overlapping loads finishes first.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from transport.errors import ApiError, ConnectionFailed
from transport.models import Page
from viewmodels.paging import CursorFeed, FeedPhase, FeedState, LatestRequest


@dataclass(frozen=True)
class Item:
    key: str
    version: int = 1


@dataclass
class Script:
    """Answers per cursor; ``hold(cursor)`` makes that cursor's next answer wait for a release."""

    pages: dict[str | None, list[Page[Item] | ApiError]]
    asked: list[str | None] = field(default_factory=list)
    gates: dict[str | None, asyncio.Event] = field(default_factory=dict)
    arrived: dict[str | None, asyncio.Event] = field(default_factory=dict)

    def hold(self, cursor: str | None) -> Callable[[], None]:
        self.gates[cursor] = asyncio.Event()
        self.arrived[cursor] = asyncio.Event()
        return self.gates[cursor].set

    async def __call__(self, cursor: str | None) -> Page[Item]:
        self.asked.append(cursor)
        answers = self.pages[cursor]
        answer = answers.pop(0) if len(answers) > 1 else answers[0]
        gate = self.gates.pop(cursor, None)
        if gate is not None:
            self.arrived[cursor].set()
            await gate.wait()
        if isinstance(answer, ApiError):
            raise answer
        return answer


def page(keys: str, next_cursor: str | None = None, version: int = 1) -> Page[Item]:
    return Page[Item](items=[Item(key, version) for key in keys], next_cursor=next_cursor)


def feed() -> tuple[CursorFeed[Item, str], list[FeedState[str]]]:
    states: list[FeedState[str]] = []
    made: CursorFeed[Item, str] = CursorFeed(
        key=lambda item: item.key,
        to_row=lambda item: f"{item.key}{item.version}",
        on_change=states.append,
    )
    return made, states


async def test_safeguard_1_an_item_already_shown_is_ignored_when_a_later_page_repeats_it() -> None:
    rows, _ = feed()
    script = Script({None: [page("ab", "c2")], "c2": [page("bc")]})
    await rows.reload(script)
    await rows.load_more()
    assert rows.state.rows == ("a1", "b1", "c1")


async def test_safeguard_2_a_cursor_already_requested_ends_paging() -> None:
    rows, _ = feed()
    script = Script({None: [page("a", "c2")], "c2": [page("b", "c3")], "c3": [page("c", "c2")]})
    await rows.reload(script)
    await rows.load_more()
    await rows.load_more()
    assert rows.state.phase is FeedPhase.END_REACHED
    await rows.load_more()
    assert script.asked == [None, "c2", "c3"], "no loop back to c2"


async def test_safeguard_2_a_page_naming_its_own_cursor_as_next_ends_paging() -> None:
    rows, _ = feed()
    script = Script({None: [page("a", "c2")], "c2": [page("b", "c2")]})
    await rows.reload(script)
    await rows.load_more()
    assert rows.state.phase is FeedPhase.END_REACHED
    assert not rows.state.can_load_more


async def test_safeguard_3_an_older_reload_never_overwrites_a_newer_one() -> None:
    rows, _ = feed()
    older = Script({None: [page("ab", version=1)]})
    newer = Script({None: [page("ab", version=2)]})
    release = older.hold(None)
    first = asyncio.create_task(rows.reload(older))
    await older.arrived[None].wait()
    await rows.reload(newer)
    release()
    await first
    assert rows.state.rows == ("a2", "b2")


async def test_safeguard_3_a_later_page_of_an_older_reload_is_dropped() -> None:
    rows, _ = feed()
    older = Script({None: [page("a", "c2")], "c2": [page("z")]})
    await rows.reload(older)
    release = older.hold("c2")
    later = asyncio.create_task(rows.load_more())
    await older.arrived["c2"].wait()
    await rows.reload(Script({None: [page("b")]}))
    release()
    await later
    assert rows.state.rows == ("b1",)
    assert rows.state.phase is FeedPhase.END_REACHED


async def test_safeguard_4_a_failed_later_page_keeps_rows_and_retry_asks_for_that_page() -> None:
    rows, _ = feed()
    script = Script({None: [page("a", "c2")], "c2": [ConnectionFailed(), page("b")]})
    await rows.reload(script)
    await rows.load_more()
    assert rows.state.rows == ("a1",)
    assert isinstance(rows.state.later_page_failure, ConnectionFailed)
    assert rows.state.phase is FeedPhase.LOADED and not rows.state.can_load_more
    await rows.retry()
    assert script.asked == [None, "c2", "c2"]
    assert rows.state.rows == ("a1", "b1")
    assert rows.state.later_page_failure is None


async def test_a_failed_first_page_is_the_failed_phase_and_retry_reads_page_one_again() -> None:
    rows, _ = feed()
    script = Script({None: [ConnectionFailed(), page("a")]})
    await rows.reload(script)
    assert rows.state.phase is FeedPhase.FAILED
    assert rows.state.rows == ()
    await rows.retry()
    assert script.asked == [None, None]
    assert rows.state.rows == ("a1",)


async def test_rows_stay_visible_while_page_one_is_read_again() -> None:
    rows, states = feed()
    await rows.reload(Script({None: [page("a")]}))
    script = Script({None: [page("b")]})
    release = script.hold(None)
    reloading = asyncio.create_task(rows.reload(script))
    await script.arrived[None].wait()
    assert rows.state.phase is FeedPhase.LOADING_FIRST_PAGE
    assert rows.state.rows == ("a1",)
    release()
    await reloading
    assert [state.phase for state in states] == [
        FeedPhase.LOADING_FIRST_PAGE,
        FeedPhase.END_REACHED,
        FeedPhase.LOADING_FIRST_PAGE,
        FeedPhase.END_REACHED,
    ]


async def test_clear_drops_an_answer_still_in_flight() -> None:
    rows, _ = feed()
    script = Script({None: [page("a")]})
    release = script.hold(None)
    loading = asyncio.create_task(rows.reload(script))
    await script.arrived[None].wait()
    rows.clear()
    release()
    await loading
    assert rows.state == FeedState()


async def test_replace_shows_an_item_in_place_and_keeps_every_other_row() -> None:
    rows, _ = feed()
    await rows.reload(Script({None: [page("abc")]}))
    assert rows.replace(Item("b", 2))
    assert rows.state.rows == ("a1", "b2", "c1")
    assert not rows.replace(Item("z", 2)), "an item not loaded changes nothing"
    assert rows.state.rows == ("a1", "b2", "c1")


async def test_remake_rows_makes_every_loaded_row_again_and_says_so_only_on_a_change() -> None:
    suffix = ["1"]
    states: list[FeedState[str]] = []
    rows: CursorFeed[Item, str] = CursorFeed(
        key=lambda item: item.key,
        to_row=lambda item: f"{item.key}{item.version}{suffix[0]}",
        on_change=states.append,
    )
    await rows.reload(Script({None: [page("ab", "c2")], "c2": [page("c")]}))
    await rows.load_more()
    rows.replace(Item("b", 2))
    told = len(states)
    rows.remake_rows()
    assert len(states) == told, "rows made the same: nothing to tell"
    suffix[0] = "'"
    rows.remake_rows()
    assert rows.state.rows == ("a1'", "b2'", "c1'"), "every page, the replaced item included"
    assert rows.state.phase is FeedPhase.END_REACHED
    assert len(states) == told + 1


def test_only_the_latest_ticket_is_current_and_drop_retires_them_all() -> None:
    requests = LatestRequest()
    first = requests.begin()
    second = requests.begin()
    assert not requests.is_current(first)
    assert requests.is_current(second)
    requests.drop()
    assert not requests.is_current(second)
