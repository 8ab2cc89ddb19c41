"""Whether a schedule may still act for its principal at the moment it fires.

Firing is a new submission boundary: the principal is looked up again and the
occurrence fails closed unless it still exists, is enabled, holds every
requested scope and has the authority version the revision recorded (a
revision that recorded none is held to the first three). Each refusal is a
stable ``ReasonCode`` on the AUTHORIZATION_FAILED occurrence and its event.
"""

from __future__ import annotations

from collections.abc import Set

from server.domain.states import ReasonCode
from server.identity import Principal

__all__ = ["authority_refusal"]


def authority_refusal(
    principal: Principal | None, requested_scopes: Set[str], recorded_version: str | None
) -> ReasonCode | None:
    """The stable reason this firing is refused, or None when the authority holds."""
    if principal is None:
        return ReasonCode.PRINCIPAL_UNKNOWN
    if not principal.enabled:
        return ReasonCode.PRINCIPAL_DISABLED
    if not requested_scopes <= principal.scopes:
        return ReasonCode.SCOPE_REVOKED
    if recorded_version is not None and recorded_version != principal.authority_version:
        return ReasonCode.AUTHORITY_CHANGED
    return None
