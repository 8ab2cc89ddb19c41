"""Search over the store, on SQLite and PostgreSQL: literal, every script, paged, confined.

Each test runs once per backend (``each_backend``). Search results are also
compared with an oracle (every folded word is a substring of the folded title
and instruction), and both ways the store answers a search are exercised: the
read along the list (a common word) and the database's own index (a rarer
one), each forced in turn (``_take``).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

import pytest
from sqlalchemy import text

from server.storage.jsontext import canonical_json, load_object
from server.storage.ports import Store
from server.storage.records import (
    Owner,
    RevisionRecord,
    ScheduleChange,
    ScheduleRecord,
    ScheduleView,
)
from server.storage.search_text import fold, search_words
from server.storage.sql import schedules as schedule_repository
from server.storage.sql.search_index import FTS_TABLE, TRIGRAM_INDEX
from server.storage.sql.store import SqlStore

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
ALICE = Owner("acme", "alice")
CAROL = Owner("acme", "carol")

LITERAL_TITLES = [
    "Plain morning digest",
    "Discount 100% off",
    "snake_case report",
    "O'Brien's notes",
    'The "quoted" word',
    "glob * star",
    "well-known sites",
    "Cats AND dogs",
    "NEAR(tea, cakes)",
    "Robert'); DROP TABLE schedules;--",
    "back\\slash path",
    "100 percent",
]
LITERAL_WORDS = [
    "%",
    "100%",
    "_",
    "e_c",
    "'",
    "o'brien's",
    '"',
    '"quoted"',
    "*",
    "-",
    "--",
    "AND",
    "and",
    "NEAR(",
    "NEAR(tea,",
    "');",
    "DROP TABLE",
    "schedules;--",
    "\\",
    "k\\s",
    "OR 1=1",
    "^",
]


pytestmark = pytest.mark.each_backend


def _view(
    title: str, instruction: str = "Open the page.", *, owner: Owner = ALICE, minutes: int = 0
) -> ScheduleView:
    schedule_id = uuid4()
    at = NOW + timedelta(minutes=minutes)
    definition = canonical_json({"title": title, "instruction": instruction})
    return ScheduleView(
        ScheduleRecord(schedule_id, owner, "ACTIVE", None, 1, at + timedelta(hours=1), 0, at, at),
        RevisionRecord(schedule_id, 1, definition, owner.principal_id, at),
    )


def _take(path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the store answer searches by reading the list in order, or through the index."""
    if path == "index":
        monkeypatch.setattr(schedule_repository, "PROBE_ROWS", 2)
        monkeypatch.setattr(schedule_repository, "WALK_ROWS", 0)
        monkeypatch.setattr(schedule_repository, "COMMON_SHARE", 2.0)
    else:
        monkeypatch.setattr(schedule_repository, "PROBE_ROWS", 2)
        monkeypatch.setattr(schedule_repository, "WALK_ROWS", 10**9)
        monkeypatch.setattr(schedule_repository, "COMMON_SHARE", 0.0)


def _add(store: Store, *views: ScheduleView) -> list[ScheduleView]:
    store.schedules.import_many(views)
    return list(views)


def _found(store: Store, query: str, owner: Owner = ALICE, limit: int = 100) -> set[UUID]:
    views = store.schedules.page(owner, frozenset(), None, limit, words=search_words(query))
    return {v.schedule.schedule_id for v in views}


def _expected(views: list[ScheduleView], query: str) -> set[UUID]:
    """The oracle: every folded word is a substring of the folded title and instruction."""
    words = search_words(query)
    matching = set()
    for view in views:
        payload = load_object(view.revision.definition)
        folded = fold(f"{payload['title']}\n{payload['instruction']}")
        if all(word in folded for word in words):
            matching.add(view.schedule.schedule_id)
    return matching


