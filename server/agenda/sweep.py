"""The agenda: every firing of the caller's schedules in a window, a page at a time.

The window is swept in bands of instants from the page's start (the window's
start, or the cursor's instant). For each band, storage gives the schedules
whose cadence wall time falls in the band's wall-clock ranges of their zone
(one wall-clock stream per zone, merged), counted per herd: those sharing a
cadence that fire at each of its instants in the band. Each distinct
cadence's firings in the band come once from the scheduler's calculator
(``projection.firings_between``); a schedule created inside the band takes
them from its creation, so the agenda agrees with each schedule's projection
to the instant. Only the herds the page shows are read member by member.
The ledger's occurrences in the band are merged in by (schedule, instant): a
computed past instant takes its record's disposition, and a record the
cadence no longer names is an item of its own. Every item of a band is
counted, so an item's ``clash_count`` is complete. Bands grow fast until
the page is full (as far as the rate seen so far says), so a page costs its
own bands wherever it lies in the window.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final
from uuid import UUID
from zoneinfo import ZoneInfo

from server.agenda.items import AgendaItem, Facts, FactsCache, cadence_of
from server.agenda.wall_clock import wall_ranges
from server.domain.cadence import Cadence
from server.domain.projection import ProjectedFiring, firings_between, may_overlap
from server.domain.states import ScheduleState
from server.storage.agenda_port import (
    AgendaFilter,
    AgendaRows,
    Candidate,
    Herd,
    Recorded,
    WallRange,
)
from server.storage.jsontext import canonical_json
from server.storage.records import Owner

__all__ = ["FIRST_BAND", "AgendaPage", "agenda_page"]

FIRST_BAND: Final = timedelta(minutes=15)
"""The first band of a page without a hint from the page before."""
_TICK: Final = timedelta(microseconds=1)
_REST: Final = 4
"""A rest of the window at most this many bands long is swept as one band."""
_GROWTH: Final = 4
"""At most how much longer the next band is: a few shown items say little of the rate."""
_MARGIN: Final = 1.5
"""How far past the rate's estimate the next band reaches: firings come in herds."""
_FACTS = FactsCache()
_ZONES: dict[str, ZoneInfo] = {}
_Overlaps = dict[tuple[Cadence, datetime, timedelta | None], bool]


@dataclass(frozen=True, slots=True)
class AgendaPage:
    items: tuple[AgendaItem, ...]
    more: bool
    """Whether items follow the last one in the window."""
    band: timedelta
    """How far the next page's first band should reach (the span this page's items took)."""


@dataclass(slots=True)
class _Entry:
    schedule_id: UUID
    state: str
    revision: int
    zone: str
    cadence: Cadence | None
    firing: ProjectedFiring
    as_if_resumed: bool
    record: Recorded | None = None


