"""The real client against the real embedded server: every route of API.md, end to end.

``transport`` and ``server`` were written apart, each from ``API.md``; their own
suites test each side against its reading of the contract. This file runs the
production ``ScheduleClient`` over ``httpx.ASGITransport`` against a fresh
embedded server (demo data, fixed clock) so that a disagreement between the two
readings fails here, and checks what the client reports against the database.
Every test runs twice: over SQLite and over the test session's real PostgreSQL.
A last test runs the same client against a bearer-token server built from a
principals file.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar
from uuid import UUID, uuid4

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import Engine, text

from devtools.api_bodies import definition_json
from server.app import create_app
from server.demo import demo_id, load_demo
from server.embedded import EmbeddedServer, embed_store
from server.identity import ALL_SCOPES, token_digest
from server.principals_file import load_principals
from server.storage.sql.store import SqlStore
from transport.client import ScheduleClient
from transport.errors import (
    BrowserProfileUnavailable,
    IdempotencyConflict,
    InvalidRequest,
    NotFound,
    RevisionConflict,
    ScheduleTerminal,
    ScopeMissing,
    ScopeNotGranted,
    SessionNotChat,
    Unauthenticated,
)
from transport.models import AGENDA_NOT_OFFERED, AgendaItem, Page, ScheduleDetail
from transport.paging import iterate_pages

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
LOCAL = "local"
T = TypeVar("T")


def fixed_clock() -> datetime:
    return NOW


class RetryRecorder:
    """Stands in for ``asyncio.sleep``: a retry against the embedded server is a bug."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@pytest.fixture
def embedded(database_url: str) -> Iterator[EmbeddedServer]:
    server = embed_store(SqlStore.open(database_url), demo=True, clock=fixed_clock)
    yield server
    server.close()


@pytest.fixture
async def client(embedded: EmbeddedServer) -> AsyncIterator[ScheduleClient]:
    retries = RetryRecorder()
    transport = httpx.ASGITransport(app=embedded.app, raise_app_exceptions=False)
    async with ScheduleClient("http://embedded", transport=transport, sleep=retries) as api:
        yield api
    assert retries.delays == [], "the client retried: the embedded server answered 429 or 5xx"


def sql_engine(embedded: EmbeddedServer) -> Engine:
    """The SQL engine under the embedded server (opened over ``SqlStore`` here)."""
    store = embedded.store
    assert isinstance(store, SqlStore)
    return store.engine


def sql_count(embedded: EmbeddedServer, query: str, **params: Any) -> int:
    with sql_engine(embedded).connect() as connection:
        return int(connection.execute(text(query), params).scalar_one())


async def every_item(fetch: Callable[[str | None], Awaitable[Page[T]]]) -> list[T]:
    items: list[T] = []
    async for page in iterate_pages(fetch):
        items.extend(page.items)
    return items


def new_definition(**changes: Any) -> dict[str, Any]:
    cadence = {
        "kind": "WEEKLY",
        "local_time": "08:30:00",
        "weekdays": [1, 3, 5],
        "timezone": "America/New_York",
    }
    return definition_json(
        **{
            "title": "Contract check",
            "instruction": "List the three most discussed pull requests of the week.",
            "cadence": cadence,
            **changes,
        }
    )


async def create(client: ScheduleClient, **changes: Any) -> ScheduleDetail:
    return await client.create_schedule(new_definition(**changes), idempotency_key=str(uuid4()))


def schedule(key: str) -> UUID:
    return demo_id(LOCAL, "schedule", key)


def profile(key: str) -> UUID:
    return demo_id(LOCAL, "profile", key)


# Schedules: list and point read


