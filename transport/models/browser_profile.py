"""A website sign-in (``GET /v1/browser-profiles``) a schedule may be bound to."""

from __future__ import annotations

from uuid import UUID

from transport.models.base import WireModel, known_member
from transport.models.enums import ProfileState


class BrowserProfile(WireModel):
    """A profile, labelled in the UI by the hosts of its allowed origins."""

    profile_id: UUID
    display_name: str
    state: str
    allowed_origins: list[str]

    @property
    def known_state(self) -> ProfileState | None:
        return known_member(ProfileState, self.state)
