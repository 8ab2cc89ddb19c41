"""Which servers this device has read, so an unreachable one at start can open offline.

At start the app reads ``GET /v1/principal``. When that cannot reach the
server, there are two causes a person cannot tell apart from one sentence: a
wrong address, or a server that is away for now. The app tells them apart by
what the device remembers: a server (with this token) it has read before
opens offline and shows its view cache; one it never read stops with the
sentence, as before.

The record is a small JSON list of account keys in the user data folder,
each a digest of the server address and the token's digest
(``account_key``): it names neither, and a changed token is a server never
read. A record that does not read back counts as empty. Nothing a screen
showed is kept here: that is the view cache's, in the device storage.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from app.device_storage import server_namespace

RECORD_NAME = "servers-read.json"
MOST_KEPT = 32


def account_key(identity: str, token: str | None) -> str:
    """A stable, non-revealing key for one server reached with one token."""
    digest = hashlib.sha256((token or "").encode("utf-8")).hexdigest()
    return server_namespace(f"{identity}#token-sha256={digest}")


def has_read(folder: Path | None, key: str) -> bool:
    return folder is not None and key in _keys(folder / RECORD_NAME)


def remember_read(folder: Path | None, key: str) -> None:
    """Adds ``key``; a folder that cannot be written only loses the offline start."""
    if folder is None:
        return
    path = folder / RECORD_NAME
    keys = [k for k in _keys(path) if k != key]
    keys.append(key)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(keys[-MOST_KEPT:]), encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        return


def _keys(path: Path) -> list[str]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(raw, list):
        return []
    return [key for key in raw if isinstance(key, str)]
