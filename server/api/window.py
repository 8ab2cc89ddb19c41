"""The projection's window from its query: two aware instants, half-open, at most 92 days.

``from`` and ``to`` are RFC 3339 instants with an offset. Every refusal is 400
``request.invalid`` naming the parameter in ``details.field`` with a stable
``details.reason``:

- ``invalid_datetime``: not an instant at all;
- ``naive_datetime``: no offset, so no instant (the server never guesses a zone);
- ``out_of_range``: an instant with no UTC date (``9999-12-31T23:30:00-01:00``);
- ``not_after_from`` (``to``): the window is empty or reversed;
- ``window_too_long`` (``to``): longer than ``MAX_WINDOW``.
"""

from __future__ import annotations

from datetime import UTC, datetime

from server.api.errors import ApiError, invalid_request
from server.control.projection import MAX_WINDOW

__all__ = ["window"]


def window(start_text: str, end_text: str) -> tuple[datetime, datetime]:
    """``(start, end)`` in UTC, or the 400 naming the parameter at fault."""
    start = _instant("from", start_text)
    end = _instant("to", end_text)
    if end <= start:
        raise _refusal("to", "not_after_from", "The window must end after it starts.")
    if end - start > MAX_WINDOW:
        raise _refusal(
            "to", "window_too_long", f"The window may span at most {MAX_WINDOW.days} days."
        )
    return start, end


def _instant(field: str, text: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError as err:
        raise _refusal(field, "invalid_datetime", "is not an RFC 3339 instant.") from err
    if parsed.utcoffset() is None:
        raise _refusal(field, "naive_datetime", "needs an offset such as Z or +01:00.")
    try:
        return parsed.astimezone(UTC)
    except OverflowError as err:
        raise _refusal(field, "out_of_range", "has no date in UTC.") from err


def _refusal(field: str, reason: str, text: str) -> ApiError:
    message = text if text[0].isupper() else f"The parameter {field} {text}"
    return invalid_request(message, field=field, reason=reason)
