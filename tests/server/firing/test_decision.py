"""The worker's decision order, row by row: definition, grace, authority, overlap, admission.

Each row sets every fact that could decide the instant and names the one
that must win; the principal is looked up only once the instant is within
grace and its definition valid.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from server.domain.states import Disposition
from server.firing.decision import FiringFacts, decide_firing
from server.identity import Principal
from tests.server.scene import ALICE, principal

CLEAR = FiringFacts(
    requested_scopes=frozenset({"schedule.read"}),
    outside_grace=False,
    pinned_authority=ALICE.authority_version,
    run_in_flight=False,
    admitted=True,
)
INVALID: dict[str, Any] = dict(requested_scopes=None)
LATE = dict(outside_grace=True)
CHANGED = dict(pinned_authority="an-older-authority")
IN_FLIGHT = dict(run_in_flight=True)
FULL = dict(admitted=False)
EVERYTHING_WRONG = INVALID | LATE | CHANGED | IN_FLIGHT | FULL


class Lookups:
    """The principal lookup the decision is given, counting how often it asks."""

    def __init__(self, present: Principal | None) -> None:
        self.present = present
        self.asked = 0

    def __call__(self) -> Principal | None:
        self.asked += 1
        return self.present


@pytest.mark.parametrize(
    ("facts", "present", "decided", "asks"),
    [
        pytest.param(
            EVERYTHING_WRONG,
            ALICE,
            (Disposition.CONFIGURATION_FAILED, "definition_invalid"),
            0,
            id="an-invalid-definition-comes-first",
        ),
        pytest.param(
            LATE | CHANGED | IN_FLIGHT | FULL,
            ALICE,
            (Disposition.MISSED, "misfire_grace_exceeded"),
            0,
            id="then-an-instant-outside-its-grace-is-missed",
        ),
        pytest.param(
            CHANGED | IN_FLIGHT | FULL,
            ALICE,
            (Disposition.AUTHORIZATION_FAILED, "authority_changed"),
            1,
            id="then-changed-authority-refuses",
        ),
        pytest.param(
            IN_FLIGHT | FULL,
            None,
            (Disposition.AUTHORIZATION_FAILED, "principal_unknown"),
            1,
            id="a-principal-gone-refuses",
        ),
        pytest.param(
            IN_FLIGHT | FULL,
            principal(enabled=False),
            (Disposition.AUTHORIZATION_FAILED, "principal_disabled"),
            1,
            id="a-disabled-principal-refuses",
        ),
        pytest.param(
            IN_FLIGHT | FULL,
            ALICE,
            (Disposition.SKIPPED_OVERLAP, "previous_run_in_flight"),
            1,
            id="then-a-run-in-flight-skips-before-admission-is-asked",
        ),
        pytest.param(FULL, ALICE, None, 1, id="then-over-the-cap-the-firing-waits"),
        pytest.param(
            FULL | dict(may_wait=False),
            ALICE,
            (Disposition.MISSED, "active_run_limit"),
            1,
            id="over-the-cap-a-caller-that-cannot-wait-records-missed",
        ),
        pytest.param({}, ALICE, (Disposition.MATERIALIZED, None), 1, id="otherwise-it-fires"),
    ],
)
def test_the_first_fact_in_the_order_decides(
    facts: dict[str, Any],
    present: Principal | None,
    decided: tuple[Disposition, str | None] | None,
    asks: int,
) -> None:
    lookups = Lookups(present)
    firing = decide_firing(replace(CLEAR, **facts), lookups)
    assert (None if firing is None else (firing.disposition, firing.reason_code)) == decided
    assert lookups.asked == asks


@pytest.mark.parametrize(
    ("facts", "used"),
    [
        pytest.param({}, True, id="a-firing-records-the-authority-it-used"),
        pytest.param(IN_FLIGHT, True, id="an-overlap-skip-records-it-too"),
        pytest.param(LATE, False, id="a-miss-records-none"),
        pytest.param(FULL | dict(may_wait=False), False, id="an-admission-miss-records-none"),
    ],
)
def test_a_decision_records_whose_authority_it_checked(facts: dict[str, Any], used: bool) -> None:
    firing = decide_firing(replace(CLEAR, **facts), lambda: ALICE)
    assert firing is not None
    assert firing.principal is (ALICE if used else None)