@pytest.mark.parametrize("path", ["read", "index"])
def test_every_character_of_a_search_is_literal(
    store: Store, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _take(path, monkeypatch)
    views = _add(store, *(_view(title, minutes=i) for i, title in enumerate(LITERAL_TITLES)))
    for query in LITERAL_WORDS:
        expected = _expected(views, query)
        assert 0 < len(expected) < len(views) or query in ("OR 1=1", "^"), query
        assert _found(store, query) == expected, query
        assert store.schedules.counts(ALICE, search_words(query)).current == len(expected), query


@pytest.mark.parametrize(
    ("text", "queries"),
    [
        ("Café crème order", ["cafe", "CAFE", "café", "CAFÉ", "creme", "CAFE CRÈME"]),
        ("Ёлка на праздник", ["елка", "ЁЛКА", "ёлка", "праздник"]),
        ("毎朝の会議メモを送る", ["会議", "会議メモ", "毎朝", "送る"]),
        ("每周报告汇总发给团队", ["报告", "汇总", "团队"]),
        ("Σύνοψη ειδήσεων", ["συνοψη", "ΣΥΝΟΨΗ", "ειδησεων"]),
        ("Straße reinigen", ["strasse", "STRASSE", "straße"]),
        ("\uff21\uff22\uff23 full width", ["abc", "ABC"]),  # full-width letters
    ],
    ids=["latin", "cyrillic", "japanese", "chinese", "greek", "german", "full-width"],
)
def test_search_ignores_case_and_accents_in_every_script(
    store: Store, text: str, queries: list[str]
) -> None:
    (wanted,) = _add(store, _view(text))
    _add(store, _view("Unrelated schedule", "Nothing here either."))
    for query in queries:
        assert _found(store, query) == {wanted.schedule.schedule_id}, query


def test_every_word_must_occur_in_the_title_or_instruction(store: Store) -> None:
    both, title_only, instruction_only = _add(
        store,
        _view("Weekly invoice", "Send the summary to finance."),
        _view("Weekly invoice", "Nothing else."),
        _view("Other", "Send the summary of the weekly invoice."),
    )
    assert _found(store, "invoice summary") == {
        both.schedule.schedule_id,
        instruction_only.schedule.schedule_id,
    }
    assert _found(store, "weekly") == {
        both.schedule.schedule_id,
        title_only.schedule.schedule_id,
        instruction_only.schedule.schedule_id,
    }
    assert _found(store, "   ") == _found(store, "")  # no words: no filter
    assert len(_found(store, "")) == 3


def test_no_other_principals_schedule_is_found_or_counted(store: Store) -> None:
    (mine,) = _add(store, _view("Shared word digest"))
    _add(
        store,
        _view("Shared word digest", owner=CAROL),
        _view("Shared word digest", owner=Owner("globex", "alice")),
    )
    assert _found(store, "shared word") == {mine.schedule.schedule_id}
    counts = store.schedules.counts(ALICE, search_words("shared"))
    assert (counts.current, counts.history, counts.needs_attention) == (1, 0, 0)
    assert _found(store, "digest", owner=Owner("acme", "nobody")) == set()


@pytest.mark.parametrize("path", ["read", "index"])
def test_results_page_in_list_order_without_duplicates(
    store: Store, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _take(path, monkeypatch)
    reports = _add(store, *(_view(f"Report {i}", minutes=i // 2) for i in range(0, 60, 3)))
    _add(store, *(_view(f"Other {i}", minutes=i // 2) for i in range(60) if i % 3))
    expected = sorted(
        reports, key=lambda v: (v.schedule.updated_at, v.schedule.schedule_id), reverse=True
    )
    seen: list[UUID] = []
    after = None
    while True:
        page = store.schedules.page(ALICE, frozenset(), after, 3, words=("report",))
        seen.extend(v.schedule.schedule_id for v in page)
        if len(page) < 3:
            break
        after = (page[-1].schedule.updated_at, page[-1].schedule.schedule_id)
    assert seen == [v.schedule.schedule_id for v in expected]
    assert len(set(seen)) == 20
    assert store.schedules.counts(ALICE, ("report",)).current == 20


@pytest.mark.parametrize("path", ["read", "index"])
def test_search_combines_with_state_and_short_words(
    store: Store, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _take(path, monkeypatch)
    active, paused = _add(store, _view("会議 notes", minutes=1), _view("会議 plans", minutes=2))
    _add(store, *(_view(f"filler {i}", minutes=3 + i) for i in range(6)))
    seen = paused.schedule
    pause = ScheduleChange("PAUSED", "user", None, 0, NOW + timedelta(hours=1), None, ())
    assert store.schedules.apply(seen, pause)
    assert _found(store, "会議") == {active.schedule.schedule_id, paused.schedule.schedule_id}
    by_state = store.schedules.page(ALICE, frozenset({"PAUSED"}), None, 10, words=("会議",))
    assert [v.schedule.schedule_id for v in by_state] == [paused.schedule.schedule_id]
    assert _found(store, "会議 pl") == {paused.schedule.schedule_id}
    assert _found(store, "no") == {active.schedule.schedule_id}


def test_the_index_follows_an_edit_in_the_same_write(store: Store) -> None:
    (view,) = _add(store, _view("Old gardening title", "Water the tomatoes."))
    seen = view.schedule
    edited = canonical_json({"title": "Fresh cycling title", "instruction": "Oil the chain."})
    change = ScheduleChange(
        "ACTIVE",
        None,
        seen.next_fire_at,
        0,
        NOW + timedelta(minutes=5),
        RevisionRecord(seen.schedule_id, 2, edited, "alice", NOW + timedelta(minutes=5)),
        (),
    )
    assert store.schedules.apply(seen, change)
    assert _found(store, "gardening") == set()
    assert _found(store, "tomatoes") == set()
    assert _found(store, "cycling chain") == {seen.schedule_id}
    assert _found(store, "cyc") == {seen.schedule_id}


def test_the_search_index_is_the_databases_own_and_used(store: Store) -> None:
    assert isinstance(store, SqlStore)
    _add(store, *(_view(f"Schedule {i}") for i in range(3)))
    with store.engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            indexed = connection.execute(
                text(f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH :q"),
                {"q": '"schedule"'},
            ).all()
            assert len(indexed) == 3
        else:
            assert (
                connection.execute(
                    text("SELECT count(*) FROM pg_extension WHERE extname = 'pg_trgm'")
                ).scalar_one()
                == 1
            )
            connection.execute(text("SET LOCAL enable_seqscan = off"))
            plan = connection.execute(
                text("EXPLAIN SELECT id FROM schedules WHERE search_text LIKE '%schedule%'")
            ).scalars()
            assert any(TRIGRAM_INDEX in line for line in plan)
