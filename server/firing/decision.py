"""The decision for one due instant, as a pure function of what it was told.

The order is the rule: a definition that no longer validates is
CONFIGURATION_FAILED first (its grace cannot be trusted to call the instant
missed); then an instant outside its grace is MISSED; then a principal whose
authority changed is AUTHORIZATION_FAILED; then a run still in flight is
SKIPPED_OVERLAP (a skip creates no run, so it needs no capacity, and waiting
for capacity must not turn an overlap into a miss); then admission: over the
cap the firing waits (``None``), or, for a caller that may not wait, is
MISSED (``active_run_limit``). Otherwise it is MATERIALIZED.

``decide_firing`` reads no clock, store or identity of its own: the principal
is asked for through ``principal`` only once the instant is within grace and
its definition valid.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from server.definitions.authority import authority_refusal
from server.domain.states import Disposition, ReasonCode
from server.identity import Principal

__all__ = ["Firing", "FiringFacts", "decide_firing"]


@dataclass(frozen=True, slots=True)
class FiringFacts:
    """What the decision needs to know about one due schedule and its candidate instant.

    ``requested_scopes`` is None when the stored definition no longer
    validates; ``pinned_authority`` is the revision's authority version.
    """

    requested_scopes: frozenset[str] | None
    outside_grace: bool
    pinned_authority: str | None
    run_in_flight: bool
    admitted: bool
    may_wait: bool = True


@dataclass(frozen=True, slots=True)
class Firing:
    """One decided occurrence before it becomes rows (``principal``: whose authority it used)."""

    disposition: Disposition
    reason_code: ReasonCode | None
    principal: Principal | None


def decide_firing(facts: FiringFacts, principal: Callable[[], Principal | None]) -> Firing | None:
    """The disposition of the candidate instant, or None: admission said wait."""
    if facts.requested_scopes is None:
        return Firing(Disposition.CONFIGURATION_FAILED, ReasonCode.DEFINITION_INVALID, None)
    if facts.outside_grace:
        return Firing(Disposition.MISSED, ReasonCode.MISFIRE_GRACE_EXCEEDED, None)
    present = principal()
    refusal = authority_refusal(present, facts.requested_scopes, facts.pinned_authority)
    if refusal is not None:
        return Firing(Disposition.AUTHORIZATION_FAILED, refusal, present)
    if facts.run_in_flight:
        return Firing(Disposition.SKIPPED_OVERLAP, ReasonCode.PREVIOUS_RUN_IN_FLIGHT, present)
    if not facts.admitted:
        return (
            None
            if facts.may_wait
            else Firing(Disposition.MISSED, ReasonCode.ACTIVE_RUN_LIMIT, None)
        )
    return Firing(Disposition.MATERIALIZED, None, present)
