"""Browser profile (website sign-in) listing and the caller's own principal."""

# No postponed annotations here: FastAPI must evaluate the route signatures, whose
# dependency aliases are local to the router factory.

from typing import Annotated

from fastapi import APIRouter, Depends, Response

from server.api.auth import Authenticator, scope_extra
from server.api.cursor import CursorCodec, text_key
from server.api.openapi import MALFORMED, SCOPE_MISSING, answers
from server.api.paging import DEFAULT_LIMIT, Cursor, Limit, Listing
from server.api.responses import BrowserProfile, BrowserProfilePage, answer
from server.api.responses import Principal as PrincipalBody
from server.identity import Principal
from server.storage.ports import Store
from server.storage.records import ProfileRecord


def profile_routes(store: Store, auth: Authenticator, cursors: CursorCodec) -> APIRouter:
    router = APIRouter(tags=["identity"])
    reader = Annotated[Principal, Depends(auth.require("browser.profile.read"))]
    anyone = Annotated[Principal, Depends(auth.require(None))]

    @router.get(
        "/v1/browser-profiles",
        operation_id="list_browser_profiles",
        openapi_extra=scope_extra("browser.profile.read"),
        responses=answers(BrowserProfilePage, MALFORMED, SCOPE_MISSING),
    )
    def list_profiles(
        principal: reader, limit: Limit = DEFAULT_LIMIT, cursor: Cursor = None
    ) -> Response:
        """The caller's sign-ins in every state, by display name."""
        return _PROFILES.respond(
            cursors,
            principal,
            cursor,
            limit,
            lambda after, count: store.profiles.page(principal.owner, after, count),
        )

    @router.get(
        "/v1/principal",
        operation_id="get_principal",
        openapi_extra=scope_extra(None),
        responses=answers(PrincipalBody),
    )
    def get_principal(principal: anyone) -> Response:
        """Who the caller is and which scopes it holds (any authenticated caller)."""
        return answer(PrincipalBody.of(principal))

    return router


def _position(record: ProfileRecord) -> list[str]:
    return [record.display_name, str(record.profile_id)]


_PROFILES = Listing("profiles", _position, text_key, BrowserProfile.of, BrowserProfilePage)
