"""Where the app's sentences are written: what ``scripts/catalogs`` extracts, and what the
catalog test holds the ``.po`` files against.

The app's packages, and the server's executor choice, which the app's command
line checks and says in the person's language.
"""

from __future__ import annotations

CATALOG_SOURCES = (
    "viewmodels",
    "views",
    "app",
    "connection_limits",
    "server/worker/attached_runtime.py",
)
"""Folders and files, relative to the repository's root."""

if __name__ == "__main__":
    print(*CATALOG_SOURCES)
