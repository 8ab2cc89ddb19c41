"""The list soonest first (``next_fire_page``), on SQLite and PostgreSQL.

Paged whole at several page sizes, it is the oracle's order (``next_fire_position``
sorted), never repeats or skips a schedule, lists ACTIVE ones before PAUSED ones
before the ended, and its filters keep exactly what the default order's keep.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

import pytest

from server.domain.states import PauseReason, ScheduleState
from server.storage.jsontext import canonical_json
from server.storage.next_fire_order import NextFireGroup, NextFirePosition, next_fire_position
from server.storage.ports import Store
from server.storage.records import Owner, RevisionRecord, ScheduleRecord, ScheduleView
from server.storage.search_text import search_words

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
ALICE = Owner("acme", "alice")
CAROL = Owner("acme", "carol")

pytestmark = pytest.mark.each_backend


def _view(
    rng: random.Random, state: ScheduleState, *, owner: Owner = ALICE, title: str = "Report"
) -> ScheduleView:
    """A schedule of ``state`` whose instants often tie, so the id decides between them."""
    schedule_id = uuid4()
    updated = NOW - timedelta(minutes=rng.randrange(40))
    next_fire = None
    if state is ScheduleState.ACTIVE and rng.random() > 0.05:  # a few wait for their cache
        next_fire = NOW + timedelta(minutes=5 * rng.randrange(30))
    pause = PauseReason.USER if state is ScheduleState.PAUSED else None
    definition = canonical_json({"title": title, "instruction": "Open the page."})
    return ScheduleView(
        ScheduleRecord(
            schedule_id, owner, state, pause, 1, next_fire, 0, updated - timedelta(days=1), updated
        ),
        RevisionRecord(schedule_id, 1, definition, owner.principal_id, updated),
    )


def _mixed(count: int, seed: int = 34, **kwargs: object) -> list[ScheduleView]:
    rng = random.Random(seed)
    states = [ScheduleState.ACTIVE] * 6 + [ScheduleState.PAUSED] * 2
    states += [ScheduleState.COMPLETED, ScheduleState.CANCELLED]
    return [_view(rng, rng.choice(states), **kwargs) for _ in range(count)]  # type: ignore[arg-type]


def _oracle_key(view: ScheduleView) -> tuple[int, float, int]:
    """The order as a plain sort key: the soonest group ascending, the others newest first."""
    group, instant, schedule_id = next_fire_position(view.schedule)
    if group is NextFireGroup.SOON:
        return group, instant.timestamp(), schedule_id.int
    return group, -instant.timestamp(), -schedule_id.int


def _walk(
    store: Store, limit: int, states: frozenset[str] = frozenset(), **filters: object
) -> list[ScheduleView]:
    """Every page in turn, each continuing after the last row of the one before."""
    shown: list[ScheduleView] = []
    after: NextFirePosition | None = None
    while True:
        page = store.schedules.next_fire_page(ALICE, states, after, limit, **filters)  # type: ignore[arg-type]
        assert len(page) <= limit
        shown += page
        if len(page) < limit:
            return shown
        after = next_fire_position(page[-1].schedule)


def _ids(views: list[ScheduleView]) -> list[UUID]:
    return [view.schedule.schedule_id for view in views]


@pytest.mark.parametrize("limit", [1, 7, 50, 100])
def test_paging_the_whole_list_soonest_first_never_repeats_or_skips(
    store: Store, limit: int
) -> None:
    mine = _mixed(250)
    store.schedules.import_many([*mine, *_mixed(30, seed=7, owner=CAROL)])
    shown = _walk(store, limit)
    assert _ids(shown) == _ids(sorted(mine, key=_oracle_key))
    assert len(set(_ids(shown))) == 250


def test_active_schedules_come_soonest_first_then_paused_then_ended(store: Store) -> None:
    store.schedules.import_many(_mixed(250))
    states = [view.schedule.state for view in _walk(store, 25)]
    first_paused = states.index(ScheduleState.PAUSED)
    assert set(states[:first_paused]) == {ScheduleState.ACTIVE}
    assert ScheduleState.ACTIVE not in states[first_paused:]
    ended = {ScheduleState.COMPLETED, ScheduleState.CANCELLED}
    first_ended = min(i for i, state in enumerate(states) if state in ended)
    assert set(states[first_paused:first_ended]) == {ScheduleState.PAUSED}
    assert set(states[first_ended:]) == ended
    fires = [v.schedule.next_fire_at for v in _walk(store, 25) if v.schedule.next_fire_at]
    assert fires == sorted(fires)


def test_the_state_filter_keeps_only_its_groups(store: Store) -> None:
    mine = _mixed(120)
    store.schedules.import_many(mine)
    current = frozenset({ScheduleState.ACTIVE, ScheduleState.PAUSED})
    expected = [v for v in sorted(mine, key=_oracle_key) if v.schedule.state in current]
    assert _ids(_walk(store, 9, current)) == _ids(expected)
    paused = frozenset({ScheduleState.PAUSED})
    assert {v.schedule.state for v in _walk(store, 9, paused)} == {ScheduleState.PAUSED}


def test_search_and_needs_attention_keep_what_the_default_order_keeps(store: Store) -> None:
    mine = _mixed(60, title="Weekly invoice") + _mixed(60, seed=9, title="Daily digest")
    store.schedules.import_many(mine)
    words = search_words("invoice")
    soonest = _walk(store, 8, words=words)
    default = store.schedules.page(ALICE, frozenset(), None, 500, words=words)
    assert sorted(_ids(soonest)) == sorted(_ids(default))
    assert _ids(soonest) == _ids(sorted(soonest, key=_oracle_key))
    attention = _walk(store, 8, needs_attention=True, overdue_before=NOW + timedelta(hours=1))
    default = store.schedules.page(
        ALICE, frozenset(), None, 500, needs_attention=True, overdue_before=NOW + timedelta(hours=1)
    )
    assert attention, "some ACTIVE schedules are overdue at that instant"
    assert sorted(_ids(attention)) == sorted(_ids(default))


def test_another_principals_schedules_never_appear(store: Store) -> None:
    store.schedules.import_many(_mixed(40, owner=CAROL))
    assert store.schedules.next_fire_page(ALICE, frozenset(), None, 100) == []
