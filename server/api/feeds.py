"""The calendar feed routes of docs/API.md: make, list and revoke feeds, and serve one.

``POST /v1/feeds``, ``GET /v1/feeds`` and ``DELETE /v1/feeds/{feed_id}``
take the caller's token and ``schedule.read``. ``GET /feeds/<secret>.ics``
takes none (a calendar app cannot send one): the secret is the credential.
An unknown, revoked or malformed secret, a feed whose principal is disabled
or lacks ``schedule.read``, all answer the same 404 as a path no route has,
after the same digest and lookup, and count as an authentication failure of
the client's address (``auth_throttle``), whose wait is checked first. The
answer carries a strong ETag over its bytes; ``If-None-Match`` with it is 304.
"""

# No postponed annotations here: FastAPI must evaluate the route signatures, whose
# dependency aliases are local to the router factory.

import hashlib
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Final
from uuid import UUID

from fastapi import APIRouter, Depends, Header, Request, Response

from auth_throttle import AuthThrottle
from server.api.auth import Authenticator, guessing_slowed, scope_extra
from server.api.cursor import CursorCodec, instant_key
from server.api.errors import ApiError
from server.api.feed_responses import CreatedFeed, Feed, FeedPage, NewFeed
from server.api.health import NO_AUTHENTICATION
from server.api.openapi import (
    MALFORMED,
    SCHEDULE_NOT_FOUND,
    SCOPE_MISSING,
    TOO_LARGE,
    Refusal,
    answers,
)
from server.api.paging import DEFAULT_LIMIT, Cursor, Limit, Listing
from server.api.responses import answer
from server.control.service import ScheduleService
from server.feeds.calendar import render
from server.feeds.content import feed_calendar
from server.feeds.credential import mint_secret, secret_digest
from server.identity import IdentityProvider, Principal
from server.storage.jsontext import load_object
from server.storage.ports import Store
from server.storage.records import CalendarFeed
from server.storage.row_ids import new_row_id

MOST_FEEDS: Final = 100
"""The feeds one principal keeps at most: each is a standing way into its schedules."""
FEED_NOT_FOUND = Refusal(404, "feed.not_found", "unknown or another principal's feed")
FEED_LIMIT = Refusal(
    409, "feed.limit_reached", f"the caller already keeps {MOST_FEEDS} feeds; revoke one first"
)
NO_SUCH_FEED = Refusal(
    404, "route.not_found", "an unknown, revoked or malformed secret, or a feed no longer served"
)
CALENDAR_TYPE: Final = "text/calendar; charset=utf-8"
CACHE: Final = "private, max-age=300"
ALL_SCHEDULES: Final = "All schedules"


class CalendarText(Response):
    media_type = CALENDAR_TYPE


_CALENDAR_ANSWERS: Final[dict[int | str, dict[str, Any]]] = {
    **answers(Feed, NO_SUCH_FEED, authenticated=False),
    200: {
        "description": "The feed as iCalendar (RFC 5545) text, with a strong ETag.",
        "content": {"text/calendar": {"schema": {"type": "string"}}},
    },
    304: {"description": "If-None-Match named the current ETag: no body."},
}


