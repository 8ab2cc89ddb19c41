"""Device state kept in Flet's ``SharedPreferences``: a hosted web view's remembered sign-ins.

Only a hosted web view writes here, and only for a person who ticked
"Remember on this device" (the local modes keep theirs in the data folder,
``app.device_folder``, and erase what earlier versions wrote here). Values are
JSON text under ``schedule-browser.<namespace>.<key>``, the namespace naming the
server and the person; a value that no longer parses reads as never set. Every
call is bounded (``STORE_TIMEOUT_SECONDS``): a reloaded tab never answers.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Protocol

from viewmodels.ports import JsonValue

KEY_PREFIX = "schedule-browser"
STORE_TIMEOUT_SECONDS = 10.0


class PreferenceStore(Protocol):
    """The part of ``ft.SharedPreferences`` this adapter uses."""

    async def get(self, key: str) -> object: ...

    async def set(self, key: str, value: str) -> bool: ...

    async def remove(self, key: str) -> bool: ...

    async def get_keys(self, key_prefix: str) -> list[str]: ...


def server_namespace(server_identity: str) -> str:
    """A short, stable, non-revealing key for one server (its URL or data folder)."""
    return hashlib.sha256(server_identity.encode("utf-8")).hexdigest()[:16]


def account_namespace(server_identity: str, tenant_id: str, principal_id: str) -> str:
    """As ``server_namespace``, for one signed-in person of a hosted web view.

    A browser may be shared: keyed by the principal too, one person's cached
    history is never painted for the next person who signs in on it.
    """
    return server_namespace(f"{server_identity}#principal={tenant_id}/{principal_id}")


class PreferencesStorage:
    """``viewmodels.ports.DeviceStorage`` over a ``SharedPreferences``-like store."""

    def __init__(self, store: PreferenceStore, namespace: str) -> None:
        self._store = store
        self._prefix = f"{KEY_PREFIX}.{namespace}."
        self._forgotten = False

    def key_for(self, key: str) -> str:
        return self._prefix + key

    async def get(self, key: str) -> JsonValue:
        try:
            raw = await asyncio.wait_for(
                self._store.get(self.key_for(key)), timeout=STORE_TIMEOUT_SECONDS
            )
        except TimeoutError:
            return None
        if not isinstance(raw, str):
            return None
        try:
            value: JsonValue = json.loads(raw)
        except ValueError:
            return None
        return value

    async def set(self, key: str, value: JsonValue) -> None:
        if self._forgotten:
            return  # a screen of a signed-out person finishing late writes nothing
        try:
            if value is None:
                await asyncio.wait_for(
                    self._store.remove(self.key_for(key)), timeout=STORE_TIMEOUT_SECONDS
                )
                return
            text = json.dumps(value, separators=(",", ":"))
            await asyncio.wait_for(
                self._store.set(self.key_for(key), text), timeout=STORE_TIMEOUT_SECONDS
            )
        except TimeoutError:
            return

    async def forget_all(self) -> None:
        """Removes every value of this namespace (a signed-out person's device state).

        From then on this storage writes nothing: a request of that person's
        screens still in flight cannot put anything back.
        """
        self._forgotten = True
        await erase_app_keys(self._store, self._prefix)


async def erase_app_keys(store: PreferenceStore, prefix: str = f"{KEY_PREFIX}.") -> None:
    """Removes every key of this app (or under ``prefix``) from ``store``; with no prefix,
    a local session's page storage, where earlier versions kept device state (the view
    cache's instructions too)."""
    try:
        keys = await asyncio.wait_for(store.get_keys(prefix), timeout=STORE_TIMEOUT_SECONDS)
        for key in keys:
            await asyncio.wait_for(store.remove(key), timeout=STORE_TIMEOUT_SECONDS)
    except TimeoutError:
        return
    except AttributeError:
        # Flet's answer to a call whose page already left (its connection is None):
        # that tab is gone, and the next page of this origin erases again.
        return
