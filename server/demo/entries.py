"""The demo's entries, read from the TOML files shipped in this package.

``schedules.toml`` (limits, agents, schedules), ``profiles.toml`` (website
sign-ins) and ``chats.toml`` (folders, plain chats) are data, read with
``importlib.resources`` so an installed package finds them. Each entry is
checked on its own against its dataclass (exact TOML types: a number written
as a string is refused, never converted), then against the other entries (known
agent, profile and folder keys, a cadence in its wire shape). Any fault raises
``DemoDataError`` naming the file and the entry, so a bad edit fails the first
load loudly instead of producing a thinner demo.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from typing import Any, TypeVar

from pydantic import ConfigDict, TypeAdapter, ValidationError, with_config

from server.domain.cadence import CadenceError, parse_cadence

STATES = frozenset({"ACTIVE", "PAUSED", "COMPLETED", "CANCELLED"})
PAUSE_REASONS = frozenset({"user", "failure_limit"})
LEDGER_CODES = frozenset("MFEXOAC-")
MISSING_PROFILE = "missing"
"""A profile key no profile has: a sign-in deleted since the schedule was bound."""

_EXACT = ConfigDict(extra="forbid", strict=True)
T = TypeVar("T")


class DemoDataError(ValueError):
    """A demo file or entry that cannot be loaded; the message names which."""


@with_config(_EXACT)
@dataclass(frozen=True, slots=True)
class DemoAgent:
    name: str
    version: str
    policy_profile: str


@with_config(_EXACT)
@dataclass(frozen=True, slots=True)
class DemoSchedule:
    key: str
    title: str
    instruction: str
    cadence: dict[str, Any]
    """Wire shape (API.md "Values"); a ONCE cadence's ``at`` comes from ``once_in_days``."""
    state: str = "ACTIVE"
    pause_reason: str | None = None
    profile: str | None = None
    ledger: str = ""
    """Occurrence decisions, newest first, one letter each (see ``schedules.toml``)."""
    answers: tuple[str, ...] = ()
    age_days: int = 40
    touched_hours: float = 30.0
    revisions: int = 1
    failures: int = 0
    agent: str = "research"
    once_in_days: float | None = None


@with_config(_EXACT)
@dataclass(frozen=True, slots=True)
class DemoProfile:
    key: str
    display_name: str
    state: str
    origins: tuple[str, ...]


@with_config(_EXACT)
@dataclass(frozen=True, slots=True)
class DemoTurn:
    question: str
    answer: str


@with_config(_EXACT)
@dataclass(frozen=True, slots=True)
class DemoChat:
    key: str
    title: str
    hours_ago: float
    turns: tuple[DemoTurn, ...] = field(default=())
    folder: str | None = None


@with_config(_EXACT)
@dataclass(frozen=True, slots=True)
class _SchedulesFile:
    limits: dict[str, Any]
    agents: dict[str, DemoAgent]
    schedules: tuple[dict[str, Any], ...]


@with_config(_EXACT)
@dataclass(frozen=True, slots=True)
class _ProfilesFile:
    profiles: tuple[dict[str, Any], ...]


@with_config(_EXACT)
@dataclass(frozen=True, slots=True)
class _ChatsFile:
    folders: dict[str, str]
    chats: tuple[dict[str, Any], ...]


_SCHEDULES_FILE = TypeAdapter(_SchedulesFile)
_PROFILES_FILE = TypeAdapter(_ProfilesFile)
_CHATS_FILE = TypeAdapter(_ChatsFile)
_SCHEDULE = TypeAdapter(DemoSchedule)
_PROFILE = TypeAdapter(DemoProfile)
_CHAT = TypeAdapter(DemoChat)


@dataclass(frozen=True, slots=True)
class DemoData:
    limits: Mapping[str, Any]
    """The limits of every demo schedule's definition."""
    agents: Mapping[str, DemoAgent]
    schedules: tuple[DemoSchedule, ...]
    profiles: tuple[DemoProfile, ...]
    folders: Mapping[str, str]
    """Folder key to display name."""
    chats: tuple[DemoChat, ...]


def packaged_text(name: str) -> str:
    """One of this package's TOML files, wherever the package is installed."""
    return files("server.demo").joinpath(name).read_text(encoding="utf-8")


@cache
def demo_data() -> DemoData:
    """The shipped demo, read and checked once per process."""
    return read_demo(packaged_text)


