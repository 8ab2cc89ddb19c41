"""Who is calling: principals, their scopes, and how a request proves it.

Two providers implement ``IdentityProvider``:

- ``TokenDirectory``: bearer tokens checked against SHA-256 digests (the
  principals file of ``server.principals_file``, or one generated local principal); every
  comparison is constant-time and tokens are never kept or logged.
- ``LocalIdentity``: the embedded server reached in-process; every request is
  the one local principal holding every scope, no token involved.

``authority_version`` digests what a principal may do (its id, tenant, scopes
and whether it is enabled), so changing its scopes or disabling it changes
the version the scheduler recorded; rotating its token or renaming it does
not, so a new token (``schedule-server serve`` without a principals file
makes one on every start) never stops its schedules.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from server.storage.jsontext import canonical_json
from server.storage.records import Owner

ALL_SCOPES: frozenset[str] = frozenset(
    {
        "schedule.read",
        "schedule.write",
        "schedule.cancel",
        "browser.profile.read",
        "session.read",
        "session.write",
    }
)
"""The scope vocabulary (docs/API.md, "Scopes"): exact strings, no hierarchy."""

LOCAL_PRINCIPAL_ID = "local"
LOCAL_TENANT_ID = "local"
LOCAL_DISPLAY_NAME = "Local user"


@dataclass(frozen=True, slots=True)
class Principal:
    """An authenticated caller and what it may do."""

    principal_id: str
    tenant_id: str
    display_name: str
    scopes: frozenset[str]
    enabled: bool
    authority_version: str

    @property
    def owner(self) -> Owner:
        return Owner(tenant_id=self.tenant_id, principal_id=self.principal_id)


class IdentityProvider(Protocol):
    def authenticate(self, bearer_token: str | None) -> Principal | None:
        """The enabled principal the request speaks for, or None (401)."""
        ...

    def current(self, tenant_id: str, principal_id: str) -> Principal | None:
        """The principal's present entry, enabled or not; None when it no longer exists.

        The scheduler re-checks authority with it at every firing, from local
        configuration only (never a remote identity service).
        """
        ...


def token_digest(token: str) -> str:
    """Hex SHA-256 of a bearer token, the only form in which tokens are stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def make_principal(
    *,
    principal_id: str,
    tenant_id: str,
    display_name: str,
    scopes: Iterable[str],
    enabled: bool = True,
) -> Principal:
    """Build a principal whose authority version digests what its entry authorizes."""
    scope_set = frozenset(scopes)
    authority = {
        "id": principal_id,
        "tenant": tenant_id,
        "scopes": sorted(scope_set),
        "enabled": enabled,
    }
    version = hashlib.sha256(canonical_json(authority).encode("utf-8")).hexdigest()
    return Principal(
        principal_id=principal_id,
        tenant_id=tenant_id,
        display_name=display_name,
        scopes=scope_set,
        enabled=enabled,
        authority_version=version,
    )


def local_principal() -> Principal:
    """The embedded server's one principal, holding every scope."""
    return make_principal(
        principal_id=LOCAL_PRINCIPAL_ID,
        tenant_id=LOCAL_TENANT_ID,
        display_name=LOCAL_DISPLAY_NAME,
        scopes=ALL_SCOPES,
    )


class LocalIdentity:
    """Every request is the local principal (in-process use only)."""

    def __init__(self, principal: Principal | None = None) -> None:
        self.principal = principal or local_principal()

    def authenticate(self, bearer_token: str | None) -> Principal | None:
        return self.principal

    def current(self, tenant_id: str, principal_id: str) -> Principal | None:
        p = self.principal
        return p if (p.tenant_id, p.principal_id) == (tenant_id, principal_id) else None


class TokenDirectory:
    """Principals keyed by token digest; lookups compare every digest in constant time."""

    def __init__(self, entries: Iterable[tuple[str, Principal]]) -> None:
        self._entries = tuple(entries)
        self.principals = tuple(principal for _, principal in self._entries)
        self._by_id = {(p.tenant_id, p.principal_id): p for p in self.principals}

    def authenticate(self, bearer_token: str | None) -> Principal | None:
        if not bearer_token:
            return None
        digest = token_digest(bearer_token).encode("ascii")
        found: Principal | None = None
        for stored, principal in self._entries:
            # No early exit: the time taken does not depend on which entry matched.
            if hmac.compare_digest(digest, stored.encode("ascii")):
                found = principal
        if found is None or not found.enabled:
            return None
        return found

    def current(self, tenant_id: str, principal_id: str) -> Principal | None:
        return self._by_id.get((tenant_id, principal_id))


def generated_local_directory() -> tuple[TokenDirectory, str]:
    """A directory of one local principal with every scope, and its fresh token."""
    token = secrets.token_urlsafe(32)
    digest = token_digest(token)
    principal = make_principal(
        principal_id=LOCAL_PRINCIPAL_ID,
        tenant_id=LOCAL_TENANT_ID,
        display_name=LOCAL_DISPLAY_NAME,
        scopes=ALL_SCOPES,
    )
    return TokenDirectory([(digest, principal)]), token