@pytest.mark.parametrize(
    "states",
    [(), ("ACTIVE",), ("PAUSED",), ("ACTIVE", "PAUSED"), ("COMPLETED", "CANCELLED")],
)
async def test_list_pages_to_the_end_with_exactly_the_filtered_schedules(
    client: ScheduleClient, embedded: EmbeddedServer, states: tuple[str, ...]
) -> None:
    # Three more schedules stamped at the same fixed instant: page breaks fall inside
    # ties of ``updated_at``, which only the ``schedule_id`` tie-break can order.
    for _ in range(3):
        await create(client)
    paused = await create(client)
    await client.pause_schedule(paused.schedule_id, expected_revision=1)

    rows = await every_item(
        lambda cursor: client.list_schedules(states=states, limit=2, cursor=cursor)
    )

    ids = [row.schedule_id for row in rows]
    assert len(ids) == len(set(ids)), "a schedule appeared on two pages"
    wanted = set(states) or {"ACTIVE", "PAUSED", "COMPLETED", "CANCELLED"}
    assert {row.state for row in rows} <= wanted
    in_sql = sql_count(
        embedded,
        "SELECT count(*) FROM schedules WHERE principal_id = :p AND state IN "
        "('" + "','".join(sorted(wanted)) + "')",
        p=LOCAL,
    )
    assert len(rows) == in_sql > 0
    order = [(row.updated_at, row.schedule_id.hex) for row in rows]
    assert order == sorted(order, reverse=True)
    assert all(row.next_fire_at is None for row in rows if row.state != "ACTIVE")
    assert all(len(row.instruction_preview) <= 160 for row in rows)


async def test_point_read_carries_the_complete_long_instruction(
    client: ScheduleClient, embedded: EmbeddedServer
) -> None:
    brief = schedule("competitive-brief")
    with sql_engine(embedded).connect() as connection:
        stored = connection.execute(
            text(
                "SELECT definition FROM schedule_revisions r JOIN schedules s "
                "ON s.id = r.schedule_id AND s.current_revision = r.revision WHERE s.id = :id"
            ),
            {"id": brief.hex},
        ).scalar_one()
    rows = await every_item(lambda cursor: client.list_schedules(limit=100, cursor=cursor))
    row = next(r for r in rows if r.schedule_id == brief)

    detail = await client.get_schedule(brief)

    assert len(detail.revision.instruction) > 5_000
    assert detail.revision.instruction == json.loads(stored)["instruction"]
    assert detail.current_revision == detail.revision.revision == 2
    assert detail.title == row.title
    assert row.instruction_preview.endswith("…") and len(row.instruction_preview) <= 160
    assert detail.revision.timezone == detail.revision.cadence.timezone
    assert detail.revision.limits.max_cost is not None
    assert str(detail.revision.limits.max_cost) == "5.00"


async def test_a_schedule_updated_between_pages_is_listed_once(client: ScheduleClient) -> None:
    first = await client.list_schedules(states=("ACTIVE", "PAUSED"), limit=5)
    touched = first.items[-1]
    detail = await client.get_schedule(touched.schedule_id)
    await client.update_schedule(
        touched.schedule_id,
        expected_revision=detail.current_revision,
        definition={**detail.revision.definition(), "title": "Touched between pages"},
    )

    rest = await every_item(
        lambda cursor: client.list_schedules(
            states=("ACTIVE", "PAUSED"), limit=5, cursor=cursor or first.next_cursor
        )
    )
    everything = await every_item(
        lambda cursor: client.list_schedules(states=("ACTIVE", "PAUSED"), limit=100, cursor=cursor)
    )

    seen = [row.schedule_id for row in [*first.items, *rest]]
    assert len(seen) == len(set(seen)) == len(everything)
    assert everything[0].schedule_id == touched.schedule_id
    assert everything[0].title == "Touched between pages"


