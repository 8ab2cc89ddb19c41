"""The SHA-256 of each Flet desktop client archive the app may fetch, pinned in the project.

The client is an executable: ``app.desktop_client`` unpacks an archive only
when its digest equals the one written here for the installed
``flet_desktop`` version and that archive's name, and refuses to fetch one
that has no entry. Upgrading Flet means adding its release's digests here
(each archive of ``https://github.com/flet-dev/flet/releases/tag/v<version>``,
checked with ``sha256sum``); until then the app opens in the browser.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

__all__ = ["CLIENT_ARCHIVE_SHA256"]

CLIENT_ARCHIVE_SHA256: Final[Mapping[tuple[str, str], str]] = MappingProxyType(
    {
        # (flet_desktop version, archive name): lowercase hex SHA-256
    }
)
