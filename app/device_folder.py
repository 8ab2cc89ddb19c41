"""Device state of the local modes, kept in the user data folder: one file per key.

The desktop window and the local web view (``--web`` on loopback) serve the
person at this machine. Their device state (the sidebar's history and
expanded groups, the notices already announced, and the view cache, which
holds whole schedule details with their instructions) is kept here, not in
the page's ``SharedPreferences``: in a browser those live in the storage of
the page's origin, ``http://127.0.0.1:<port>``, which any other app later
served on that port reads as its own.

Layout: ``<data folder>/device-state/<namespace>/<key>.json``, one namespace
per server (and token, for the view cache; ``app.device_storage`` makes the
names). Folders are ``0700`` and files ``0600``, each written whole to a
temporary file and renamed, so a crash leaves the old value or the new one.
A value that does not read back reads as never set (the caches are
discardable); a write the disk refuses is lost, never raised to a screen.
The file work runs in a worker thread, off the app's loop.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

from viewmodels.ports import JsonValue

FOLDER_NAME = "device-state"
SAFE_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
"""Keys the app writes ("view_cache.detail.3"); anything else is refused, never a path."""
FOLDER_MODE = 0o700
FILE_MODE = 0o600


class FolderStorage:
    """``viewmodels.ports.DeviceStorage`` in one namespace's folder of the user data folder."""

    def __init__(self, data_dir: Path, namespace: str) -> None:
        if SAFE_KEY.fullmatch(namespace) is None:
            raise ValueError("a device-state namespace is a short name, not a path")
        self.folder = data_dir / FOLDER_NAME / namespace
        self._forgotten = False

    def path_of(self, key: str) -> Path:
        if SAFE_KEY.fullmatch(key) is None:
            raise ValueError(f"not a device-state key: {key!r}")
        return self.folder / f"{key}.json"

    async def get(self, key: str) -> JsonValue:
        return await asyncio.to_thread(self._read, self.path_of(key))

    async def set(self, key: str, value: JsonValue) -> None:
        if self._forgotten:
            return
        path = self.path_of(key)
        if value is None:
            await asyncio.to_thread(_remove, path)
        else:
            await asyncio.to_thread(self._write, path, json.dumps(value, separators=(",", ":")))

    async def forget_all(self) -> None:
        """Removes this namespace's folder; from then on this storage writes nothing."""
        self._forgotten = True
        await asyncio.to_thread(shutil.rmtree, self.folder, True)

    def _make_folders(self) -> None:
        for folder in (self.folder.parent, self.folder):
            folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
            os.chmod(folder, FOLDER_MODE)  # mkdir's mode yields to the umask

    @staticmethod
    def _read(path: Path) -> JsonValue:
        try:
            value: JsonValue = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return value

    def _write(self, path: Path, text: str) -> None:
        temporary: Path | None = None
        try:
            self._make_folders()
            # mkstemp creates the file 0600, and a name of its own per write (two tabs).
            descriptor, name = tempfile.mkstemp(dir=self.folder, prefix=".", suffix=".tmp")
            temporary = Path(name)
            with os.fdopen(descriptor, "w", encoding="utf-8") as file:
                file.write(text)
            os.chmod(temporary, FILE_MODE)
            os.replace(temporary, path)
        except OSError:
            if temporary is not None:
                _remove(temporary)
        if self._forgotten:  # forgotten while this write was on its way
            shutil.rmtree(self.folder, ignore_errors=True)


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        return
