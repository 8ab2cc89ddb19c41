"""Every failure the transport reports, as one tree rooted at ``ApiError``.

Nothing from httpx or pydantic escapes the client: callers catch the narrowest
class they can act on (``ConnectionFailed``, ``ProtocolError``,
``ServerRefused`` and its kinds by status and code). ``error_for`` is the one
place a status and an envelope code become a class. ``str(err)`` is our own
sentence, safe to log or show, never a token, a body or an instruction; the
server's text stays in ``.message``. No httpx here: view models catch these.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

_WORD = re.compile(r"[a-z0-9]+")
_FILLER = frozenset({"a", "an", "the", "is", "was", "are", "were", "has", "been", "it", "this"})


def _words(text: str) -> set[str]:
    """The words that carry meaning, for telling a repeat from news."""
    return set(_WORD.findall(text.lower())) - _FILLER


class ApiError(Exception):
    """Base of every error the transport raises."""

    summary = "The schedule server request failed"

    def __init__(self, sentence: str | None = None) -> None:
        self.sentence = sentence or self.summary
        super().__init__(self.sentence)

    def __str__(self) -> str:
        return self.sentence


class ConnectionFailed(ApiError):
    """The request never got an HTTP answer (refused, reset, DNS, TLS...)."""

    summary = "Could not reach the schedule server"


class TimedOut(ConnectionFailed):
    """The server did not answer within the client's timeout."""

    summary = "The schedule server did not answer in time"


class ProtocolError(ApiError):
    """A successful answer whose body breaks the wire contract."""

    summary = "The schedule server sent an answer this app cannot read"


class RepeatedCursor(ApiError):
    """Paging stopped: the server handed out a cursor that was already followed."""

    summary = "The schedule server repeated a page cursor; paging stopped"

    def __init__(self, cursor: str) -> None:
        super().__init__()
        self.cursor = cursor


class ServerRefused(ApiError):
    """The server answered with a non-2xx status."""

    summary = "The schedule server refused the request"
    complete: ClassVar[bool] = False
    """True where ``summary`` says all there is: the server's message is never added to it."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str = "",
        details: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{self.summary} (HTTP {status}, {code})")
        self.status = status
        self.code = code
        self.message = message
        self.details: Mapping[str, Any] = dict(details or {})

    @property
    def added_detail(self) -> str | None:
        """The server's message when it adds to ``summary``; None when absent or a repeat."""
        text = self.message.strip()
        if self.complete or not text or _words(text) <= _words(self.summary):
            return None
        return text

    def _text_detail(self, key: str) -> str | None:
        """``details[key]`` when the server sent it as text; anything else reads as absent."""
        value = self.details.get(key)
        return value if isinstance(value, str) else None


class InvalidRequest(ServerRefused):
    summary = "The schedule server rejected the request as malformed"


class ListOrderNotOffered(InvalidRequest):
    """400 to ``GET /v1/schedules?order=next_fire``: an older server lists in its one order."""

    summary = "This server does not list schedules soonest first"
    complete = True


class Unauthenticated(ServerRefused):
    summary = "The schedule server did not accept the credentials"
    complete = True


class ScopeMissing(ServerRefused):
    """The token lacks the route's scope; ``.scope`` names it when the server said."""

    summary = "This account lacks the permission for that action"

    @property
    def scope(self) -> str | None:
        return self._text_detail("scope")


class NotFound(ServerRefused):
    """Unknown, foreign or purged (cross-tenant resources answer 404, never 403)."""

    summary = "The schedule server does not know that item"
    complete = True


class BrowsingUnavailable(ServerRefused):
    """404/405 from ``GET /v1/schedules``: this server offers no schedule browsing."""

    summary = "Schedule browsing isn't available on this server"
    complete = True


class RevisionConflict(ServerRefused):
    """``expected_revision`` was stale; ``.current_revision`` is the server's when given."""

    summary = "The schedule changed since it was read"
    complete = True

    @property
    def current_revision(self) -> int | None:
        value = self.details.get("current_revision")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class ScheduleTerminal(ServerRefused):
    summary = "The schedule has ended and can no longer change"
    complete = True


class IdempotencyConflict(ServerRefused):
    summary = "The same idempotency key was already used for a different request"
    complete = True


class SessionNotChat(ServerRefused):
    summary = "Sessions created by a schedule cannot be moved to a folder"
    complete = True


class FeedLimitReached(ServerRefused):
    summary = (
        "You already have as many calendar feeds as this server allows; revoke one to make another"
    )
    complete = True


class ValidationFailed(ServerRefused):
    """The server rejected a definition; ``.field`` and ``.reason`` say where and why."""

    summary = "The schedule server rejected the definition"

    @property
    def field(self) -> str | None:
        return self._text_detail("field")

    @property
    def reason(self) -> str | None:
        return self._text_detail("reason")


class BrowserProfileUnavailable(ValidationFailed):
    summary = "That website sign-in is missing or not ready"


class ScopeNotGranted(ValidationFailed):
    summary = "The schedule asks for a permission this account does not hold"


class SecretDetected(ValidationFailed):
    summary = "The instruction looks like it contains a credential"


class RateLimited(ServerRefused):
    """Too many requests; ``.retry_after`` is the server's wait in seconds when given."""

    summary = "The schedule server is busy; try again shortly"
    complete = True

    def __init__(
        self,
        status: int,
        code: str,
        message: str = "",
        details: Mapping[str, Any] | None = None,
        *,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(status, code, message, details)
        self.retry_after = retry_after


class ServerError(ServerRefused):
    summary = "The schedule server failed"


_CONFLICTS: Mapping[str, type[ServerRefused]] = {
    "schedule.revision_conflict": RevisionConflict,
    "schedule.terminal": ScheduleTerminal,
    "request.idempotency_conflict": IdempotencyConflict,
    "session.not_chat": SessionNotChat,
    "feed.limit_reached": FeedLimitReached,
}

_VALIDATIONS: Mapping[str, type[ValidationFailed]] = {
    "schedule.browser_profile_unavailable": BrowserProfileUnavailable,
    "schedule.scope_not_granted": ScopeNotGranted,
    "schedule.secret_detected": SecretDetected,
}

_BY_STATUS: Mapping[int, type[ServerRefused]] = {
    400: InvalidRequest,
    401: Unauthenticated,
    403: ScopeMissing,
    404: NotFound,
    422: ValidationFailed,
}


def generic_code(status: int) -> str:
    """The code given to a refusal whose body is not a valid error envelope."""
    return f"http.{status}"


def error_for(
    status: int,
    envelope_code: str | None,
    message: str | None,
    details: Mapping[str, Any] | None,
    *,
    list_route: bool = False,
    retry_after: float | None = None,
) -> ServerRefused:
    """The error for a non-2xx answer: status first, then the envelope code.

    ``envelope_code`` is None when the body was not a valid envelope.
    ``list_route`` marks ``GET /v1/schedules``, where 404 and 405 mean the
    server offers no browsing rather than a missing item.
    """
    code = envelope_code if envelope_code is not None else generic_code(status)
    text = message or ""
    if list_route and status in (404, 405):
        return BrowsingUnavailable(status, code, text, details)
    if status == 429:
        return RateLimited(status, code, text, details, retry_after=retry_after)
    if status >= 500:
        return ServerError(status, code, text, details)
    if status == 409:
        return _CONFLICTS.get(code, ServerRefused)(status, code, text, details)
    if status == 422:
        return _VALIDATIONS.get(code, ValidationFailed)(status, code, text, details)
    return _BY_STATUS.get(status, ServerRefused)(status, code, text, details)
