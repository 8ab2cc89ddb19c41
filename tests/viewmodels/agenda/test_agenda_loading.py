"""Reading the agenda: the window and filters sent, the list's paging safeguards, a server
without the agenda, the last agenda read shown offline, and Back's day.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from devtools.api_bodies import page_json
from tests.viewmodels.agenda.conftest import AgendaWindow, item
from tests.viewmodels.fake_server import ScriptedRoute, ok, refused, server_down
from transport.retry import MAX_ATTEMPTS
from viewmodels.agenda import NOT_OFFERED_TEXT, AgendaSpan, AgendaViewModel
from viewmodels.paging import FeedPhase

MIDNIGHT = datetime(2026, 12, 1, tzinfo=UTC)
NINE = MIDNIGHT + timedelta(hours=9)


def _titles(agenda: AgendaViewModel) -> list[str]:
    return [row.title for day in agenda.snapshot.days for row in day.rows]


async def test_the_window_is_the_persons_day_and_the_filters_are_the_lists(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute
) -> None:
    agenda_route.script(None, ok(page_json()))
    await agenda.open()
    await agenda.type_query("digest")
    await agenda.select_attention(True)
    params = agenda_route.requests[-1].url.params
    assert (params["from"], params["to"]) == ("2026-12-01T00:00:00Z", "2026-12-02T00:00:00Z")
    assert (params["q"], params["needs_attention"]) == ("digest", "true")
    assert agenda.snapshot.empty_text == "No firings match “digest”"


async def test_a_server_without_the_agenda_says_so_and_shows_no_error(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute
) -> None:
    agenda_route.script(None, refused(404, "http.404"))
    await agenda.open()
    shown = agenda.snapshot
    assert shown.not_offered
    assert shown.first_page_error is None
    assert shown.empty_text is None
    assert NOT_OFFERED_TEXT == "This server does not offer an agenda"


async def test_a_later_page_repeating_a_firing_shows_it_once(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute
) -> None:
    a, b = item("a", NINE), item("b", NINE + timedelta(hours=1))
    agenda_route.script(None, ok(page_json(a, b, next_cursor="c2")))
    agenda_route.script("c2", ok(page_json(b, item("c", NINE + timedelta(hours=2)))))
    await agenda.open()
    await agenda.load_more()
    assert _titles(agenda) == ["a", "b", "c"]


async def test_a_repeated_cursor_ends_paging(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute
) -> None:
    agenda_route.script(None, ok(page_json(item("a", NINE), next_cursor="c2")))
    agenda_route.script("c2", ok(page_json(item("b", NINE), next_cursor="c2")))
    await agenda.open()
    await agenda.load_more()
    assert agenda.snapshot.phase is FeedPhase.END_REACHED
    assert not agenda.snapshot.can_load_more


async def test_a_failed_later_page_keeps_the_rows_and_retry_asks_for_that_page(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute
) -> None:
    agenda_route.script(None, ok(page_json(item("a", NINE), next_cursor="c2")))
    agenda_route.script("c2", *server_down(), ok(page_json(item("b", NINE))))
    await agenda.open()
    await agenda.load_more()
    assert _titles(agenda) == ["a"]
    assert agenda.snapshot.later_page_error is not None
    await agenda.retry()
    assert agenda_route.cursors[-1] == "c2"
    assert _titles(agenda) == ["a", "b"]
    assert agenda.snapshot.later_page_error is None


async def test_an_older_window_answering_late_never_replaces_the_newer(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute
) -> None:
    held = agenda_route.hold(None, ok(page_json(item("today", NINE))))
    agenda_route.script(None, ok(page_json(item("week", NINE + timedelta(days=2)))))
    opening = asyncio.create_task(agenda.open())
    await held.arrived.wait()
    await agenda.select_span(AgendaSpan.WEEK)
    held.release()
    await opening
    assert _titles(agenda) == ["week"]
    assert agenda.snapshot.span is AgendaSpan.WEEK


async def test_offline_the_agenda_last_read_stays_under_the_banner(
    new_window: Callable[[], AgendaWindow], agenda_route: ScriptedRoute
) -> None:
    window = new_window()
    agenda, offline = window.agenda, window.offline
    away = tuple(refused(503, "server.unavailable") for _ in range(MAX_ATTEMPTS))
    agenda_route.script(None, ok(page_json(item("a", NINE))), *away)
    await agenda.open()
    await agenda.reload()
    assert _titles(agenda) == ["a"]
    assert agenda.snapshot.cached_at is not None
    assert agenda.snapshot.first_page_error is None
    assert offline.snapshot.offline


async def test_opening_a_row_keeps_its_day_for_back(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute
) -> None:
    agenda_route.script(None, ok(page_json(item("a", NINE + timedelta(days=3)))))
    await agenda.select_span(AgendaSpan.WEEK)
    [day] = agenda.snapshot.days
    agenda.mark_opened(day.rows[0].schedule_id, day.day)
    assert agenda.snapshot.anchor == day.day
