"""Device state of the local modes in the user data folder: a file per key, private to the user."""

from __future__ import annotations

import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.device_folder import FOLDER_NAME, FolderStorage
from app.device_storage import server_namespace
from app.view_cache_store import ViewCacheStore
from devtools.api_bodies import summary_json
from transport.models import ScheduleSummary

READ_AT = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_values_round_trip_as_json_files_only_the_user_can_read(tmp_path: Path) -> None:
    storage = FolderStorage(tmp_path, "ns")
    value = {"expanded": ["a", "b"], "count": 2, "ok": True, "none": None}
    await storage.set("sidebar.expanded_groups", value)

    assert await storage.get("sidebar.expanded_groups") == value
    path = tmp_path / FOLDER_NAME / "ns" / "sidebar.expanded_groups.json"
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    assert mode(path) == 0o600
    assert mode(path.parent) == mode(path.parent.parent) == 0o700


async def test_unknown_unreadable_and_removed_values_read_as_never_set(tmp_path: Path) -> None:
    storage = FolderStorage(tmp_path, "ns")
    assert await storage.get("never") is None
    await storage.set("k", [1])
    storage.path_of("k").write_text("{not json", encoding="utf-8")
    assert await storage.get("k") is None
    await storage.set("k", [2])
    await storage.set("k", None)
    assert not storage.path_of("k").exists()
    assert await storage.get("k") is None


def test_a_key_or_namespace_never_names_a_path(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        FolderStorage(tmp_path, "../elsewhere")
    with pytest.raises(ValueError):
        FolderStorage(tmp_path, "ns").path_of("../../secrets")


async def test_forgetting_removes_the_namespace_and_nothing_is_written_after(
    tmp_path: Path,
) -> None:
    one = FolderStorage(tmp_path, server_namespace("remote:https://a.example"))
    two = FolderStorage(tmp_path, server_namespace("remote:https://b.example"))
    await one.set("sidebar.history", ["x"])
    await two.set("sidebar.history", ["y"])

    await one.forget_all()
    await one.set("sidebar.history", ["written after"])

    assert not one.folder.exists()
    assert await two.get("sidebar.history") == ["y"]


async def test_the_view_cache_kept_in_the_folder_is_read_by_the_next_session(
    tmp_path: Path,
) -> None:
    """The offline copy of a local session outlives it, in the data folder (through the
    view cache's own port), and holds the instructions only there."""
    item = ScheduleSummary.model_validate(summary_json(title="Nightly backup"))
    await ViewCacheStore(FolderStorage(tmp_path, "views")).keep_section("current", [item], READ_AT)

    kept = await ViewCacheStore(FolderStorage(tmp_path, "views")).section("current")

    assert kept is not None and [i.title for i in kept.items] == ["Nightly backup"]
    assert all(mode(path) == 0o600 for path in (tmp_path / FOLDER_NAME).rglob("*.json"))
