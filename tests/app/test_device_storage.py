"""Device state in SharedPreferences: JSON values, one namespace per server."""

from __future__ import annotations

from app.device_storage import PreferencesStorage, server_namespace


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
