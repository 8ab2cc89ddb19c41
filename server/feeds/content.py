"""What a feed holds at ``now``: its events over the feed's window, bounded, and its words.

A one-schedule feed is the projection route's answer over the window, as the
schedule's owner would get it (``ScheduleService.project``): future firings
exactly as the projection computes them (ACTIVE only: a paused, completed or
cancelled schedule has no future events) and past ones from the occurrence
ledger with what became of them. A schedule that is gone (purged) gives an
empty calendar. A feed of all schedules is the agenda's content
(``server.agenda.sweep``, the ``GET /v1/agenda`` merge), read outward from
now so that only about the bound's worth of items is computed: the next
``MAX_EVENTS`` forward, and the past in bands reaching back from now.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Final
from uuid import UUID

from server.agenda.items import AgendaItem, cadence_of
from server.agenda.sweep import agenda_page
from server.control.service import ScheduleService, stored_cadence
from server.definitions.errors import ScheduleNotFound
from server.domain.states import ScheduleState
from server.feeds.calendar import FeedCalendar
from server.feeds.events import DEFAULT_DURATION, FeedEvent, ScheduleFacts, firing_event
from server.feeds.window import MAX_EVENTS, feed_window, nearest
from server.feeds.words import cadence_words, state_words
from server.identity import Principal
from server.storage.agenda_port import AgendaRows
from server.storage.jsontext import canonical_json, load_object
from server.storage.ports import Store
from server.storage.records import CalendarFeed, Owner, PastOccurrence

__all__ = ["agenda_events", "feed_calendar", "schedule_events"]

FIRST_PAST_BAND: Final = timedelta(hours=1)
"""The first band reaching back from now; each next one is twice as long."""


def feed_calendar(
    service: ScheduleService,
    store: Store,
    principal: Principal,
    feed: CalendarFeed,
    now: datetime,
) -> FeedCalendar:
    """The calendar ``feed`` answers at ``now``, read as ``principal`` (its owner)."""
    start, end = feed_window(now)
    if feed.schedule_id is None:
        found = agenda_events(store.agenda, principal.owner, (start, end), now)
        what = "all your schedules"
    else:
        title, found = schedule_events(service, principal, feed.schedule_id, start, end)
        what = "a schedule that no longer exists" if title is None else f"“{title}”"
    events, cut = nearest(found, now)
    description = f"Firings of {what} from 30 days ago to 60 days ahead."
    if cut:
        description += (
            f" Only the {MAX_EVENTS:,} firings nearest to now are shown; more fall in these dates."
        )
    return FeedCalendar(
        name=feed.name,
        description=description,
        events=events,
        stamp=feed.created_at,
        first_day=start.date(),
        last_day=end.date(),
    )


def schedule_events(
    service: ScheduleService,
    principal: Principal,
    schedule_id: UUID,
    start: datetime,
    end: datetime,
) -> tuple[str | None, list[FeedEvent]]:
    """One schedule's title and events in ``[start, end)``; no title nor events when it is gone."""
    try:
        projection = service.project(principal, schedule_id, start, end)
    except ScheduleNotFound:
        return None, []
    view = projection.view
    record = view.schedule
    facts = ScheduleFacts.of(
        record.schedule_id,
        load_object(view.revision.definition),
        stored_cadence(view.revision),
        record.state,
        record.pause_reason,
    )
    events = [
        firing_event(facts, past.occurrence.nominal_fire_at, *_outcome(past))
        for past in projection.past
    ]
    if record.state == ScheduleState.ACTIVE:
        events += [firing_event(facts, firing.at) for firing in projection.firings]
    return facts.title, events


def _outcome(past: PastOccurrence) -> tuple[str | None, str | None, str | None]:
    occurrence = past.occurrence
    return occurrence.disposition, occurrence.reason_code, past.run_status


def agenda_events(
    rows: AgendaRows, owner: Owner, window: tuple[datetime, datetime], now: datetime
) -> list[FeedEvent]:
    """The agenda's items nearest to ``now`` in ``window``: at least ``MAX_EVENTS`` of them
    on either side of now when it holds that many, each side nearest first."""
    start, end = window
    past: list[AgendaItem] = []
    with rows.reading() as reads:
        ahead = (
            agenda_page(reads, owner, (now, end), now, limit=MAX_EVENTS).items if now < end else ()
        )
        high, length = now, FIRST_PAST_BAND
        while high > start and len(past) < MAX_EVENTS:
            low = max(start, high - length)
            band = agenda_page(reads, owner, (low, high), now, limit=MAX_EVENTS)
            if band.more and high - low > FIRST_PAST_BAND:
                # More than the bound in this band: only its latest can be kept, so look nearer.
                length = (high - low) / 2
                continue
            past.extend(band.items)
            high, length = low, length * 2
    return [_agenda_event(item) for item in (*past, *ahead)]


def _agenda_event(item: AgendaItem) -> FeedEvent:
    facts = item.facts
    cadence = cadence_of(canonical_json(facts.cadence)) if isinstance(facts.cadence, dict) else None
    shared = ScheduleFacts(
        schedule_id=item.schedule_id,
        title=facts.title,
        zone=item.zone,
        duration=facts.run_limit or DEFAULT_DURATION,
        cadence="" if cadence is None else cadence_words(cadence),
        state=state_words(item.state, None),
    )
    return firing_event(shared, item.at, item.disposition, item.reason_code, item.run_status)
