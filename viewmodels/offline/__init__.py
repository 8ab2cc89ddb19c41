"""Offline: the view cache (its port, what it keeps) and the banner saying the screens show it."""

from __future__ import annotations

from viewmodels.offline.view_cache import (
    CachedAgenda,
    CachedDetail,
    CachedList,
    CachedMonth,
    CachedWebsite,
    NoViewCache,
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
    "CachedAgenda",
    "CachedDetail",
    "CachedList",
    "CachedMonth",
    "CachedWebsite",
    "NoViewCache",
    "OfflineSnapshot",
    "OfflineViewModel",
    "ViewCache",
    "banner_text",
    "due_text",
    "unreachable",
]
