"""The view cache's keys in device storage: a closed set, so a cache whose index is lost
can still be removed whole, and the budget the whole stays within."""

from __future__ import annotations

from viewmodels.agenda.window import AgendaSpan

BUDGET_CHARS = 5_000_000
"""The whole cache, index included, in characters of stored JSON (about 5 MB)."""
MOST_DETAILS = 50
INDEX_KEY = "view_cache.index"
FORMAT = 1
SECTIONS = ("current", "recent_history")
AGENDA_SPANS = tuple(span.value for span in AgendaSpan)
"""Today, Next 7 days and Month: one agenda entry each."""


def list_key(section: str) -> str:
    return f"view_cache.list.{section}"


def agenda_key(span: str) -> str:
    return f"view_cache.agenda.{span}"


def slot_key(slot: int) -> str:
    return f"view_cache.detail.{slot}"


ALL_KEYS = (
    INDEX_KEY,
    *(list_key(section) for section in SECTIONS),
    *(agenda_key(span) for span in AGENDA_SPANS),
    *(slot_key(slot) for slot in range(MOST_DETAILS)),
)
"""Every key the cache may write: dropping the cache removes each of them."""
