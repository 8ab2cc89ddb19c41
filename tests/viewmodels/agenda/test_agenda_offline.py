"""The agenda offline across sessions: page one of each plain span is kept in the device's
view cache, and a new session that cannot reach the server shows it under the banner, as
the list does; a search is never answered from it, and a copy that does not read back is
forgotten.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from app.view_cache_keys import agenda_key
from devtools.api_bodies import NOW, page_json
from tests.clock import FakeClock
from tests.viewmodels.agenda.conftest import AgendaWindow, item
from tests.viewmodels.fake_server import Reply, ScriptedRoute, ok, refused
from transport.retry import MAX_ATTEMPTS
from viewmodels.agenda import AgendaSpan, AgendaViewModel
from viewmodels.formatting.marks import MarkKind
from viewmodels.offline import OfflineViewModel
from viewmodels.paging import FeedPhase
from viewmodels.ports import MemoryStorage

MIDNIGHT = datetime(2026, 12, 1, tzinfo=UTC)
NINE = MIDNIGHT + timedelta(hours=9)


def away() -> tuple[Reply, ...]:
    """A 503 for every attempt the client makes: the server cannot be reached."""
    return tuple(refused(503, "server.unavailable") for _ in range(MAX_ATTEMPTS))


def titles(agenda: AgendaViewModel) -> list[str]:
    return [row.title for day in agenda.snapshot.days for row in day.rows]


async def read_online(window: AgendaWindow, route: ScriptedRoute, *items: object) -> None:
    route.rescript(None, ok(page_json(*items)))
    await window.agenda.open()


async def test_a_new_session_that_cannot_reach_the_server_shows_the_agenda_last_seen(
    clock: FakeClock, agenda_route: ScriptedRoute, new_window: Callable[[], AgendaWindow]
) -> None:
    await read_online(new_window(), agenda_route, item("a", NINE), item("b", NINE))
    agenda_route.rescript(None, *away())
    clock.advance(hours=1)

    later = new_window()  # the app relaunched, the page reloaded
    await later.agenda.open()

    shown = later.agenda.snapshot
    assert titles(later.agenda) == ["a", "b"]
    assert shown.first_page_error is None
    assert shown.cached_at == NOW
    assert later.offline.snapshot.banner_text == (
        "Can't reach the schedule server. Showing what was read at 07:00 (1 h ago)."
    )


async def test_a_firing_passed_since_the_copy_was_read_is_due_as_of_then_never_an_outcome(
    clock: FakeClock, agenda_route: ScriptedRoute, new_window: Callable[[], AgendaWindow]
) -> None:
    ran = item("ran", NOW - timedelta(hours=1), disposition="MATERIALIZED")
    await read_online(
        new_window(),
        agenda_route,
        ran,
        item("passed", NINE),
        item("to come", NOW + timedelta(hours=5)),
    )
    agenda_route.rescript(None, *away())
    clock.advance(hours=3)  # 10:00: the 09:00 firing passed while the server was away

    later = new_window()
    await later.agenda.open()

    rows = {row.title: row for day in later.agenda.snapshot.days for row in day.rows}
    assert rows["ran"].outcome_text == "Ran"  # what the server said when it was read
    assert rows["passed"].outcome_text == "Due (as of 07:00)"
    assert rows["passed"].mark is MarkKind.FIRES
    assert "Due (as of 07:00)" in rows["passed"].name
    assert rows["to come"].outcome_text is None


async def test_each_span_shows_its_own_copy(
    agenda_route: ScriptedRoute, new_window: Callable[[], AgendaWindow]
) -> None:
    window = new_window()
    await read_online(window, agenda_route, item("today", NINE))
    agenda_route.rescript(None, ok(page_json(item("week", NINE + timedelta(days=2)))))
    await window.agenda.select_span(AgendaSpan.WEEK)
    agenda_route.rescript(None, *away())

    later = new_window()
    await later.agenda.open()
    assert titles(later.agenda) == ["today"]
    await later.agenda.select_span(AgendaSpan.WEEK)
    assert titles(later.agenda) == ["week"]
    await later.agenda.select_span(AgendaSpan.MONTH)  # never read: no copy to show
    assert titles(later.agenda) == []
    assert later.agenda.snapshot.first_page_error is not None


async def test_a_search_is_never_answered_from_the_copy(
    agenda_route: ScriptedRoute, new_window: Callable[[], AgendaWindow]
) -> None:
    await read_online(new_window(), agenda_route, item("a", NINE))
    agenda_route.rescript(None, *away())

    later = new_window()
    await later.agenda.open()
    await later.agenda.type_query("a")

    assert titles(later.agenda) == []
    assert later.agenda.snapshot.cached_at is None
    assert later.agenda.snapshot.first_page_error is not None
    await later.agenda.select_attention(True)
    assert titles(later.agenda) == []


async def test_a_searchs_answer_is_never_kept_as_the_agenda(
    agenda_route: ScriptedRoute, new_window: Callable[[], AgendaWindow]
) -> None:
    window = new_window()
    await read_online(window, agenda_route, item("a", NINE), item("b", NINE))
    agenda_route.rescript(None, ok(page_json(item("b", NINE))))
    await window.agenda.type_query("b")
    await window.agenda.select_attention(True)
    agenda_route.rescript(None, *away())

    later = new_window()
    await later.agenda.open()
    assert titles(later.agenda) == ["a", "b"]


async def test_a_kept_agenda_that_does_not_read_back_is_forgotten(
    storage: MemoryStorage, agenda_route: ScriptedRoute, new_window: Callable[[], AgendaWindow]
) -> None:
    await read_online(new_window(), agenda_route, item("a", NINE))
    agenda_route.rescript(None, *away())
    await storage.set(agenda_key("today"), {"read_at": "yesterday", "items": [{"title": 3}]})

    later = new_window()
    await later.agenda.open()

    assert titles(later.agenda) == []
    assert later.agenda.snapshot.first_page_error is not None
    assert not later.offline.snapshot.offline
    assert await storage.get(agenda_key("today")) is None


async def test_without_a_view_cache_the_agenda_keeps_no_copy(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute, offline: OfflineViewModel
) -> None:
    agenda_route.script(None, ok(page_json(item("a", NINE))), *away())
    await agenda.open()
    await agenda.reload()  # the embedded server's NoViewCache: nothing to fall back on
    assert titles(agenda) == []
    assert agenda.snapshot.first_page_error is not None
    assert not offline.snapshot.offline


async def test_a_session_started_while_the_server_is_away_paints_the_copy_first_never_an_error(
    agenda_route: ScriptedRoute, new_window: Callable[[], AgendaWindow]
) -> None:
    await read_online(new_window(), agenda_route, item("a", NINE))
    agenda_route.rescript(None, *away())
    asked_before = len(agenda_route.requests)
    later = new_window()
    seen: list[tuple[tuple[str, ...], int, bool]] = []
    later.agenda.subscribe(
        lambda shown: seen.append(
            (
                tuple(row.title for day in shown.days for row in day.rows),
                len(agenda_route.requests) - asked_before,
                shown.first_page_error is not None,
            )
        )
    )

    await later.agenda.open()

    painted = next(index for index, (shown, _, _) in enumerate(seen) if shown)
    assert seen[painted][:2] == (("a",), 0)  # painted before the server was asked
    assert all(shown == ("a",) for shown, _, _ in seen[painted:])  # never emptied again
    assert not any(failed for _, _, failed in seen)
    assert later.agenda.snapshot.phase is FeedPhase.END_REACHED
    assert later.offline.snapshot.offline


async def test_a_round_that_loses_the_server_while_rows_are_shown_turns_them_to_the_copy(
    clock: FakeClock, agenda_route: ScriptedRoute, new_window: Callable[[], AgendaWindow]
) -> None:
    window = new_window()
    await read_online(window, agenda_route, item("a", NINE))
    agenda_route.rescript(None, *away())
    clock.advance(minutes=5)
    await window.agenda.reload()  # a live round
    assert titles(window.agenda) == ["a"]
    assert window.agenda.snapshot.first_page_error is None, "never the failure over the rows"
    assert window.agenda.snapshot.cached_at == NOW
    assert window.offline.snapshot.offline


async def test_back_online_the_servers_agenda_replaces_the_copy_and_is_kept(
    storage: MemoryStorage, agenda_route: ScriptedRoute, new_window: Callable[[], AgendaWindow]
) -> None:
    await read_online(new_window(), agenda_route, item("a", NINE))
    agenda_route.rescript(None, *away())
    later = new_window()
    await later.agenda.open()
    assert later.agenda.snapshot.cached_at == NOW

    agenda_route.rescript(None, ok(page_json(item("b", NINE))))
    await later.agenda.retry()

    assert titles(later.agenda) == ["b"]
    assert later.agenda.snapshot.cached_at is None
    assert not later.offline.snapshot.offline
    agenda_route.rescript(None, *away())
    third = new_window()
    await third.agenda.open()
    assert titles(third.agenda) == ["b"]


async def test_a_server_that_no_longer_offers_the_agenda_says_so_over_the_painted_copy(
    agenda_route: ScriptedRoute, new_window: Callable[[], AgendaWindow]
) -> None:
    await read_online(new_window(), agenda_route, item("a", NINE))
    agenda_route.rescript(None, refused(404, "http.404"))

    later = new_window()
    await later.agenda.open()

    shown = later.agenda.snapshot
    assert shown.not_offered
    assert titles(later.agenda) == []
    assert shown.cached_at is None
    assert not later.offline.snapshot.offline