async def test_every_demo_definition_round_trips_unchanged_and_writes_no_revision(
    client: ScheduleClient, embedded: EmbeddedServer
) -> None:
    rows = await every_item(lambda cursor: client.list_schedules(limit=100, cursor=cursor))
    revisions_before = sql_count(embedded, "SELECT count(*) FROM schedule_revisions")
    current = [row for row in rows if row.state in ("ACTIVE", "PAUSED")]
    assert any(row.browser_profile_id == profile("notion") for row in current)

    for row in current:
        detail = await client.get_schedule(row.schedule_id)
        same = await client.update_schedule(
            row.schedule_id,
            expected_revision=detail.current_revision,
            definition=detail.revision.definition(),
        )
        assert same == detail, row.title

    assert sql_count(embedded, "SELECT count(*) FROM schedule_revisions") == revisions_before


async def test_unknown_schedule_is_not_found_and_a_tampered_cursor_is_invalid(
    client: ScheduleClient,
) -> None:
    with pytest.raises(NotFound) as missing:
        await client.get_schedule(uuid4())
    assert missing.value.code == "schedule.not_found"
    with pytest.raises(NotFound):
        await client.list_occurrences(uuid4())

    first = await client.list_schedules(limit=5)
    assert first.next_cursor is not None
    body, mac = first.next_cursor.split(".")
    tampered = body[:-1] + ("A" if body[-1] != "A" else "B") + "." + mac
    with pytest.raises(InvalidRequest) as bad_cursor:
        await client.list_schedules(limit=5, cursor=tampered)
    assert bad_cursor.value.code == "request.invalid"
    with pytest.raises(InvalidRequest):
        await client.list_schedules(states=("PAUSED",), limit=5, cursor=first.next_cursor)
    with pytest.raises(InvalidRequest):
        await client.list_schedules(limit=101)


# Schedules: create and update


async def test_create_is_idempotent_per_key_and_refuses_another_body(
    client: ScheduleClient, embedded: EmbeddedServer
) -> None:
    before = sql_count(embedded, "SELECT count(*) FROM schedules")
    definition = new_definition(cadence={"kind": "ONCE", "at": "2026-12-24T17:00:00Z"})

    created = await client.create_schedule(definition, idempotency_key="contract-key-1")
    again = await client.create_schedule(definition, idempotency_key="contract-key-1")

    assert again.schedule_id == created.schedule_id
    assert again.current_revision == created.current_revision == 1
    assert created.state == "ACTIVE"
    assert created.next_fire_at == datetime(2026, 12, 24, 17, 0, tzinfo=UTC)
    assert created.revision.timezone == "UTC"
    assert created.revision.definition() == definition
    assert sql_count(embedded, "SELECT count(*) FROM schedules") == before + 1
    with pytest.raises(IdempotencyConflict):
        await client.create_schedule(
            {**definition, "title": "Another title"}, idempotency_key="contract-key-1"
        )
    assert sql_count(embedded, "SELECT count(*) FROM schedules") == before + 1
    listed = await every_item(lambda cursor: client.list_schedules(limit=100, cursor=cursor))
    assert [row.schedule_id for row in listed].count(created.schedule_id) == 1


async def test_update_round_trips_unknown_fields_and_writes_no_revision_when_unchanged(
    client: ScheduleClient, embedded: EmbeddedServer
) -> None:
    created = await create(client)
    definition = created.revision.definition()
    definition["x_client_note"] = {"origin": "contract", "tags": ["a", 1, None]}
    definition["limits"] = {**definition["limits"], "x_max_pages": {"per_site": 3}}
    definition["title"] = "Contract check, revised"

    updated = await client.update_schedule(
        created.schedule_id, expected_revision=1, definition=definition
    )
    read_back = await client.get_schedule(created.schedule_id)

    assert updated.current_revision == updated.revision.revision == 2
    assert read_back.revision.definition() == definition
    assert read_back.revision.definition()["limits"]["x_max_pages"] == {"per_site": 3}

    unchanged = await client.update_schedule(
        created.schedule_id, expected_revision=2, definition=read_back.revision.definition()
    )
    assert unchanged.current_revision == 2
    assert unchanged.updated_at == read_back.updated_at
    revisions = sql_count(
        embedded,
        "SELECT count(*) FROM schedule_revisions WHERE schedule_id = :id",
        id=created.schedule_id.hex,
    )
    assert revisions == 2

    with pytest.raises(RevisionConflict) as stale:
        await client.update_schedule(
            created.schedule_id, expected_revision=1, definition={**definition, "title": "Late"}
        )
    assert stale.value.current_revision == 2
    assert (await client.get_schedule(created.schedule_id)).title == "Contract check, revised"