def agenda_page(
    rows: AgendaRows,
    owner: Owner,
    window: tuple[datetime, datetime],
    now: datetime,
    *,
    as_if_resumed: bool = False,
    where: AgendaFilter = AgendaFilter(),  # noqa: B008 (frozen, immutable)
    after: tuple[datetime, UUID] | None = None,
    limit: int = 100,
    band: timedelta | None = None,
) -> AgendaPage:
    """The items after ``after`` (ordered by instant, then schedule id), at most ``limit``.

    ``as_if_resumed`` adds PAUSED schedules' firings after ``now``; ``band``
    is the previous page's hint for the first band's length.
    """
    start, end = window
    with rows.reading() as reads:
        computed = {ScheduleState.ACTIVE} | ({ScheduleState.PAUSED} if as_if_resumed else set())
        zones = reads.zones(owner, computed)
        position = start if after is None else after[0]
        length = max(band or FIRST_BAND, _TICK)
        clashes: Counter[datetime] = Counter()
        shown: list[_Entry] = []
        herds: list[_HerdFiring] = []
        records: dict[tuple[UUID, datetime], Recorded] = {}
        low = position
        while True:
            # The rest of the window, when a few bands would reach its end, is one band.
            high = end if end - low <= _REST * length else low + length
            swept = _band(reads, owner, zones, (low, high), now, where)
            records.update(swept.records)
            clashes.update(entry.firing.at for entry in swept.entries)
            for herd in swept.herds:
                clashes[herd.firing.at] += herd.herd.schedules
            shown.extend(
                e for e in swept.entries if after is None or (e.firing.at, e.schedule_id) > after
            )
            herds.extend(h for h in swept.herds if after is None or h.firing.at > after[0])
            if after is not None and low == position:
                shown += _at_cursor(reads, owner, where, swept.herds, after, limit, records)
            count = len(shown) + sum(herd.herd.schedules for herd in herds)
            if count > limit or high >= end:
                break
            low, length = high, _next_length(length, high - position, count, limit + 1)
        page = _page(reads, owner, where, shown, herds, records, limit)
        facts = _FACTS.get_all({(e.schedule_id, e.revision) for e in page}, reads.definitions)
        overlaps: _Overlaps = {}
        items = tuple(
            _item(e, facts.get((e.schedule_id, e.revision)), clashes[e.firing.at], overlaps)
            for e in page
        )
    reach = (page[-1].firing.at - position) if page else length
    return AgendaPage(items=items, more=count > limit, band=max(reach, FIRST_BAND))


def _at_cursor(
    rows: AgendaRows,
    owner: Owner,
    where: AgendaFilter,
    herds: Sequence[_HerdFiring],
    after: tuple[datetime, UUID],
    limit: int,
    records: dict[tuple[UUID, datetime], Recorded],
) -> list[_Entry]:
    """The members after the cursor of the herds firing at its instant (enough to fill a page)."""
    there = [herd for herd in herds if herd.firing.at == after[0]]
    if not there:
        return []
    found = rows.members(
        owner, [herd.herd for herd in there], where, after=after[1], limit=limit + 1
    )
    return [
        e
        for herd, members in zip(there, found, strict=True)
        for e in herd.entries(members, records)
    ]


def _page(
    rows: AgendaRows,
    owner: Owner,
    where: AgendaFilter,
    shown: list[_Entry],
    herds: Sequence[_HerdFiring],
    records: dict[tuple[UUID, datetime], Recorded],
    limit: int,
) -> list[_Entry]:
    """The first ``limit`` items, reading the members of only the herds at the page's instants.

    Every instant before the page's last is shown whole; at the last, each
    herd's first members by id are enough to fill the page.
    """
    per_instant: Counter[datetime] = Counter(entry.firing.at for entry in shown)
    for herd in herds:
        per_instant[herd.firing.at] += herd.herd.schedules
    whole: set[datetime] = set()
    taken, last = 0, None
    for at in sorted(per_instant):
        if taken + per_instant[at] > limit:
            last = at
            break
        whole.add(at)
        taken += per_instant[at]
    wanted = list({herd.herd for herd in herds if herd.firing.at in whole})
    found = dict(zip(wanted, rows.members(owner, wanted, where), strict=True))
    ending = list({herd.herd for herd in herds if herd.firing.at == last} - found.keys())
    found |= zip(ending, rows.members(owner, ending, where, limit=limit - taken), strict=True)
    entries = list(shown)
    for herd in herds:
        if herd.firing.at in whole or herd.firing.at == last:
            entries += herd.entries(found[herd.herd], records)
    return heapq.nsmallest(limit, entries, key=_order)


def _next_length(length: timedelta, swept: timedelta, shown: int, wanted: int) -> timedelta:
    """The next band: twice this one, or past what the rate seen so far says the page needs.

    A band costs a read whatever it holds, so a sparse agenda's page is found
    in a few bands rather than by doubling from a quarter of an hour.
    """
    if shown == 0:
        return length * _GROWTH
    estimate = swept * (wanted - shown) / shown * _MARGIN
    return min(max(length * 2, estimate), length * _GROWTH)


