"""Whether a run may still use the website sign-in its schedule is bound to, as it starts.

A schedule bound to a browser profile was checked when it was written (the
profile the owner's, READY, ``browser.profile.read`` requested and held),
and its principal's authority again when it fired; but a sign-in can be
revoked or a scope withdrawn in the seconds or hours between firing and the
run's start. So the run dispatcher asks ``browser_profile_refusal`` right
before it hands a run to the executor, for the revision the run was
materialized from (the session's ``schedule_revision``), and fails the run
instead of executing it when

- the revision no longer requests ``browser.profile.read``
  (``ScopeNotRequested``),
- the owner no longer exists, is disabled, or no longer holds that scope
  (``ScopeNotHeld``),
- the profile is gone or another principal's (``ProfileNotFound``),
- or it is not READY (``ProfileNotReady``).

The run then fails with reason ``browser_profile_unavailable`` and the class
in brackets, and the ordinary accounting applies (failure count, pause at
the limit). A run of an unbound revision, or of a schedule since purged, is
not checked. Reads only; no profile material is looked at but its state.
"""

from __future__ import annotations

from uuid import UUID

from server.control.definition import BROWSER_SCOPE
from server.identity import IdentityProvider
from server.storage.jsontext import load_object
from server.storage.ports import Store
from server.storage.records import ClaimedRun
from server.worker.executor import RunFailure

__all__ = ["PROFILE_UNAVAILABLE", "browser_profile_refusal"]

PROFILE_UNAVAILABLE = "browser_profile_unavailable"
READY = "READY"


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
        return RunFailure(PROFILE_UNAVAILABLE, "ScopeNotRequested")
    principal = identity.current(run.owner.tenant_id, run.owner.principal_id)
    if principal is None or not principal.enabled or BROWSER_SCOPE not in principal.scopes:
        return RunFailure(PROFILE_UNAVAILABLE, "ScopeNotHeld")
    try:
        profile_id = UUID(bound)
    except ValueError:
        return RunFailure(PROFILE_UNAVAILABLE, "ProfileNotFound")
    profile = store.profiles.get(run.owner, profile_id)
    if profile is None:
        return RunFailure(PROFILE_UNAVAILABLE, "ProfileNotFound")
    if profile.state != READY:
        return RunFailure(PROFILE_UNAVAILABLE, "ProfileNotReady")
    return None
