"""Add to calendar on the real embedded server: the saved file is the feed's calendar.

The app's view model over ``httpx.ASGITransport`` into ``open_embedded(...,
demo=True)``: the file handed to the saver parses as iCalendar with the
schedule's firings and never its instruction, and no feed is left behind.
"""

from __future__ import annotations

import icalendar

from tests.viewmodels.feeds.conftest import RecordingSaver
from transport.client import ScheduleClient
from transport.models import FEEDS_NOT_OFFERED
from transport.paging import iterate_pages
from viewmodels.feeds import AddToCalendarViewModel, CalendarPhase, FeedOffer
from viewmodels.server_kind import ServerKind

TITLE = "Nightly backup check"


async def test_the_embedded_calendar_file_holds_the_schedules_firings_and_no_feed_is_kept(
    api: ScheduleClient,
) -> None:
    pages = iterate_pages(lambda c: api.list_schedules(states=("ACTIVE",), cursor=c))
    [schedule_id] = [
        row.schedule_id async for page in pages for row in page.items if row.title == TITLE
    ]
    instruction = (await api.get_schedule(schedule_id)).revision.instruction
    saver = RecordingSaver()
    detail = AddToCalendarViewModel(api, FeedOffer(api), server=ServerKind.EMBEDDED, saver=saver)
    await detail.learn()
    await detail.add_schedule(schedule_id, TITLE)

    assert detail.snapshot.phase is CalendarPhase.FILE
    [(file_name, content)] = saver.files
    assert file_name == f"{TITLE}.ics"
    calendar = icalendar.Calendar.from_ical(content)
    events = list(calendar.walk("VEVENT"))
    assert events and {str(event["SUMMARY"]) for event in events} == {TITLE}
    assert all(str(event["UID"]).startswith(str(schedule_id)) for event in events)
    words = [str(value) for event in events for value in event.values()]
    assert not any(instruction in said for said in words)
    listed = await api.list_feeds()
    assert listed is not FEEDS_NOT_OFFERED and listed.items == []