def _zone(name: str) -> ZoneInfo:
    """The zone, held: ZoneInfo's own cache keeps only the last eight alive, an owner may use more.

    Held here, every ``ZoneInfo(name)`` (the calculator's too) finds it loaded.
    """
    zone = _ZONES.get(name)
    if zone is None:
        zone = _ZONES[name] = ZoneInfo(name)
    return zone


def _order(entry: _Entry) -> tuple[datetime, int]:
    """The agenda's order: instant, then schedule id (a UUID orders as its integer)."""
    return entry.firing.at, entry.schedule_id.int


@dataclass(frozen=True, slots=True)
class _Swept:
    """A band: schedules on their own (and lone records) as entries, herds as their firings."""

    entries: list[_Entry]
    herds: list[_HerdFiring]
    records: dict[tuple[UUID, datetime], Recorded]
    """The records of herd members, by (schedule, instant), for when a member is read."""


def _band(
    rows: AgendaRows,
    owner: Owner,
    zones: Sequence[tuple[str, str]],
    band: tuple[datetime, datetime],
    now: datetime,
    where: AgendaFilter,
) -> _Swept:
    """Every item in ``[low, high)``: the computed streams merged with the ledger's."""
    low, high = band
    ranges = [
        WallRange(state, zone, first, last)
        for state, zone in zones
        for first, last in wall_ranges(_zone(zone), low, high)
    ]
    found = rows.band_schedules(owner, ranges, low, where)
    streams: dict[str, _Stream | None] = {}

    def stream_of(key: str) -> _Stream | None:
        return streams[key] if key in streams else streams.setdefault(key, _stream(key, band))

    computed: list[_Entry] = []
    for candidate in found.candidates:
        stream = stream_of(candidate.cadence_key)
        if stream is not None:
            computed.extend(_computed(candidate, stream, now))
    herds: list[_HerdFiring] = []
    for group in found.herds:
        stream = stream_of(group.cadence_key)
        if stream is not None:
            first = _first_firing(stream, group.state, low, now)  # created by the band's start
            herds.extend(_HerdFiring(group, stream.cadence, f) for f in stream.firings[first:])
    # An instant is recorded once it is due: a band that begins after now has no ledger.
    records = rows.recorded(owner, low, high, where) if low <= now else []
    if not records:
        return _Swept(computed, herds, {})
    by_instant = {(entry.schedule_id, entry.firing.at): entry for entry in computed}
    firing: dict[tuple[str, str | None, datetime], Herd] = {
        (h.herd.state, h.herd.cadence_key, h.firing.at): h.herd for h in herds
    }
    members: dict[tuple[UUID, datetime], Recorded] = {}
    for record in records:
        key = (record.schedule_id, record.at)
        same = by_instant.get(key)
        herd = firing.get((record.state, record.cadence_key, record.at))
        if same is not None:
            same.record = record
        elif herd is not None and herd.holds(record.created_at):
            members[key] = record
        else:
            by_instant[key] = _recorded_only(record)
    return _Swept(list(by_instant.values()), herds, members)


@dataclass(frozen=True, slots=True)
class _HerdFiring:
    """One firing of a herd: an entry for each of its members, once they are read."""

    herd: Herd
    cadence: Cadence
    firing: ProjectedFiring

    def entries(
        self, members: Sequence[Candidate], records: dict[tuple[UUID, datetime], Recorded]
    ) -> list[_Entry]:
        at = self.firing.at
        return [
            _firing_of(member, self.cadence, self.firing, records.get((member.schedule_id, at)))
            for member in members
        ]


@dataclass(frozen=True, slots=True)
class _Stream:
    """One cadence's firings in a band, shared by every candidate that has that cadence."""

    cadence: Cadence
    firings: list[ProjectedFiring]
    instants: list[datetime]


def _stream(cadence_key: str, band: tuple[datetime, datetime]) -> _Stream | None:
    """The cadence's firings in ``[low, high)`` from the calculator; None if it no longer reads."""
    cadence = cadence_of(cadence_key)
    if cadence is None:
        return None
    low, high = band
    firings = firings_between(cadence, low - _TICK, high)
    return _Stream(cadence, firings, [firing.at for firing in firings])


