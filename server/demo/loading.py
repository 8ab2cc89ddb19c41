"""The demo data: what a new user sees first, loaded the same for a given instant.

The entries are data (``schedules.toml``, ``profiles.toml``, ``chats.toml`` in
this package, read and checked by ``server.demo.entries``); this module turns
them into store records. Identifiers are UUIDv5 values derived from stable
keys, and every instant is computed from ``now`` with the recurrence calculator
(past firings are the cadence's own instants), so two loads at the same instant
produce the same rows. An ACTIVE schedule's ledger ends at the load and its
active span begins just before the ledger's oldest firing, so every firing
the scheduler should have decided is recorded, but for the ledger's ``-``
(the demo's deliberate "Not fired"). Definitions pass through the same
validation as a create; a refusal names the demo entry.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from server.definitions.checks import BROWSER_SCOPE, Definition, parse_definition
from server.definitions.errors import ControlPlaneRefusal
from server.demo.entries import DemoData, DemoDataError, DemoSchedule, demo_data
from server.domain.cadence import Cadence
from server.domain.recurrence import first_after, latest_at_or_before
from server.domain.states import Disposition, PauseReason, RunStatus, ScheduleState
from server.firing.plan import FiringIds, materialized
from server.storage.ports import Store
from server.storage.records import (
    FolderRecord,
    Materialization,
    MessageRecord,
    OccurrenceRecord,
    Owner,
    ProfileRecord,
    RevisionRecord,
    ScheduleRecord,
    ScheduleView,
    SessionRecord,
)

__all__ = ["DemoDataError", "demo_id", "load_demo", "load_demo_if_empty"]

_NAMESPACE = UUID("6f1d2c3b-8a4e-5f60-9b7c-0d1e2f3a4b5c")
_REASONS = {
    "X": (Disposition.MISSED, "misfire_grace_exceeded"),
    "O": (Disposition.SKIPPED_OVERLAP, "previous_run_in_flight"),
    "A": (Disposition.AUTHORIZATION_FAILED, "scope_not_granted"),
    "C": (Disposition.CONFIGURATION_FAILED, "agent_version_missing"),
}
_UNRECORDED = "-"
_RESUMED_BEFORE = timedelta(minutes=1)
"""How long before its ledger's oldest firing an ACTIVE demo schedule's span began."""


def demo_id(*parts: str) -> UUID:
    """The stable identifier of one demo object."""
    return uuid.uuid5(_NAMESPACE, "/".join(parts))


def load_demo(
    store: Store, principal_id: str, tenant_id: str, now: datetime, data: DemoData | None = None
) -> None:
    """Give ``principal_id`` the demo's profiles, folders, chats and schedules.

    ``data`` is the shipped demo unless given; ``DemoDataError`` names a bad entry.
    """
    data = demo_data() if data is None else data
    owner = Owner(tenant_id=tenant_id, principal_id=principal_id)
    for profile in data.profiles:
        store.profiles.add(
            ProfileRecord(
                profile_id=demo_id(principal_id, "profile", profile.key),
                owner=owner,
                display_name=profile.display_name,
                state=profile.state,
                allowed_origins=profile.origins,
                created_at=now - timedelta(days=120),
                updated_at=now - timedelta(days=3),
            )
        )
    for key, name in data.folders.items():
        store.folders.add(
            FolderRecord(
                demo_id(principal_id, "folder", key), owner, name, now - timedelta(days=60)
            )
        )
    _load_chats(store, owner, now, data)
    built = [(spec, *_schedule(spec, owner, now, data)) for spec in data.schedules]
    store.schedules.import_many(
        [view for _, view, _, _, _ in built], [r for _, _, earlier, _, _ in built for r in earlier]
    )
    for spec, view, _, definition, instants in built:
        _load_ledger(store, spec, view, definition, instants, now)


def load_demo_if_empty(store: Store, principal_id: str, tenant_id: str, now: datetime) -> bool:
    """Load the demo for ``principal_id`` when the store holds nothing yet; whether it did.

    Under ``Store.seeding``: server replicas started together on one empty
    database load it once, never twice and never interleaved.
    """
    with store.seeding():
        if not store.is_empty():
            return False
        load_demo(store, principal_id, tenant_id, now)
    return True


def _load_chats(store: Store, owner: Owner, now: datetime, data: DemoData) -> None:
    for chat in data.chats:
        session_id = demo_id(owner.principal_id, "chat", chat.key)
        last = now - timedelta(hours=chat.hours_ago)
        start = last - timedelta(minutes=3 * len(chat.turns))
        messages: list[MessageRecord] = []
        for index, turn in enumerate(chat.turns):
            asked = start + timedelta(minutes=3 * index)
            said = (
                ("user", turn.question, asked),
                ("assistant", turn.answer, asked + timedelta(minutes=1)),
            )
            for role, text, at in said:
                message_id = demo_id(owner.principal_id, "chat", chat.key, str(index), role)
                messages.append(MessageRecord(message_id, session_id, role, text, False, at))
        folder = None if chat.folder is None else demo_id(owner.principal_id, "folder", chat.folder)
        store.sessions.add(
            SessionRecord(
                session_id=session_id,
                owner=owner,
                title=chat.title,
                last_activity_at=messages[-1].created_at,
                folder_id=folder,
                metadata={},
                created_at=start,
            ),
            messages,
        )


def _definition(
    spec: DemoSchedule, owner: Owner, now: datetime, revision: int, data: DemoData
) -> Definition:
    agent = data.agents[spec.agent]
    cadence = dict(spec.cadence)
    if cadence["kind"] == "ONCE":
        assert spec.once_in_days is not None
        at = (now + timedelta(days=spec.once_in_days)).replace(second=0, microsecond=0)
        at = at.replace(minute=at.minute - at.minute % 15)
        cadence["at"] = at.isoformat()
    profile = None
    scopes: list[str] = []
    if spec.profile is not None:
        profile = str(demo_id(owner.principal_id, "profile", spec.profile))
        scopes.append(BROWSER_SCOPE)
    instruction = spec.instruction
    if revision < spec.revisions:
        # Earlier revisions said less: each later one added its last sentence.
        cut = instruction.rsplit(". ", spec.revisions - revision)[0]
        instruction = cut if cut.endswith(".") else cut + "."
    payload: dict[str, Any] = {
        "title": spec.title,
        "instruction": instruction,
        "agent_id": str(demo_id("agent", agent.name)),
        "agent_version": agent.version,
        "policy_profile": agent.policy_profile,
        "requested_scopes": scopes,
        "browser_profile_id": profile,
        "limits": dict(data.limits),
        "run_timeout_seconds": 600 if len(spec.instruction) > 2000 else 300,
        "cadence": cadence,
        "misfire_grace_seconds": 3600,
        "max_consecutive_failures": spec.failures if spec.pause_reason == "failure_limit" else 3,
    }
    try:
        return parse_definition(payload)
    except ControlPlaneRefusal as err:
        raise DemoDataError(f"schedules.toml, schedule {spec.key!r}: {err}") from err


def _schedule(
    spec: DemoSchedule, owner: Owner, now: datetime, data: DemoData
) -> tuple[ScheduleView, list[RevisionRecord], Definition, list[datetime]]:
    """The schedule's row and revisions, its definition and its ledger's instants, newest first."""
    schedule_id = demo_id(owner.principal_id, "schedule", spec.key)
    created = now - timedelta(days=spec.age_days)
    updated = max(created, now - timedelta(hours=spec.touched_hours))
    revisions: list[RevisionRecord] = []
    definition = _definition(spec, owner, now, spec.revisions, data)
    for number in range(1, spec.revisions + 1):
        text = _definition(spec, owner, now, number, data).text
        at = created + (updated - created) * (number - 1) / spec.revisions
        revisions.append(RevisionRecord(schedule_id, number, text, owner.principal_id, at))
    active = spec.state == ScheduleState.ACTIVE
    next_fire = first_after(definition.cadence, now) if active else None
    # An ACTIVE schedule has fired up to now; the others stopped when last touched.
    instants = _past_instants(definition.cadence, now if active else updated, len(spec.ledger))
    record = ScheduleRecord(
        schedule_id=schedule_id,
        owner=owner,
        state=ScheduleState(spec.state),
        pause_reason=None if spec.pause_reason is None else PauseReason(spec.pause_reason),
        current_revision=spec.revisions,
        next_fire_at=next_fire,
        consecutive_failures=spec.failures,
        created_at=created,
        updated_at=updated,
        active_since=_active_since(definition.cadence, created, now, instants) if active else None,
    )
    return ScheduleView(record, revisions[-1]), revisions[:-1], definition, instants


def _active_since(
    cadence: Cadence, created: datetime, now: datetime, ledger: list[datetime]
) -> datetime:
    """Just before the ledger's oldest firing, or at the latest firing when it has none."""
    oldest = ledger[-1] - _RESUMED_BEFORE if ledger else latest_at_or_before(cadence, now)
    return created if oldest is None else max(created, oldest)


