"""The query parameters every route spells the same way: instants, search, paging."""

from __future__ import annotations

from datetime import UTC, datetime

Params = list[tuple[str, str]]


def instant(moment: datetime) -> str:
    """RFC 3339 in UTC with ``Z``, as the contract writes instants; naive ones are refused."""
    if moment.utcoffset() is None:
        raise ValueError("an instant sent to the server must be timezone-aware")
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def search(query: str | None) -> Params:
    return [] if query is None or not query.strip() else [("q", query)]


def paging(limit: int | None, cursor: str | None) -> Params:
    params: Params = []
    if limit is not None:
        params.append(("limit", str(limit)))
    if cursor is not None:
        params.append(("cursor", cursor))
    return params