# Schedules: lifecycle


async def test_pause_resume_cancel_repeat_idempotently_and_terminal_refuses(
    client: ScheduleClient,
) -> None:
    created = await create(client)
    sid, rev = created.schedule_id, created.current_revision

    paused = await client.pause_schedule(sid, expected_revision=rev)
    paused_again = await client.pause_schedule(sid, expected_revision=rev)
    assert (paused.state, paused.pause_reason, paused.next_fire_at) == ("PAUSED", "user", None)
    assert paused_again == paused

    resumed = await client.resume_schedule(sid, expected_revision=rev)
    resumed_again = await client.resume_schedule(sid, expected_revision=rev)
    assert (resumed.state, resumed.pause_reason) == ("ACTIVE", None)
    assert resumed.next_fire_at is not None and resumed.next_fire_at > NOW
    assert resumed_again == resumed

    with pytest.raises(RevisionConflict) as stale:
        await client.pause_schedule(sid, expected_revision=rev + 1)
    assert stale.value.current_revision == rev

    cancelled = await client.cancel_schedule(sid, expected_revision=rev)
    cancelled_again = await client.cancel_schedule(sid, expected_revision=rev)
    assert (cancelled.state, cancelled.next_fire_at) == ("CANCELLED", None)
    assert cancelled_again == cancelled
    assert cancelled.current_revision == rev

    for mutate in (client.pause_schedule, client.resume_schedule):
        with pytest.raises(ScheduleTerminal):
            await mutate(sid, expected_revision=rev)
    with pytest.raises(ScheduleTerminal):
        await client.update_schedule(
            sid, expected_revision=rev, definition={**created.revision.definition(), "title": "x"}
        )
    completed = await client.get_schedule(schedule("tax-return"))
    assert completed.state == "COMPLETED"
    with pytest.raises(ScheduleTerminal):
        await client.cancel_schedule(
            completed.schedule_id, expected_revision=completed.current_revision
        )
    assert (await client.get_schedule(sid)).state == "CANCELLED"


async def test_occurrences_page_newest_first_to_the_end(
    client: ScheduleClient, embedded: EmbeddedServer
) -> None:
    sid = schedule("morning-news")
    rows = await every_item(lambda cursor: client.list_occurrences(sid, limit=2, cursor=cursor))

    in_sql = sql_count(
        embedded,
        "SELECT count(*) FROM schedule_occurrences WHERE schedule_id = :id",
        id=sid.hex,
    )
    assert len(rows) == in_sql > 2
    assert len({row.occurrence_id for row in rows}) == len(rows)
    nominal = [row.nominal_fire_at for row in rows]
    assert nominal == sorted(nominal, reverse=True)
    assert all(row.known_disposition is not None for row in rows)
    materialized = [row for row in rows if row.session_id is not None]
    assert materialized and all(row.disposition == "MATERIALIZED" for row in materialized)


async def test_the_agenda_reads_the_demos_one_night_not_fired(client: ScheduleClient) -> None:
    """Over the last 30 days, only the nightly backup check's night marked ``-`` in the demo."""

    async def agenda(cursor: str | None) -> Page[AgendaItem]:
        page = await client.list_agenda(
            start=NOW - timedelta(days=30), end=NOW, limit=200, cursor=cursor
        )
        assert page is not AGENDA_NOT_OFFERED
        return page

    items = await every_item(agenda)

    not_fired = [(item.schedule_id, item.at) for item in items if item.not_fired]
    the_night = datetime(2026, 11, 28, 7, 30, tzinfo=UTC)  # 02:30 in New York, third newest
    assert not_fired == [(schedule("nightly-backup-check"), the_night)]