def _past_instants(cadence: Cadence, before: datetime, count: int) -> list[datetime]:
    instants: list[datetime] = []
    cursor = before
    while len(instants) < count:
        found = latest_at_or_before(cadence, cursor)
        if found is None:
            break
        instants.append(found)
        cursor = found - timedelta(microseconds=1)
    return instants


def _load_ledger(
    store: Store,
    spec: DemoSchedule,
    view: ScheduleView,
    definition: Definition,
    instants: list[datetime],
    now: datetime,
) -> None:
    """The ledger's decisions at ``instants``; nothing after ``now`` (a firing just before it)."""
    schedule, owner = view.schedule, view.schedule.owner
    answers = spec.answers or ("Done.",)
    for index, (code, nominal) in enumerate(zip(spec.ledger, instants, strict=False)):
        if code == _UNRECORDED:
            continue
        key = (owner.principal_id, "occurrence", spec.key, str(index))
        occurrence_id = demo_id(*key)
        revision = schedule.current_revision
        entry = OccurrenceRecord(
            occurrence_id=occurrence_id,
            schedule_id=schedule.schedule_id,
            schedule_revision=revision,
            nominal_fire_at=nominal,
            disposition=Disposition.MATERIALIZED,
            session_id=None,
            run_id=None,
            reason_code=None,
            authority_version="demo-authority",
            materialized_at=None,
            links_erased_at=None,
            created_at=nominal,
        )
        if code in _REASONS:
            disposition, reason = _REASONS[code]
            store.occurrences.record(
                Materialization(replace(entry, disposition=disposition, reason_code=reason))
            )
            continue
        fired_at = min(nominal + timedelta(seconds=4 + index), now)
        if code == "E":
            erased = fired_at + timedelta(days=2)
            store.occurrences.record(
                Materialization(replace(entry, materialized_at=fired_at, links_erased_at=erased))
            )
            continue
        # The "seed" key only keeps the opening message's demo id stable across versions.
        ids = FiringIds(demo_id(*key, "session"), demo_id(*key, "run"), demo_id(*key, "seed"))
        fired = materialized(schedule, entry, definition.payload, fired_at, ids)
        if fired.session is None or fired.run is None:
            raise ValueError("a firing writes a session and a run")
        answered = fired_at + timedelta(minutes=2 + (index * 7) % 5, seconds=index * 13 % 50)
        answered = min(answered, now)
        answer = MessageRecord(
            demo_id(*key, "answer"),
            ids.session_id,
            "assistant",
            answers[index % len(answers)],
            False,
            answered,
        )
        failed = code == "F"
        store.occurrences.record(
            replace(
                fired,
                session=replace(fired.session, last_activity_at=answered),
                messages=(*fired.messages, answer),
                run=replace(
                    fired.run,
                    status=RunStatus.FAILED if failed else RunStatus.COMPLETED,
                    updated_at=answered,
                    failure_reason="deadline_exceeded" if failed else None,
                ),
            )
        )
