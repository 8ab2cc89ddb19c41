"""The picker's options and whether it may be used: pure decisions, no I/O.

Options are "None" and each READY profile, labelled by its allowed origins'
host names. The schedule's current binding always stays visible: a bound
profile that is not READY shows its state ("expired"), one that is no longer
listed shows "no longer available"; neither can be chosen again.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit
from uuid import UUID

from transport.models import BrowserProfile, Principal, ProfileState, ScheduleState, known_member
from viewmodels.detail.website_snapshot import NONE_OPTION, WebsiteOption
from viewmodels.formatting import profile_state_text, state_label

EDITABLE_STATES = frozenset({ScheduleState.ACTIVE, ScheduleState.PAUSED})
WRITE_SCOPE = "schedule.write"
PROFILE_SCOPE = "browser.profile.read"
NO_LONGER_AVAILABLE = "no longer available"
UNLISTED_LABEL = "Website sign-in"


def host_names(profile: BrowserProfile) -> str:
    """ "mail.google.com, calendar.google.com"; the display name when no origin parses."""
    hosts: list[str] = []
    for origin in profile.allowed_origins:
        host = urlsplit(origin).hostname or origin
        if host not in hosts:
            hosts.append(host)
    return ", ".join(hosts) or profile.display_name


def website_options(
    bound: UUID | None, profiles: Sequence[BrowserProfile] | None
) -> tuple[WebsiteOption, tuple[WebsiteOption, ...]]:
    """``(current, options)``; ``profiles`` None means they could not be listed."""
    ready = [
        WebsiteOption(profile.profile_id, host_names(profile))
        for profile in profiles or ()
        if profile.known_state is ProfileState.READY
    ]
    if bound is None:
        return NONE_OPTION, (NONE_OPTION, *ready)
    for option in ready:
        if option.profile_id == bound:
            return option, (NONE_OPTION, *ready)
    listed = next((p for p in profiles or () if p.profile_id == bound), None)
    if listed is not None:
        current = WebsiteOption(
            bound, host_names(listed), profile_state_text(listed.state), selectable=False
        )
    elif profiles is None:
        current = WebsiteOption(bound, UNLISTED_LABEL, selectable=False)
    else:
        current = WebsiteOption(bound, UNLISTED_LABEL, NO_LONGER_AVAILABLE, selectable=False)
    return current, (NONE_OPTION, current, *ready)


def edit_refusal(state: str, principal: Principal | None) -> str | None:
    """Why the picker is read-only, or None when it may be used.

    Editable only for ACTIVE/PAUSED schedules and a principal holding
    schedule.write (saving) and browser.profile.read (listing and binding).
    """
    if known_member(ScheduleState, state) not in EDITABLE_STATES:
        return f"Website access can't change on a schedule that is {state_label(state).lower()}."
    if principal is None:
        return "Your permissions could not be checked."
    if not principal.holds(WRITE_SCOPE):
        return f"Your account can't change schedules (it lacks {WRITE_SCOPE})."
    if not principal.holds(PROFILE_SCOPE):
        return f"Your account can't list website sign-ins (it lacks {PROFILE_SCOPE})."
    return None


def binding_definition(definition: dict[str, object], profile_id: UUID | None) -> dict[str, object]:
    """``definition`` with only the binding and the ``browser.profile.read`` scope changed.

    Every other field, the ones this client does not model included, is kept
    as the server sent it. Scopes stay sorted and unique.
    """
    raw_scopes = definition.get("requested_scopes")
    scopes = {str(scope) for scope in raw_scopes} if isinstance(raw_scopes, list) else set()
    if profile_id is None:
        scopes.discard(PROFILE_SCOPE)
    else:
        scopes.add(PROFILE_SCOPE)
    return {
        **definition,
        "browser_profile_id": str(profile_id) if profile_id is not None else None,
        "requested_scopes": sorted(scopes),
    }
