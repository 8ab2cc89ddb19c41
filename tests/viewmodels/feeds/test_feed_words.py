"""The feed controls in the person's language: German for a de_DE locale.

``AddToCalendarViewModel`` has no zone, so it is given the locale; the feeds
list follows the locale its device zone carries. Dates come from Babel.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

import respx
from babel import Locale

from tests.viewmodels.fake_server import Reply, ScriptedRoute, ok
from transport.client import ScheduleClient
from viewmodels.feeds import AddToCalendarViewModel, CalendarFeedsViewModel, FeedOffer, FeedRow
from viewmodels.feeds.words import (
    CLOSE_LABEL,
    FEEDS_HEADING,
    REVOKE_LABEL,
    UNTITLED_FILE,
    calendar_file_name,
)
from viewmodels.formatting.clock_text import HourCycle, display_zone
from viewmodels.language import words_for
from viewmodels.server_kind import ServerKind

from .conftest import CALENDAR, FEED_ID, RecordingSaver, created_json, feed_json, feeds_page

GERMAN = Locale.parse("de_DE")
BERLIN = display_zone(ZoneInfo("Europe/Berlin"), HourCycle.LANGUAGE, GERMAN)


async def test_add_to_calendar_reads_in_german_for_a_de_DE_locale(
    api: ScheduleClient,
    feeds_route: ScriptedRoute,
    new_feed_route: ScriptedRoute,
    calendar_route: respx.Route,
    revoke_route: respx.Route,
    saver: RecordingSaver,
) -> None:
    feeds_route.script(None, ok(feeds_page(feed_json())))
    new_feed_route.script(None, Reply(201, created_json(schedule_id=None)))
    agenda = AddToCalendarViewModel(
        api, FeedOffer(api), server=ServerKind.EMBEDDED, saver=saver, locale=GERMAN
    )
    await agenda.learn()
    shown = agenda.snapshot
    assert (shown.add_label, shown.all_label) == (
        "Zum Kalender hinzufügen",
        "Alle Zeitpläne als Kalenderdatei speichern",
    )
    assert words_for(GERMAN).gettext(CLOSE_LABEL) == "Schließen"
    await agenda.add_all()
    assert saver.files == [("Alle Zeitpläne.ics", CALENDAR)]
    assert saver.titles == ["Kalenderdatei speichern"]
    assert agenda.snapshot.text == (
        "Alle Zeitpläne.ics gespeichert. Die Datei zeigt die Auslösungen von heute:"
        " Sie wird nicht aktualisiert, wenn sie sich ändern."
    )


def test_a_title_that_leaves_no_file_name_is_named_in_the_persons_language() -> None:
    assert UNTITLED_FILE == "Schedule"
    assert calendar_file_name("...", words=words_for(GERMAN)) == "Zeitplan.ics"


async def test_the_feeds_list_reads_in_the_language_its_zone_carries(
    api: ScheduleClient, feeds_route: ScriptedRoute
) -> None:
    feeds_route.script(None, ok(feeds_page(feed_json(created_at="2026-12-01T09:30:00Z"))))
    feeds = CalendarFeedsViewModel(api, FeedOffer(api), device_zone=BERLIN)
    await feeds.load()
    german = words_for(GERMAN)
    assert (german.gettext(FEEDS_HEADING), german.gettext(REVOKE_LABEL)) == (
        "Kalender-Abos",
        "Widerrufen",
    )
    assert feeds.snapshot.rows == (
        FeedRow(
            FEED_ID,
            "Water the plants",
            "Erstellt am 1. Dez. 2026",
            "Water the plants, erstellt am 1. Dez. 2026",
            "„Water the plants“ widerrufen? Kalender-Apps, die es abonniert haben,"
            " erhalten sofort keine Auslösungen mehr.",
        ),
    )