def feed_routes(
    service: ScheduleService,
    store: Store,
    auth: Authenticator,
    identity: IdentityProvider,
    cursors: CursorCodec,
    clock: Callable[[], datetime],
    throttle: AuthThrottle | None,
    public_url: str | None = None,
) -> APIRouter:
    router = APIRouter(tags=["feeds"])
    reader = Annotated[Principal, Depends(auth.require("schedule.read"))]
    origin = "" if public_url is None else public_url.rstrip("/")

    @router.post(
        "/v1/feeds",
        status_code=201,
        operation_id="create_feed",
        openapi_extra=scope_extra("schedule.read"),
        responses=answers(
            CreatedFeed,
            MALFORMED,
            SCOPE_MISSING,
            SCHEDULE_NOT_FOUND,
            FEED_LIMIT,
            TOO_LARGE,
            status=201,
        ),
    )
    def create_feed(principal: reader, body: NewFeed) -> Response:
        """A new feed of one schedule, or of all the caller's; its address appears only here."""
        name = body.name
        if body.schedule_id is not None:
            view = service.get(principal, body.schedule_id)
            name = name or str(load_object(view.revision.definition).get("title", ""))
        feed = CalendarFeed(
            feed_id=new_row_id(),
            owner=principal.owner,
            schedule_id=body.schedule_id,
            name=name or ALL_SCHEDULES,
            created_at=clock(),
        )
        secret = mint_secret()
        if not store.feeds.add(feed, secret_digest(secret), most=MOST_FEEDS):
            raise ApiError(
                FEED_LIMIT.status,
                FEED_LIMIT.code,
                f"You already keep {MOST_FEEDS} calendar feeds; revoke one to make another.",
                details={"most": MOST_FEEDS},
            )
        created = CreatedFeed(**Feed.of(feed).model_dump(), url=f"{origin}/feeds/{secret}.ics")
        return answer(created, status_code=201, headers={"Cache-Control": "no-store"})

    @router.get(
        "/v1/feeds",
        operation_id="list_feeds",
        openapi_extra=scope_extra("schedule.read"),
        responses=answers(FeedPage, MALFORMED, SCOPE_MISSING),
    )
    def list_feeds(
        principal: reader, limit: Limit = DEFAULT_LIMIT, cursor: Cursor = None
    ) -> Response:
        """The caller's feeds, newest first, never with their addresses."""
        return _FEEDS.respond(
            cursors,
            principal,
            cursor,
            limit,
            lambda after, count: store.feeds.page(principal.owner, after, count),
        )

    @router.delete(
        "/v1/feeds/{feed_id}",
        status_code=204,
        operation_id="revoke_feed",
        openapi_extra=scope_extra("schedule.read"),
        responses={
            **answers(Feed, MALFORMED, SCOPE_MISSING, FEED_NOT_FOUND, status=204),
            204: {"description": "Revoked: its address answers 404 from now on."},
        },
    )
    def revoke_feed(principal: reader, feed_id: UUID) -> Response:
        """Revoke one of the caller's feeds at once."""
        if not store.feeds.revoke(principal.owner, feed_id):
            raise ApiError(404, FEED_NOT_FOUND.code, "No such feed.")
        return Response(status_code=204)

    @router.get(
        "/feeds/{secret}.ics",
        operation_id="get_feed_calendar",
        openapi_extra=NO_AUTHENTICATION,
        response_class=Response,
        responses=_CALENDAR_ANSWERS,
    )
    def get_feed_calendar(
        request: Request,
        secret: str,
        if_none_match: Annotated[str | None, Header(alias="If-None-Match")] = None,
    ) -> Response:
        """The feed's calendar; the secret in the path is its only credential."""
        address = request.client.host if request.client is not None else "unknown"
        if throttle is not None:
            wait = throttle.wait(address)
            if wait is not None:
                raise guessing_slowed(wait)
        feed = store.feeds.by_digest(secret_digest(secret))
        owner = None if feed is None else _serving(identity, feed)
        if feed is None or owner is None:
            if throttle is not None:
                throttle.failed(address)
            raise ApiError(404, NO_SUCH_FEED.code, "No such route.")
        body = render(feed_calendar(service, store, owner, feed, clock()))
        tag = f'"{hashlib.sha256(body).hexdigest()}"'
        headers = {"ETag": tag, "Cache-Control": CACHE}
        if if_none_match is not None and _names(if_none_match, tag):
            return Response(status_code=304, headers=headers)
        return CalendarText(body, headers=headers)

    return router


def _serving(identity: IdentityProvider, feed: CalendarFeed) -> Principal | None:
    """The feed's principal while it may read its schedules; None stops the feed."""
    principal = identity.current(feed.owner.tenant_id, feed.owner.principal_id)
    if principal is None or not principal.enabled or "schedule.read" not in principal.scopes:
        return None
    return principal


def _names(if_none_match: str, tag: str) -> bool:
    """Whether an ``If-None-Match`` value names ``tag`` (or is ``*``)."""
    listed = {part.strip().removeprefix("W/") for part in if_none_match.split(",")}
    return "*" in listed or tag in listed


def _feed_position(record: CalendarFeed) -> list[str]:
    return [record.created_at.isoformat(), str(record.feed_id)]


_FEEDS = Listing("feeds", _feed_position, instant_key, Feed.of, FeedPage)
