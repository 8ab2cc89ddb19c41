"""The host's half of "Remember on this device": tokens kept by handle, never in the browser.

A browser that ticked Remember keeps only a random handle; the token it
stands for stays with the hosted app, found by the handle's SHA-256 and gone
at its expiry by the host's clock, whatever the browser's clock or storage
does later. With a data folder the tokens survive a restart of the app, in
one file only its owner may read.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import threading
from datetime import UTC, datetime
from pathlib import Path

from viewmodels.ports import Clock

FILE_NAME = "remembered-sign-ins.json"

_log = logging.getLogger(__name__)

_Entries = dict[str, tuple[str, datetime]]
"""Handle digest -> (token, expires at)."""


class RememberedTokens:
    """Remembered tokens of one hosted app, by handle; shared by all its browser sessions."""

    def __init__(self, folder: Path | None, clock: Clock) -> None:
        self._path = None if folder is None else folder / FILE_NAME
        self._clock = clock
        self._lock = threading.Lock()
        self._memory: _Entries = {}

    def keep(self, token: str, expires_at: datetime) -> str:
        """A new handle that stands for ``token`` until ``expires_at``."""
        handle = secrets.token_urlsafe(32)
        with self._lock:
            entries = self._live()
            entries[_digest(handle)] = (token, expires_at)
            self._save(entries)
        return handle

    def token(self, handle: str) -> str | None:
        """The token ``handle`` stands for; None once it expired, was dropped or never was."""
        with self._lock:
            entries = self._read()
            live = self._live(entries)
            if len(live) < len(entries):
                self._save(live)  # an expired token leaves the disk as soon as it is noticed
        found = live.get(_digest(handle))
        return None if found is None else found[0]

    def drop(self, handle: str) -> None:
        """``handle`` stands for nothing from now on (and expired entries go with it)."""
        with self._lock:
            entries = self._live()
            entries.pop(_digest(handle), None)
            self._save(entries)

    def _live(self, entries: _Entries | None = None) -> _Entries:
        now = self._clock()
        read = self._read() if entries is None else entries
        return {key: entry for key, entry in read.items() if entry[1] > now}

    def _read(self) -> _Entries:
        if self._path is None:
            return dict(self._memory)
        try:
            raw = json.loads(self._path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as err:
            _log.warning("Remembered sign-ins could not be read (%s); starting afresh.", type(err))
            return {}
        return _parse(raw)

    def _save(self, entries: _Entries) -> None:
        if self._path is None:
            self._memory = entries
            return
        stored = {
            key: {"token": token, "expires_at": expires.astimezone(UTC).isoformat()}
            for key, (token, expires) in entries.items()
        }
        self._path.parent.mkdir(parents=True, exist_ok=True)
        draft = self._path.with_suffix(".tmp")
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump(stored, file)
        os.replace(draft, self._path)


def _digest(handle: str) -> str:
    return hashlib.sha256(handle.encode()).hexdigest()


def _parse(raw: object) -> _Entries:
    if not isinstance(raw, dict):
        return {}
    entries: _Entries = {}
    for key, value in raw.items():
        if not isinstance(value, dict):
            continue
        token, expires = value.get("token"), value.get("expires_at")
        if not isinstance(token, str) or not isinstance(expires, str):
            continue
        try:
            instant = datetime.fromisoformat(expires)
        except ValueError:
            continue
        if instant.tzinfo is not None:
            entries[str(key)] = (token, instant)
    return entries