# Website sign-ins and binding


async def test_browser_profiles_and_website_binding(
    client: ScheduleClient, embedded: EmbeddedServer
) -> None:
    profiles = await every_item(lambda cursor: client.list_browser_profiles(limit=2, cursor=cursor))
    assert len(profiles) == sql_count(
        embedded, "SELECT count(*) FROM browser_profiles WHERE principal_id = :p", p=LOCAL
    )
    by_id = {p.profile_id: p for p in profiles}
    assert by_id[profile("work-google")].state == "READY"
    assert by_id[profile("work-google")].allowed_origins == [
        "https://mail.google.com",
        "https://calendar.google.com",
    ]
    assert by_id[profile("notion")].state == "EXPIRED"

    created = await create(client)
    definition = created.revision.definition()

    def bound_to(profile_id: UUID) -> dict[str, Any]:
        scopes = sorted({*definition["requested_scopes"], "browser.profile.read"})
        return {**definition, "browser_profile_id": str(profile_id), "requested_scopes": scopes}

    bound = await client.update_schedule(
        created.schedule_id, expected_revision=1, definition=bound_to(profile("work-google"))
    )
    assert bound.current_revision == 2
    assert bound.revision.browser_profile_id == profile("work-google")
    assert bound.revision.requested_scopes == ["browser.profile.read"]
    listed = await every_item(lambda cursor: client.list_schedules(limit=100, cursor=cursor))
    row = next(r for r in listed if r.schedule_id == created.schedule_id)
    assert row.browser_profile_id == profile("work-google")

    for unusable in (profile("notion"), uuid4()):
        with pytest.raises(BrowserProfileUnavailable) as refused:
            await client.update_schedule(
                created.schedule_id, expected_revision=2, definition=bound_to(unusable)
            )
        assert refused.value.field == "browser_profile_id"
    assert (await client.get_schedule(created.schedule_id)).current_revision == 2

    unbound = await client.update_schedule(
        created.schedule_id, expected_revision=2, definition=definition
    )
    assert unbound.current_revision == 3
    assert unbound.revision.browser_profile_id is None


# Sessions, transcripts and folders


async def test_sessions_carry_their_schedule_and_transcripts_hide_the_seed(
    client: ScheduleClient, embedded: EmbeddedServer
) -> None:
    sessions = await every_item(lambda cursor: client.list_sessions(limit=9, cursor=cursor))

    assert len(sessions) == sql_count(
        embedded, "SELECT count(*) FROM sessions WHERE principal_id = :p", p=LOCAL
    )
    assert len({s.session_id for s in sessions}) == len(sessions)
    order = [(s.last_activity_at, s.session_id.hex) for s in sessions]
    assert order == sorted(order, reverse=True)
    scheduled = [s for s in sessions if s.schedule_id is not None]
    chats = [s for s in sessions if s.schedule_id is None]
    assert scheduled and chats
    assert all(s.metadata["schedule_id"] == str(s.schedule_id) for s in scheduled)
    morning = [s for s in scheduled if s.schedule_id == schedule("morning-news")]
    assert morning

    session = morning[0]
    messages = await every_item(
        lambda cursor: client.list_session_messages(session.session_id, limit=1, cursor=cursor)
    )
    instruction = (await client.get_schedule(schedule("morning-news"))).revision.instruction
    assert [m.role for m in messages] == ["assistant"]
    assert all(m.text != instruction for m in messages)
    assert (
        sql_count(
            embedded,
            "SELECT count(*) FROM session_messages"
            " WHERE session_id = :id AND scheduler_seed = :seed",
            id=session.session_id.hex,
            seed=True,
        )
        == 1
    )

    chat = chats[0]
    transcript = await every_item(
        lambda cursor: client.list_session_messages(chat.session_id, limit=3, cursor=cursor)
    )
    assert len(transcript) == sql_count(
        embedded,
        "SELECT count(*) FROM session_messages WHERE session_id = :id",
        id=chat.session_id.hex,
    )
    assert {m.known_role for m in transcript} == {"user", "assistant"}
    created = [m.created_at for m in transcript]
    assert created == sorted(created)
    with pytest.raises(NotFound):
        await client.list_session_messages(uuid4())