def read_demo(text_of: Callable[[str], str]) -> DemoData:
    """Read and check the three files; ``text_of(name)`` returns a file's TOML text."""
    schedules_file = _whole("schedules.toml", _SCHEDULES_FILE, text_of)
    profiles_file = _whole("profiles.toml", _PROFILES_FILE, text_of)
    chats_file = _whole("chats.toml", _CHATS_FILE, text_of)
    data = DemoData(
        limits=schedules_file.limits,
        agents=schedules_file.agents,
        schedules=_entries("schedules.toml", "schedule", _SCHEDULE, schedules_file.schedules),
        profiles=_entries("profiles.toml", "profile", _PROFILE, profiles_file.profiles),
        folders=chats_file.folders,
        chats=_entries("chats.toml", "chat", _CHAT, chats_file.chats),
    )
    profile_keys = {profile.key for profile in data.profiles} | {MISSING_PROFILE}
    for schedule in data.schedules:
        _check(
            schedule.key, "schedules.toml, schedule", _schedule_faults(schedule, data, profile_keys)
        )
    for chat in data.chats:
        _check(chat.key, "chats.toml, chat", _chat_faults(chat, data))
    return data


def _whole(name: str, shape: TypeAdapter[T], text_of: Callable[[str], str]) -> T:
    try:
        document = tomllib.loads(text_of(name))
    except tomllib.TOMLDecodeError as err:
        raise DemoDataError(f"{name} is not valid TOML: {err}") from err
    return _validated(shape, document, name)


def _entries(
    name: str, kind: str, shape: TypeAdapter[T], tables: tuple[dict[str, Any], ...]
) -> tuple[T, ...]:
    seen: set[str] = set()
    entries: list[T] = []
    for number, table in enumerate(tables, start=1):
        key = table.get("key")
        where = f"{name}, {kind} {key!r}" if isinstance(key, str) else f"{name}, {kind} #{number}"
        if key in seen:
            raise DemoDataError(f"{where}: the key is used twice")
        seen.add(str(key))
        entries.append(_validated(shape, table, where))
    return tuple(entries)


def _validated(shape: TypeAdapter[T], value: Mapping[str, Any], where: str) -> T:
    # JSON-shaped input lets strict validation turn TOML arrays into tuples while
    # still refusing every conversion between strings, numbers and booleans.
    try:
        return shape.validate_json(json.dumps(value, default=str))
    except ValidationError as err:
        faults = "; ".join(
            f"{'.'.join(str(part) for part in error['loc']) or 'entry'}: {error['msg']}"
            for error in err.errors()
        )
        raise DemoDataError(f"{where}: {faults}") from err


def _check(key: str, where: str, faults: list[str]) -> None:
    if faults:
        raise DemoDataError(f"{where} {key!r}: {'; '.join(faults)}")


def _schedule_faults(schedule: DemoSchedule, data: DemoData, profile_keys: set[str]) -> list[str]:
    faults: list[str] = []
    if schedule.agent not in data.agents:
        faults.append(f"agent {schedule.agent!r} is not in [agents]")
    if schedule.profile is not None and schedule.profile not in profile_keys:
        faults.append(f"profile {schedule.profile!r} is not in profiles.toml")
    if schedule.state not in STATES:
        faults.append(f"state {schedule.state!r} is not one of {sorted(STATES)}")
    if (schedule.state == "PAUSED") != (schedule.pause_reason in PAUSE_REASONS):
        faults.append("a PAUSED schedule, and only one, has a pause_reason: user or failure_limit")
    if unknown := sorted(set(schedule.ledger) - LEDGER_CODES):
        faults.append(
            f"ledger letters {''.join(unknown)!r} are not among {''.join(sorted(LEDGER_CODES))}"
        )
    if schedule.revisions < 1:
        faults.append("revisions starts at 1")
    if schedule.cadence.get("kind") == "ONCE":
        if schedule.cadence != {"kind": "ONCE"} or schedule.once_in_days is None:
            faults.append('a ONCE cadence is {kind = "ONCE"} with once_in_days beside it')
    elif schedule.once_in_days is not None:
        faults.append("once_in_days belongs to a ONCE cadence")
    else:
        try:
            parse_cadence(schedule.cadence)
        except CadenceError as err:
            faults.append(str(err))
    return faults


def _chat_faults(chat: DemoChat, data: DemoData) -> list[str]:
    faults: list[str] = []
    if chat.folder is not None and chat.folder not in data.folders:
        faults.append(f"folder {chat.folder!r} is not in [folders]")
    if not chat.turns:
        faults.append("a chat has at least one [[chats.turns]]")
    return faults
