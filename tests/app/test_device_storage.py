"""Device state in SharedPreferences: JSON values, one namespace per server (and per
signed-in person in a hosted web view)."""

from __future__ import annotations

import asyncio

import pytest

from app import device_storage
from app.device_storage import PreferencesStorage, account_namespace, server_namespace


class FakePreferences:
    """Stands in for ``ft.SharedPreferences``: string values by key."""

    def __init__(self) -> None:
        self.values: dict[str, object] = {}

    async def get(self, key: str) -> object:
        return self.values.get(key)

    async def set(self, key: str, value: str) -> bool:
        assert isinstance(value, str)
        self.values[key] = value
        return True

    async def remove(self, key: str) -> bool:
        return self.values.pop(key, None) is not None

    async def get_keys(self, key_prefix: str) -> list[str]:
        return [key for key in self.values if key.startswith(key_prefix)]


async def test_values_round_trip_as_json() -> None:
    prefs = FakePreferences()
    storage = PreferencesStorage(prefs, "ns")
    value = {"expanded": ["a", "b"], "count": 2, "ok": True, "none": None}
    await storage.set("sidebar", value)
    assert await storage.get("sidebar") == value
    assert prefs.values == {
        "schedule-browser.ns.sidebar": '{"expanded":["a","b"],"count":2,"ok":true,"none":null}'
    }


async def test_unknown_key_reads_as_none() -> None:
    assert await PreferencesStorage(FakePreferences(), "ns").get("never") is None


async def test_setting_none_removes_the_key() -> None:
    prefs = FakePreferences()
    storage = PreferencesStorage(prefs, "ns")
    await storage.set("k", [1])
    await storage.set("k", None)
    assert prefs.values == {}
    assert await storage.get("k") is None


async def test_corrupt_or_foreign_values_read_as_never_set() -> None:
    prefs = FakePreferences()
    prefs.values["schedule-browser.ns.a"] = "{not json"
    prefs.values["schedule-browser.ns.b"] = 42
    storage = PreferencesStorage(prefs, "ns")
    assert await storage.get("a") is None
    assert await storage.get("b") is None


async def test_two_servers_do_not_share_device_state() -> None:
    prefs = FakePreferences()
    one = PreferencesStorage(prefs, server_namespace("embedded:/data/a.sqlite3"))
    two = PreferencesStorage(prefs, server_namespace("remote:https://example.com"))
    await one.set("history", ["x"])
    assert await two.get("history") is None
    assert await one.get("history") == ["x"]


def test_namespace_is_stable_and_does_not_reveal_the_server() -> None:
    first = server_namespace("remote:https://schedules.example.com")
    assert first == server_namespace("remote:https://schedules.example.com")
    assert first != server_namespace("remote:https://other.example.com")
    assert "example" not in first
    assert len(first) == 16


async def test_two_people_signed_in_on_one_browser_do_not_share_device_state() -> None:
    prefs = FakePreferences()
    server = "remote:https://schedules.example.com"
    alice = PreferencesStorage(prefs, account_namespace(server, "team", "alice"))
    bob = PreferencesStorage(prefs, account_namespace(server, "team", "bob"))
    await alice.set("sidebar.history", ["alice's chat"])
    assert await bob.get("sidebar.history") is None
    assert account_namespace(server, "team", "alice") != server_namespace(server)
    assert account_namespace(server, "team", "alice") != account_namespace(server, "other", "alice")


async def test_forgetting_a_namespace_removes_its_values_and_nothing_else_for_good() -> None:
    prefs = FakePreferences()
    server = "remote:https://schedules.example.com"
    alice = PreferencesStorage(prefs, account_namespace(server, "team", "alice"))
    shared = PreferencesStorage(prefs, server_namespace(server))
    await alice.set("sidebar.history", ["x"])
    await alice.set("sidebar.expanded", ["y"])
    await shared.set("sign_in.token", "t")

    await alice.forget_all()

    assert await alice.get("sidebar.history") is None
    assert await alice.get("sidebar.expanded") is None
    assert list(prefs.values) == [shared.key_for("sign_in.token")]
    await alice.set("sidebar.history", ["written after sign-out"])
    assert await alice.get("sidebar.history") is None


class UnansweredPreferences(FakePreferences):
    """A browser tab reloaded while the call was in flight: the answer never comes."""

    async def get(self, key: str) -> object:
        await asyncio.Event().wait()
        return None

    async def set(self, key: str, value: str) -> bool:
        await asyncio.Event().wait()
        return True


async def test_a_call_the_browser_never_answers_reads_as_unset_and_holds_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(device_storage, "STORE_TIMEOUT_SECONDS", 0.01)
    storage = PreferencesStorage(UnansweredPreferences(), "ns")
    assert await storage.get("view_cache.index") is None
    await storage.set("view_cache.index", {"format": 1})  # lost, not raised, not hung


async def test_erasing_the_app_keys_leaves_other_values_of_the_storage() -> None:
    """A local session's page storage: what earlier versions of the app kept there goes."""
    prefs = FakePreferences()
    prefs.values = {
        "schedule-browser.a.view_cache.index": "{}",
        "schedule-browser.b.sidebar.history": "[]",
        "another-app.setting": "1",
    }

    await device_storage.erase_app_keys(prefs)

    assert prefs.values == {"another-app.setting": "1"}