async def test_folders_and_moving_a_chat_but_not_a_scheduled_session(
    client: ScheduleClient, embedded: EmbeddedServer
) -> None:
    folders = await every_item(lambda cursor: client.list_folders(limit=1, cursor=cursor))
    assert (
        len(folders)
        == sql_count(embedded, "SELECT count(*) FROM folders WHERE principal_id = :p", p=LOCAL)
        > 1
    )
    sessions = await every_item(lambda cursor: client.list_sessions(limit=100, cursor=cursor))
    chat = next(s for s in sessions if s.schedule_id is None and s.folder_id is None)
    scheduled = next(s for s in sessions if s.schedule_id is not None)
    target = folders[0].folder_id

    moved = await client.move_session(chat.session_id, folder_id=target)
    assert (moved.session_id, moved.folder_id, moved.title) == (
        chat.session_id,
        target,
        chat.title,
    )
    relisted = await every_item(lambda cursor: client.list_sessions(limit=100, cursor=cursor))
    assert next(s for s in relisted if s.session_id == chat.session_id).folder_id == target

    taken_out = await client.move_session(chat.session_id, folder_id=None)
    assert taken_out.folder_id is None

    with pytest.raises(SessionNotChat):
        await client.move_session(scheduled.session_id, folder_id=target)
    with pytest.raises(NotFound):
        await client.move_session(uuid4(), folder_id=None)


async def test_principal_is_the_local_one_with_every_scope(client: ScheduleClient) -> None:
    me = await client.get_principal()

    assert (me.principal_id, me.tenant_id) == (LOCAL, LOCAL)
    assert sorted(me.scopes) == sorted(ALL_SCOPES)
    assert all(me.holds(scope) for scope in ALL_SCOPES)


# A team server: bearer tokens from a principals file


def principal_entry(
    principal_id: str, tenant: str, scopes: Iterable[str], *, enabled: bool = True
) -> str:
    return (
        "[[principal]]\n"
        f'id = "{principal_id}"\n'
        f'tenant = "{tenant}"\n'
        f'display_name = "{principal_id.title()}"\n'
        f'token_sha256 = "{token_digest("token-" + principal_id + "-" + tenant)}"\n'
        f"scopes = {json.dumps(sorted(scopes))}\n"
        f"enabled = {str(enabled).lower()}\n"
    )


@pytest.fixture
def team_app(tmp_path: Path, database_url: str) -> Iterator[FastAPI]:
    """A bearer-token server: principals file identity, demo data for acme/alice."""
    principals = tmp_path / "principals.toml"
    entries = [
        principal_entry("alice", "acme", ALL_SCOPES),
        principal_entry("bob", "acme", ALL_SCOPES),
        principal_entry("alice", "globex", ALL_SCOPES),  # same id, another tenant
        principal_entry("reader", "acme", {"schedule.read"}),
        principal_entry("nobrowser", "acme", ALL_SCOPES - {"browser.profile.read"}),
        principal_entry("gone", "acme", ALL_SCOPES, enabled=False),
    ]
    principals.write_text("\n".join(entries), encoding="utf-8")
    store = SqlStore.open(database_url)
    load_demo(store, "alice", "acme", NOW)
    yield create_app(store, load_principals(principals), fixed_clock)
    store.close()


def team_client(app: FastAPI, principal: str | None, tenant: str = "acme") -> ScheduleClient:
    token = None if principal is None else f"token-{principal}-{tenant}"
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return ScheduleClient("http://team", token=token, transport=transport)


