"""The agenda's past instants nothing was recorded for: "Not fired" only when the server says so.

A server that marks such an item ``expected`` gets "Not fired: nothing was
recorded (the scheduler was not running)" and its own mark; an older server,
which sends ``disposition: null`` without ``expected``, keeps today's "No record".
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from devtools.api_bodies import page_json
from tests.viewmodels.agenda.conftest import item
from tests.viewmodels.fake_server import ScriptedRoute, ok
from viewmodels.agenda import AgendaViewModel
from viewmodels.formatting.marks import MarkKind

EARLY = datetime(2026, 12, 1, 6, 30, tzinfo=UTC)
"""Before ``NOW`` (07:00): a past instant of today."""


async def test_a_past_instant_the_server_expected_says_not_fired_with_its_own_mark(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute
) -> None:
    agenda_route.script(None, ok(page_json(item("daily", EARLY, disposition=None, expected=True))))
    await agenda.open()
    [row] = agenda.snapshot.days[0].rows
    said = "Not fired: nothing was recorded (the scheduler was not running)"
    assert (row.past, row.mark, row.outcome_text) == (True, MarkKind.NOT_FIRED, said)
    assert said in row.name


async def test_an_older_server_without_expected_keeps_no_record(
    agenda: AgendaViewModel, agenda_route: ScriptedRoute
) -> None:
    agenda_route.script(
        None,
        ok(
            page_json(
                item("older", EARLY, disposition=None),
                item("odd", EARLY + timedelta(minutes=1), disposition=None, expected="sometimes"),
            )
        ),
    )
    await agenda.open()
    older, odd = agenda.snapshot.days[0].rows
    for row in (older, odd):
        assert (row.mark, row.outcome_text) == (MarkKind.NO_RECORD, "No record")
