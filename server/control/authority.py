"""Whether a schedule may still act for its principal at the moment it fires.

Firing is a new submission boundary, so the snapshot taken when the schedule
was written is not trusted: the principal is looked up again, from local
configuration, and the occurrence fails closed unless

- the principal still exists            (else ``principal_unknown``),
- and is enabled                        (else ``principal_disabled``),
- and still holds every requested scope (else ``scope_revoked``),
- and its authority version is the one recorded by the revision's create or
  update                                (else ``authority_changed``).

The reason codes are stable; they are recorded on the AUTHORIZATION_FAILED
occurrence and its audit event. A revision that recorded no version
(imported: demo data, databases older than the worker) is held to the first
three rules only. The run that a passing check creates carries exactly the
revision's requested scopes, never everything the principal holds.
"""

from __future__ import annotations

from collections.abc import Set

from server.identity import Principal

__all__ = ["authority_refusal"]


def authority_refusal(
    principal: Principal | None, requested_scopes: Set[str], recorded_version: str | None
) -> str | None:
    """The stable reason this firing is refused, or None when the authority holds."""
    if principal is None:
        return "principal_unknown"
    if not principal.enabled:
        return "principal_disabled"
    if not requested_scopes <= principal.scopes:
        return "scope_revoked"
    if recorded_version is not None and recorded_version != principal.authority_version:
        return "authority_changed"
    return None
