"""Whether a run may still use the website sign-in its schedule is bound to, as it starts.

A sign-in can be revoked or a scope withdrawn between firing and the run's
start, so the dispatcher asks ``browser_profile_refusal`` for the revision the
run was materialized from, right before executing it. The run fails as
``browser_profile_unavailable`` (the class says why: ``ScopeNotRequested``,
``ScopeNotHeld``, ``ProfileNotFound``, ``ProfileNotReady``) and is accounted
as any failure. Unbound or purged schedules are not checked; only the
profile's state is read.
"""

from __future__ import annotations

from uuid import UUID

from server.definitions.checks import BROWSER_SCOPE
from server.domain.states import ProfileState, ReasonCode
from server.identity import IdentityProvider
from server.storage.jsontext import load_object
from server.storage.ports import Store
from server.storage.records import ClaimedRun
from server.worker.executor import RunFailure

__all__ = ["browser_profile_refusal"]

_UNAVAILABLE = ReasonCode.BROWSER_PROFILE_UNAVAILABLE


def browser_profile_refusal(
    store: Store, identity: IdentityProvider, run: ClaimedRun
) -> RunFailure | None:
    """Why ``run`` may not use its schedule's bound profile now, or None when it may."""
    if run.schedule_id is None:
        return None
    session = store.sessions.get(run.owner, run.session_id)
    pinned = None if session is None else session.metadata.get("schedule_revision")
    revision = next(
        (r for r in store.schedules.revisions(run.schedule_id) if r.revision == pinned), None
    )
    if revision is None:
        return None
    payload = load_object(revision.definition)
    bound = payload.get("browser_profile_id")
    if not isinstance(bound, str):
        return None
    if BROWSER_SCOPE not in payload.get("requested_scopes", []):
        return RunFailure(_UNAVAILABLE, "ScopeNotRequested")
    principal = identity.current(run.owner.tenant_id, run.owner.principal_id)
    if principal is None or not principal.enabled or BROWSER_SCOPE not in principal.scopes:
        return RunFailure(_UNAVAILABLE, "ScopeNotHeld")
    try:
        profile_id = UUID(bound)
    except ValueError:
        return RunFailure(_UNAVAILABLE, "ProfileNotFound")
    profile = store.profiles.get(run.owner, profile_id)
    if profile is None:
        return RunFailure(_UNAVAILABLE, "ProfileNotFound")
    if profile.state != ProfileState.READY:
        return RunFailure(_UNAVAILABLE, "ProfileNotReady")
    return None
