"""The caller as the server sees it (``GET /v1/principal``).

Principal and tenant identifiers are opaque strings (a team server names
principals in its principals file), not necessarily UUIDs.
"""

from __future__ import annotations

from transport.models.base import WireModel


class Principal(WireModel):
    """Who is calling, and the exact scopes that decide which controls to offer."""

    principal_id: str
    tenant_id: str
    display_name: str
    scopes: list[str]

    def holds(self, scope: str) -> bool:
        """Whether the principal holds ``scope`` (exact match: scopes have no hierarchy)."""
        return scope in self.scopes
