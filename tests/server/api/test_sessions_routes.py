"""Sessions, transcripts (a firing's opening message hidden), folders and the folder move."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID, uuid4

import httpx
import pytest

from server.storage.records import FolderRecord, MessageRecord, Owner, SessionRecord
from server.storage.sql.store import SqlStore
from tests.server.api.conftest import NOW, as_, error_code

ALICE = Owner("acme", "alice")


def add_session(
    store: SqlStore, *, scheduled: bool, hours: int, owner: Owner = ALICE, messages: int = 0
) -> UUID:
    session_id = uuid4()
    metadata: dict[str, object] = {"schedule_id": str(uuid4())} if scheduled else {}
    rows = []
    if scheduled:
        rows.append(MessageRecord(uuid4(), session_id, "user", "SEED INSTRUCTION", True, NOW))
    for index in range(messages):
        role = "assistant" if index % 2 else "user"
        at = NOW + timedelta(minutes=index + 1)
        rows.append(MessageRecord(uuid4(), session_id, role, f"message {index}", False, at))
    store.sessions.add(
        SessionRecord(
            session_id, owner, f"Session {hours}", NOW - timedelta(hours=hours), None, metadata, NOW
        ),
        rows,
    )
    return session_id


def add_folder(store: SqlStore, name: str, owner: Owner = ALICE) -> UUID:
    folder_id = uuid4()
    store.folders.add(FolderRecord(folder_id, owner, name, NOW))
    return folder_id


async def test_sessions_are_newest_activity_first_and_paged(
    client: httpx.AsyncClient, store: SqlStore
) -> None:
    ids = [add_session(store, scheduled=h % 2 == 0, hours=h) for h in range(5)]
    add_session(store, scheduled=False, hours=0, owner=Owner("acme", "carol"))
    first = (await client.get("/v1/sessions?limit=3")).json()
    second = (await client.get(f"/v1/sessions?limit=3&cursor={first['next_cursor']}")).json()
    listed = [item["session_id"] for item in first["items"] + second["items"]]
    assert listed == [str(i) for i in ids]
    assert second["next_cursor"] is None
    assert "schedule_id" in first["items"][0]["metadata"]
    assert first["items"][1]["metadata"] == {}


async def test_transcript_omits_the_hidden_seed_and_pages_oldest_first(
    client: httpx.AsyncClient, store: SqlStore
) -> None:
    session_id = add_session(store, scheduled=True, hours=1, messages=5)
    first = (await client.get(f"/v1/sessions/{session_id}/messages?limit=3")).json()
    rest = (
        await client.get(
            f"/v1/sessions/{session_id}/messages?limit=3&cursor={first['next_cursor']}"
        )
    ).json()
    texts = [m["text"] for m in first["items"] + rest["items"]]
    assert texts == [f"message {i}" for i in range(5)]
    assert "SEED INSTRUCTION" not in str(first) + str(rest)


async def test_transcript_of_foreign_or_unknown_session_is_not_found(
    client: httpx.AsyncClient, store: SqlStore
) -> None:
    foreign = add_session(store, scheduled=False, hours=1, owner=Owner("globex", "mallory"))
    for session_id in (foreign, uuid4()):
        response = await client.get(f"/v1/sessions/{session_id}/messages")
        assert response.status_code == 404
        assert error_code(response) == "session.not_found"


async def test_folders_list_by_name(client: httpx.AsyncClient, store: SqlStore) -> None:
    add_folder(store, "Travel")
    add_folder(store, "Admin")
    add_folder(store, "Hidden", owner=Owner("acme", "carol"))
    names = [f["name"] for f in (await client.get("/v1/folders")).json()["items"]]
    assert names == ["Admin", "Travel"]


async def test_moving_a_chat_into_and_out_of_a_folder(
    client: httpx.AsyncClient, store: SqlStore
) -> None:
    session_id = add_session(store, scheduled=False, hours=1)
    folder_id = add_folder(store, "Travel")
    moved = await client.post(
        f"/v1/sessions/{session_id}/folder", json={"folder_id": str(folder_id)}
    )
    assert moved.status_code == 200
    assert moved.json()["folder_id"] == str(folder_id)
    assert set(moved.json()) == {"session_id", "title", "last_activity_at", "folder_id", "metadata"}
    back = await client.post(f"/v1/sessions/{session_id}/folder", json={"folder_id": None})
    assert back.json()["folder_id"] is None


async def test_moving_a_scheduled_session_is_not_chat(
    client: httpx.AsyncClient, store: SqlStore
) -> None:
    session_id = add_session(store, scheduled=True, hours=1)
    folder_id = add_folder(store, "Travel")
    response = await client.post(
        f"/v1/sessions/{session_id}/folder", json={"folder_id": str(folder_id)}
    )
    assert response.status_code == 409
    assert error_code(response) == "session.not_chat"


@pytest.mark.parametrize("whose", ["session", "folder"])
async def test_moving_with_foreign_session_or_folder_is_not_found(
    client: httpx.AsyncClient, store: SqlStore, whose: str
) -> None:
    carol = Owner("acme", "carol")
    session_id = add_session(
        store, scheduled=False, hours=1, owner=carol if whose == "session" else ALICE
    )
    folder_id = add_folder(store, "F", owner=carol if whose == "folder" else ALICE)
    response = await client.post(
        f"/v1/sessions/{session_id}/folder", json={"folder_id": str(folder_id)}
    )
    assert response.status_code == 404
    assert error_code(response) == (
        "session.not_found" if whose == "session" else "folder.not_found"
    )


async def test_profiles_list_every_state_of_the_owner_only(
    client: httpx.AsyncClient, store: SqlStore
) -> None:
    from tests.server.api.conftest import add_profile

    for state in ("READY", "EXPIRED", "REVOKED", "PENDING"):
        add_profile(store, "alice", state)
    add_profile(store, "carol", "READY")
    page = (await client.get("/v1/browser-profiles?limit=3")).json()
    rest = (await client.get(f"/v1/browser-profiles?limit=3&cursor={page['next_cursor']}")).json()
    states = sorted(p["state"] for p in page["items"] + rest["items"])
    assert states == ["EXPIRED", "PENDING", "READY", "REVOKED"]
    assert page["items"][0]["allowed_origins"] == ["https://mail.google.com"]
    assert (await client.get("/v1/browser-profiles", headers=as_("mallory"))).json()["items"] == []
