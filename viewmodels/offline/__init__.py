"""Offline: the device's view cache and the banner that says the screens show it."""

from __future__ import annotations

from viewmodels.offline.view_cache import (
    BUDGET_CHARS,
    MOST_DETAILS,
    CachedDetail,
    CachedList,
    CachedMonth,
    CachedWebsite,
    ViewCache,
)
from viewmodels.offline.view_model import (
    OfflineSnapshot,
    OfflineViewModel,
    banner_text,
    due_text,
    unreachable,
)

__all__ = [
    "BUDGET_CHARS",
    "MOST_DETAILS",
    "CachedDetail",
    "CachedList",
    "CachedMonth",
    "CachedWebsite",
    "OfflineSnapshot",
    "OfflineViewModel",
    "ViewCache",
    "banner_text",
    "due_text",
    "unreachable",
]
