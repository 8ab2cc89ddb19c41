"""Authenticating a request and checking the route's one exact scope.

First, with a throttle, 429 ``request.rate_limited`` while the client's
address waits after repeated authentication failures
(``auth_throttle``), before the token is looked at; then 401
``auth.unauthenticated`` when no enabled principal matches the bearer
token (counted against the address); then, with a limiter, 429
``request.rate_limited`` when the caller has spent its allowance (every
authenticated request counts, refused ones too);
403 ``auth.scope_missing`` naming the scope when the principal lacks it.
Scopes have no hierarchy. The token itself is never logged or echoed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from auth_throttle import AuthThrottle
from server.api.errors import ApiError
from server.api.rate_limit import RequestLimiter
from server.identity import IdentityProvider, Principal

_bearer = HTTPBearer(auto_error=False)


def scope_extra(scope: str | None) -> dict[str, Any]:
    """The OpenAPI extension that declares a route's required scope.

    ``None`` (any authenticated caller) is spelled ``x-any-authenticated-caller``
    because OpenAPI extensions with a null value are dropped from the document.
    """
    if scope is None:
        return {"x-any-authenticated-caller": True}
    return {"x-required-scope": scope}


def rate_limited(retry_after_seconds: int) -> ApiError:
    return ApiError(
        429,
        "request.rate_limited",
        f"Too many requests; try again in {retry_after_seconds} s.",
        {"retry_after_seconds": retry_after_seconds},
        headers={"Retry-After": str(retry_after_seconds)},
    )


def guessing_slowed(retry_after_seconds: int) -> ApiError:
    return ApiError(
        429,
        "request.rate_limited",
        "Too many failed authentication attempts from this address; "
        f"try again in {retry_after_seconds} s.",
        {"retry_after_seconds": retry_after_seconds, "reason": "authentication_failures"},
        headers={"Retry-After": str(retry_after_seconds)},
    )


class Authenticator:
    def __init__(
        self,
        identity: IdentityProvider,
        limiter: RequestLimiter | None = None,
        throttle: AuthThrottle | None = None,
    ) -> None:
        self._identity = identity
        self._limiter = limiter
        self._throttle = throttle

    def require(self, scope: str | None) -> Callable[..., Awaitable[Principal]]:
        """A dependency yielding the caller, who must hold ``scope`` (None: any caller)."""
        identity = self._identity
        limiter = self._limiter
        throttle = self._throttle

        async def caller(
            request: Request,
            credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
        ) -> Principal:
            address = request.client.host if request.client is not None else "unknown"
            if throttle is not None:
                wait = throttle.wait(address)
                if wait is not None:
                    raise guessing_slowed(wait)
            token = None if credentials is None else credentials.credentials
            principal = identity.authenticate(token)
            if principal is None:
                if throttle is not None:
                    throttle.failed(address)
                raise ApiError(
                    401,
                    "auth.unauthenticated",
                    "A valid bearer token is required.",
                    headers={"WWW-Authenticate": "Bearer"},
                )
            if limiter is not None:
                wait = limiter.admit(principal.owner)
                if wait is not None:
                    raise rate_limited(wait)
            if scope is not None and scope not in principal.scopes:
                raise ApiError(
                    403,
                    "auth.scope_missing",
                    f"This request needs the {scope} scope.",
                    {"scope": scope},
                )
            return principal

        return caller
