"""The picker's options and whether it may be used: pure decisions, no I/O.

Options are "None" and each READY profile, labelled by its allowed origins'
host names. The schedule's current binding always stays visible: a bound
profile that is not READY shows its state ("expired"), one that is no longer
listed shows "no longer available"; neither can be chosen again. Labels and
refusals are said in the ``words`` given.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit
from uuid import UUID

from transport.models import BrowserProfile, Principal, ProfileState, ScheduleState, known_member
from viewmodels.detail.website_snapshot import WebsiteOption, none_option, shown_option
from viewmodels.formatting import profile_state_text, state_label
from viewmodels.language import N_, Words

EDITABLE_STATES = frozenset({ScheduleState.ACTIVE, ScheduleState.PAUSED})
WRITE_SCOPE = "schedule.write"
PROFILE_SCOPE = "browser.profile.read"
NO_LONGER_AVAILABLE = N_("no longer available")
UNLISTED_LABEL = N_("Website sign-in")


def host_names(profile: BrowserProfile) -> str:
    """ "mail.google.com, calendar.google.com"; the display name when no origin parses."""
    hosts: list[str] = []
    for origin in profile.allowed_origins:
        host = urlsplit(origin).hostname or origin
        if host not in hosts:
            hosts.append(host)
    return ", ".join(hosts) or profile.display_name


def website_options(
    bound: UUID | None, profiles: Sequence[BrowserProfile] | None, *, words: Words
) -> tuple[WebsiteOption, tuple[WebsiteOption, ...]]:
    """``(current, options)``; ``profiles`` None means they could not be listed."""
    none = none_option(words)
    ready = [
        WebsiteOption(profile.profile_id, host_names(profile))
        for profile in profiles or ()
        if profile.known_state is ProfileState.READY
    ]
    if bound is None:
        return none, (none, *ready)
    for option in ready:
        if option.profile_id == bound:
            return option, (none, *ready)
    listed = next((p for p in profiles or () if p.profile_id == bound), None)
    unlisted = words.gettext(UNLISTED_LABEL)
    if listed is not None:
        current = shown_option(
            bound,
            host_names(listed),
            profile_state_text(listed.state, words=words),
            selectable=False,
            words=words,
        )
    elif profiles is None:
        current = WebsiteOption(bound, unlisted, selectable=False)
    else:
        gone = words.gettext(NO_LONGER_AVAILABLE)
        current = shown_option(bound, unlisted, gone, selectable=False, words=words)
    return current, (none, current, *ready)


def edit_refusal(state: str, principal: Principal | None, *, words: Words) -> str | None:
    """Why the picker is read-only, or None when it may be used, in ``words``' language.

    Editable only for ACTIVE/PAUSED schedules and a principal holding
    schedule.write (saving) and browser.profile.read (listing and binding).
    """
    if known_member(ScheduleState, state) not in EDITABLE_STATES:
        shown = state_label(state, words=words).lower()
        # Translators: {state} is the schedule's state in lower case, e.g. "completed".
        refusal = words.gettext("Website access can't change on a schedule that is {state}.")
        return refusal.format(state=shown)
    if principal is None:
        return words.gettext("Your permissions could not be checked.")
    if not principal.holds(WRITE_SCOPE):
        # Translators: {scope} is a permission's name, kept as it is: "schedule.write".
        lacks = words.gettext("Your account can't change schedules (it lacks {scope}).")
        return lacks.format(scope=WRITE_SCOPE)
    if not principal.holds(PROFILE_SCOPE):
        # Translators: {scope} is a permission's name, kept as it is: "browser.profile.read".
        lacks = words.gettext("Your account can't list website sign-ins (it lacks {scope}).")
        return lacks.format(scope=PROFILE_SCOPE)
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