async def test_bearer_server_refuses_unknown_missing_and_disabled_tokens(
    team_app: FastAPI,
) -> None:
    for principal in ("mallory", None, "gone"):
        async with team_client(team_app, principal) as stranger:
            with pytest.raises(Unauthenticated) as refused:
                await stranger.get_principal()
            assert (refused.value.status, refused.value.code) == (401, "auth.unauthenticated")
            assert "token-" not in str(refused.value)


async def test_bearer_server_names_the_missing_scope(team_app: FastAPI) -> None:
    async with team_client(team_app, "reader") as reader:
        me = await reader.get_principal()
        assert (me.principal_id, me.tenant_id, me.scopes) == ("reader", "acme", ["schedule.read"])
        assert (await reader.list_schedules()).items == []
        attempts: list[tuple[Callable[[], Awaitable[object]], str]] = [
            (lambda: create(reader), "schedule.write"),
            (lambda: reader.pause_schedule(uuid4(), expected_revision=1), "schedule.write"),
            (lambda: reader.cancel_schedule(uuid4(), expected_revision=1), "schedule.cancel"),
            (lambda: reader.list_browser_profiles(), "browser.profile.read"),
            (lambda: reader.list_sessions(), "session.read"),
            (lambda: reader.list_folders(), "session.read"),
        ]
        for attempt, scope in attempts:
            with pytest.raises(ScopeMissing) as missing:
                await attempt()
            assert (missing.value.status, missing.value.scope) == (403, scope)

    async with team_client(team_app, "nobrowser") as nobrowser:
        with pytest.raises(ScopeNotGranted) as not_granted:
            await create(nobrowser, requested_scopes=["browser.profile.read"])
        assert not_granted.value.field == "requested_scopes"


async def test_bearer_server_hides_other_principals_and_tenants(team_app: FastAPI) -> None:
    async with team_client(team_app, "alice") as alice:
        assert (await alice.get_principal()).principal_id == "alice"
        schedules = (await alice.list_schedules(limit=100)).items
        sessions = (await alice.list_sessions(limit=100)).items
        folders = (await alice.list_folders()).items
        mine = await create(alice)
        alices_profile = demo_id("alice", "profile", "work-google")
        assert alices_profile in {p.profile_id for p in (await alice.list_browser_profiles()).items}
    assert schedules and sessions and folders
    chat = next(s for s in sessions if s.schedule_id is None)

    for principal, tenant in (("bob", "acme"), ("alice", "globex")):
        async with team_client(team_app, principal, tenant) as other:
            assert (await other.list_schedules()).items == []
            assert (await other.list_sessions()).items == []
            assert (await other.list_browser_profiles()).items == []
            assert (await other.list_folders()).items == []
            foreign: list[Callable[[], Awaitable[object]]] = [
                lambda: other.get_schedule(mine.schedule_id),
                lambda: other.get_schedule(schedules[0].schedule_id),
                lambda: other.list_occurrences(schedules[0].schedule_id),
                lambda: other.pause_schedule(mine.schedule_id, expected_revision=1),
                lambda: other.resume_schedule(mine.schedule_id, expected_revision=1),
                lambda: other.cancel_schedule(mine.schedule_id, expected_revision=1),
                lambda: other.update_schedule(
                    mine.schedule_id, expected_revision=1, definition=mine.revision.definition()
                ),
                lambda: other.list_session_messages(chat.session_id),
                lambda: other.move_session(chat.session_id, folder_id=None),
            ]
            for attempt in foreign:
                with pytest.raises(NotFound):
                    await attempt()
            with pytest.raises(BrowserProfileUnavailable):
                await create(
                    other,
                    browser_profile_id=str(alices_profile),
                    requested_scopes=["browser.profile.read"],
                )

    async with team_client(team_app, "alice") as alice:
        assert (await alice.get_schedule(mine.schedule_id)) == mine