def _computed(candidate: Candidate, stream: _Stream, now: datetime) -> list[_Entry]:
    """The candidate's firings in the band: ACTIVE from its creation, PAUSED after now.

    A cadence's instants are one set wherever the calculator starts reading
    it, so the band's firings cut at the creation (or at now) are those the
    calculator gives from there.
    """
    first = _first_firing(stream, candidate.state, candidate.created_at, now)
    return [_firing_of(candidate, stream.cadence, firing) for firing in stream.firings[first:]]


def _first_firing(stream: _Stream, state: str, created: datetime, now: datetime) -> int:
    """Where a schedule's firings in the band start: PAUSED after now, else from its creation."""
    if state == ScheduleState.PAUSED:
        return bisect_right(stream.instants, now)
    return bisect_left(stream.instants, created)


def _firing_of(
    schedule: Candidate, cadence: Cadence, firing: ProjectedFiring, record: Recorded | None = None
) -> _Entry:
    """A computed firing of the schedule: PAUSED ones as if resumed."""
    return _Entry(
        schedule_id=schedule.schedule_id,
        state=schedule.state,
        revision=schedule.revision,
        zone=cadence.zone_name,
        cadence=cadence,
        firing=firing,
        as_if_resumed=schedule.state == ScheduleState.PAUSED,
        record=record,
    )


def _recorded_only(record: Recorded) -> _Entry:
    """A record no computed stream gave: placed by its cadence if it names it, else as read."""
    zone = record.cadence_zone or "UTC"
    return _Entry(
        schedule_id=record.schedule_id,
        state=record.state,
        revision=record.revision,
        zone=zone,
        cadence=None,
        firing=_placed(record.at, zone),
        as_if_resumed=False,
        record=record,
    )


def _placed(at: datetime, zone: str) -> ProjectedFiring:
    local = at.astimezone(_zone(zone))
    return ProjectedFiring(at, local, local.date(), local.time().replace(microsecond=0), None)


def _item(entry: _Entry, facts: Facts | None, clash_count: int, overlaps: _Overlaps) -> AgendaItem:
    record = entry.record
    firing = entry.firing
    if entry.cadence is None and facts is not None:
        firing = _as_named(facts, firing)
    return AgendaItem(
        schedule_id=entry.schedule_id,
        state=entry.state,
        zone=entry.zone,
        facts=facts or Facts(title="", cadence=None, run_limit=None),
        firing=firing,
        as_if_resumed=entry.as_if_resumed,
        disposition=None if record is None else record.disposition,
        reason_code=None if record is None else record.reason_code,
        run_status=None if record is None else record.run_status,
        clash_count=clash_count,
        may_overlap=_may_overlap(entry, facts, overlaps),
    )


def _as_named(facts: Facts, firing: ProjectedFiring) -> ProjectedFiring:
    """A recorded instant as the current cadence places it, when the cadence names it."""
    cadence = _stored_cadence(facts)
    if cadence is None:
        return firing
    named = firings_between(cadence, firing.at - _TICK, firing.at + _TICK)
    return named[0] if named and named[0].at == firing.at else firing


def _stored_cadence(facts: Facts) -> Cadence | None:
    if not isinstance(facts.cadence, dict):
        return None
    return cadence_of(canonical_json(facts.cadence))


def _may_overlap(entry: _Entry, facts: Facts | None, overlaps: _Overlaps) -> bool:
    """Whether the schedule's previous nominal firing is closer than its run-time limit.

    Asked once per (cadence, instant, limit) on a page: a herd shares its answers.
    """
    cadence = entry.cadence or (None if facts is None else _stored_cadence(facts))
    if cadence is None or facts is None:
        return False
    key = (cadence, entry.firing.at, facts.run_limit)
    known = overlaps.get(key)
    if known is None:
        known = overlaps[key] = may_overlap(cadence, entry.firing.at, facts.run_limit)
    return known
