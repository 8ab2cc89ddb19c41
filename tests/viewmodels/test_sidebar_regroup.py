"""The sidebar's full regroup stays exact while it is made cheap.

Age lines are memoized per distinct text (``AgeLines``): every text must still
be ``age_text``'s, including across zone transitions and in zones with
half-hour and 45-minute offsets. Rows are reused whenever nothing they show
changed, also when the reconciled sessions are equal but new objects.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, fields, replace
from datetime import UTC, datetime, timedelta, timezone
from uuid import UUID
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from devtools.api_bodies import uid
from viewmodels.formatting import age_text
from viewmodels.sidebar.group_rows import GroupRows
from viewmodels.sidebar.grouping import SessionIndex
from viewmodels.sidebar.history_cache import CachedSession
from viewmodels.sidebar.rows import AgeLines, OrderedRows, SessionRow, session_row

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
ZONES = [
    "Europe/London",
    "America/New_York",
    "Australia/Lord_Howe",  # 30-minute DST shift
    "Asia/Kathmandu",  # +05:45
    "Pacific/Apia",  # skipped 30 Dec 2011 entirely
    "America/St_Johns",  # -03:30 with DST
]


@pytest.mark.parametrize("zone_name", ZONES)
def test_every_memoized_age_line_is_age_texts_around_transitions(zone_name: str) -> None:
    zone = ZoneInfo(zone_name)
    now = datetime(2027, 1, 3, 0, 0, tzinfo=UTC)
    lines = AgeLines(now, zone)
    # Every 7 minutes 13 seconds through 2011 (both DST changes everywhere, and
    # Apia's skipped day) reaches each local midnight at a different phase;
    # then every few hours up to ``now``.
    step = timedelta(minutes=7, seconds=13, microseconds=1)
    then = datetime(2011, 3, 1, tzinfo=UTC)
    checked = 0
    while then <= now + timedelta(minutes=5):
        assert lines.text(then) == age_text(then, now, zone), then
        then += step if then < datetime(2012, 1, 10, tzinfo=UTC) else step * 37
        checked += 1
    assert checked > 60_000


@settings(max_examples=300, deadline=None)
@given(
    zone_name=st.sampled_from(ZONES),
    back=st.timedeltas(min_value=timedelta(days=-2), max_value=timedelta(days=6_000)),
    offset=st.sampled_from([timedelta(0), timedelta(hours=5, minutes=30), timedelta(hours=-9)]),
)
def test_age_lines_match_age_text_for_any_instant_and_its_own_offset(
    zone_name: str, back: timedelta, offset: timedelta
) -> None:
    zone = ZoneInfo(zone_name)
    lines = AgeLines(NOW, zone)
    then = (NOW - back).astimezone(timezone(offset))
    warm = lines.text(NOW - back - timedelta(seconds=1))  # a neighbour fills the memo first
    assert warm == age_text(NOW - back - timedelta(seconds=1), NOW, zone)
    assert lines.text(then) == age_text(then, NOW, zone)


def test_minute_hour_and_day_boundaries_are_exact() -> None:
    lines = AgeLines(NOW, ZoneInfo("Europe/London"))
    micro = timedelta(microseconds=1)
    cases = {
        timedelta(seconds=59) + 999_999 * micro: "just now",
        timedelta(minutes=1): "1 min ago",
        timedelta(hours=1) - micro: "59 min ago",
        timedelta(hours=1): "1 h ago",
        timedelta(days=1) - micro: "23 h ago",
        timedelta(days=1): "1 d ago",
        timedelta(days=7) - micro: "6 d ago",
        timedelta(days=7): "24 Nov 2026",
        -timedelta(minutes=3): "just now",
    }
    for back, text in cases.items():
        assert lines.text(NOW - back) == text, back


def sessions(count: int, schedules: int) -> list[CachedSession]:
    return [
        CachedSession(
            session_id=uid(f"s{n}"),
            title=f"Firing {n}",
            last_activity_at=NOW - timedelta(minutes=7 * n),
            folder_id=None,
            schedule_id=uid(f"sched{n % schedules}") if n % 5 else None,
        )
        for n in range(count)
    ]


def rebuilt(cached: list[CachedSession], index: SessionIndex, now: datetime = NOW) -> None:
    index.rebuild(cached, folders=None, now=now)


@pytest.mark.parametrize("schedule", [None, "s1"])
def test_a_new_row_is_the_frozen_row_its_constructor_makes_with_every_field_set(
    schedule: str | None,
) -> None:
    session = CachedSession(
        uid("chat"), "Morning digest", NOW, uid("folder"), uid(schedule) if schedule else None
    )
    made = session_row(session, "5 min ago", True, None)
    expected = SessionRow(
        session.session_id,
        "Morning digest",
        "5 min ago",
        session.schedule_id,
        session.folder_id,
        schedule is None,
        True,
    )
    assert type(made) is SessionRow
    assert [getattr(made, f.name) for f in fields(SessionRow)] == [
        getattr(expected, f.name) for f in fields(SessionRow)
    ]
    assert made == expected and hash(made) == hash(expected)
    with pytest.raises(FrozenInstanceError):
        made.title = "changed"  # type: ignore[misc]


def test_a_regroup_of_equal_new_sessions_reuses_every_row() -> None:
    index = SessionIndex(ZoneInfo("Europe/London"))
    cached = sessions(200, 7)
    rebuilt(cached, index)
    before = {row.session_id: row for group in index.scheduled for row in group.rows}
    before.update({row.session_id: row for row in index.history})
    copies = [replace(session) for session in cached]  # what a reconciliation hands in
    rebuilt(copies, index, NOW + timedelta(seconds=30))
    after = [row for group in index.scheduled for row in group.rows] + list(index.history)
    assert len(after) == 200
    assert all(row is before[row.session_id] for row in after)


def test_a_regroup_remakes_only_rows_whose_shown_text_changed() -> None:
    index = SessionIndex(ZoneInfo("Europe/London"))
    cached = sessions(40, 3)
    rebuilt(cached, index)
    old = {row.session_id: row for row in index.history}
    old.update({row.session_id: row for group in index.scheduled for row in group.rows})
    renamed = [replace(s, title="Renamed") if s.session_id == uid("s3") else s for s in cached]
    rebuilt(renamed, index, NOW + timedelta(minutes=1))
    new = {row.session_id: row for row in index.history}
    new.update({row.session_id: row for group in index.scheduled for row in group.rows})
    remade = {sid for sid, row in new.items() if row is not old[sid]}
    zone = ZoneInfo("Europe/London")
    later = NOW + timedelta(minutes=1)
    aged = {
        s.session_id
        for s in cached
        if age_text(s.last_activity_at, NOW, zone) != age_text(s.last_activity_at, later, zone)
    }
    assert len(aged) == 10  # 0 to 56 min old show a new minute, 119 min becomes "2 h ago"
    assert remade == aged | {uid("s3")}
    assert new[uid("s3")].title == "Renamed"


def test_a_regroup_walks_unsorted_input_into_activity_order() -> None:
    index = SessionIndex(ZoneInfo("Europe/London"))
    cached = sessions(60, 4)
    rebuilt(list(reversed(cached)), index)
    for group in index.scheduled:
        stamps = [row.session_id for row in group.rows]
        assert stamps == [s.session_id for s in cached if s.schedule_id == group.schedule_id]
    assert [row.session_id for row in index.history] == [
        s.session_id for s in cached if s.schedule_id is None
    ]
    assert index.sessions == cached


def test_append_out_of_order_still_keeps_key_order() -> None:
    rows: OrderedRows[str] = OrderedRows()
    for key in (1, 3, 2, 5, 0):
        rows.append(key, str(key))
    assert rows.as_tuple() == ("0", "1", "2", "3", "5")
    rows.remove(3)
    assert rows.as_tuple() == ("0", "1", "2", "5")


def test_a_selected_session_moving_to_another_schedule_takes_the_marker_along() -> None:
    index = SessionIndex(ZoneInfo("Europe/London"))
    cached = [
        CachedSession(uid(f"m{n}"), f"M{n}", NOW - timedelta(hours=n), None, uid(f"sched{n % 2}"))
        for n in range(6)
    ]
    index.select(uid("m0"))
    index.rebuild(cached, folders=None, now=NOW)
    marked = {group.schedule_id for group in index.scheduled if group.contains_selection}
    assert marked == {uid("sched0")}
    index.upsert(replace(cached[0], schedule_id=uid("sched1")), NOW)
    marked = {group.schedule_id for group in index.scheduled if group.contains_selection}
    assert marked == {uid("sched1")}


def eager_rows(
    group: list[CachedSession], now: datetime, zone: ZoneInfo, selected: UUID | None = None
) -> tuple[SessionRow, ...]:
    """The rows as a group showed them when every row was made at once."""
    return tuple(
        SessionRow(
            s.session_id,
            s.title,
            age_text(s.last_activity_at, now, zone),
            s.schedule_id,
            s.folder_id,
            False,
            s.session_id == selected,
        )
        for s in group
    )


def test_a_groups_rows_are_made_only_when_read_and_are_the_rows_an_eager_regroup_makes() -> None:
    zone = ZoneInfo("Europe/London")
    index = SessionIndex(zone)
    cached = sessions(200, 7)
    index.select(uid("s8"))
    index.set_expanded(uid("sched1"), True)
    rebuilt(cached, index)
    assert len(index.history) == 40, "History's rows are made at once: they show"
    assert index.scheduled and not any(group.rows.made for group in index.scheduled)
    for group in index.scheduled:
        members = [s for s in cached if s.schedule_id == group.schedule_id]
        assert len(group.rows) == group.count == len(members)
        assert not group.rows.made, "a count needs no rows"
        assert tuple(group.rows) == eager_rows(members, NOW, zone, uid("s8"))
        assert group.rows.made and group.rows[0] is group.rows.rows[0]


def test_a_group_that_shows_the_same_is_the_same_object_after_a_regroup() -> None:
    index = SessionIndex(ZoneInfo("Europe/London"))
    cached = sessions(200, 7)
    rebuilt(cached, index)
    before = index.scheduled
    rebuilt([replace(session) for session in cached], index, NOW + timedelta(seconds=30))
    assert all(new is old for new, old in zip(index.scheduled, before, strict=True))
    rebuilt(cached, index, NOW + timedelta(minutes=1))  # the newest sessions' minutes turn
    changed = [new for new, old in zip(index.scheduled, before, strict=True) if new is not old]
    assert changed and len(changed) < len(before)
    assert not any(group.rows.made for group in index.scheduled)


def test_comparing_regroups_an_hour_apart_makes_no_collapsed_groups_rows() -> None:
    """What the sidebar does each live round (``refresh_clock_texts``), and Flet on publish."""
    index = SessionIndex(ZoneInfo("Europe/London"))
    cached = sessions(200, 7)
    rebuilt(cached, index)
    before = index.scheduled
    rebuilt(cached, index, NOW + timedelta(hours=1))
    assert index.scheduled != before
    rebuilt(cached, index, NOW + timedelta(hours=1, seconds=20))
    assert not any(group.rows.made for group in (*before, *index.scheduled))


@settings(max_examples=300, deadline=None)
@given(
    ages=st.lists(
        st.timedeltas(min_value=timedelta(minutes=-3), max_value=timedelta(days=9)),
        min_size=1,
        max_size=6,
    ),
    first=st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=3)),
    later_by=st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=8)),
    selected=st.integers(min_value=-1, max_value=5),
    zone_name=st.sampled_from(ZONES),
)
def test_group_rows_compare_equal_exactly_when_the_rows_they_make_do(
    ages: list[timedelta], first: timedelta, later_by: timedelta, selected: int, zone_name: str
) -> None:
    zone = ZoneInfo(zone_name)
    members = tuple(
        sorted(
            (
                CachedSession(uid(f"g{n}"), f"Firing {n}", NOW - age, None, uid("sched"))
                for n, age in enumerate(ages)
            ),
            key=lambda s: s.order,
        )
    )
    key = members[selected].session_id.int if 0 <= selected < len(members) else None
    at_first, at_later = NOW + first, NOW + first + later_by
    for one, other in ((at_first, at_later), (at_later, at_first)):
        a = GroupRows(members, AgeLines(one, zone), key)
        b = GroupRows(members, AgeLines(other, zone), key)
        known = a.same_rows(b)
        compared = a == b
        kept = a.still_shows(members, AgeLines(other, zone), key)
        assert not (a.made or b.made), "known without making the rows"
        truth = a.rows == b.rows
        assert known is truth and compared is truth
        assert kept is (truth and one <= other), "kept only as the clock moves on"
        assert (
            eager_rows(list(members), one, zone, members[selected].session_id if key else None)
            == a.rows
        )


def test_group_rows_of_other_sessions_are_compared_by_their_rows() -> None:
    zone = ZoneInfo("Europe/London")
    one = CachedSession(uid("a"), "Digest", NOW - timedelta(hours=2), None, uid("sched"))
    renamed = replace(one, title="Digest (renamed)")
    same_text = replace(one, fired_at=NOW)  # another firing time: the row shows the same
    ages = AgeLines(NOW, zone)
    assert GroupRows((one,), ages, None).same_rows(GroupRows((renamed,), ages, None)) is None
    assert GroupRows((one,), ages, None) != GroupRows((renamed,), ages, None)
    assert GroupRows((one,), ages, None) == GroupRows((same_text,), ages, None)
    assert GroupRows((one,), ages, None) == eager_rows([one], NOW, zone)
