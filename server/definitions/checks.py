"""A schedule definition checked: validated, canonical, and lossless for unknown fields.

A definition is a revision less its server-derived fields. Known fields are
checked and written in one canonical spelling; unknown ones are kept as sent,
so a client round trip loses nothing, and equal canonical text means "no
change". Every text, count, duration and sum of money has a bound, and so do
the unknown fields together (``MAX_UNKNOWN_BYTES``); a value that could not be
stored and served back is refused whoever built it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Final
from uuid import UUID

from server.definitions.errors import InvalidDefinition, SecretDetected
from server.definitions.secret_scanner import scan_definition
from server.domain.cadence import Cadence, CadenceError, parse_cadence
from server.domain.json_values import first_unportable, whole_number
from server.identity import ALL_SCOPES
from server.storage.jsontext import canonical_json

BROWSER_SCOPE: Final = "browser.profile.read"
SERVER_DERIVED: Final = frozenset({"revision", "timezone", "created_by_principal_id", "created_at"})
MAX_TITLE: Final = 200
MAX_INSTRUCTION: Final = 20_000
RUN_TIMEOUT_CEILING: Final = 86_400
MISFIRE_GRACE_CEILING: Final = 86_400
FAILURE_LIMIT_CEILING: Final = 100
COUNT_CEILING: Final = 10_000
"""Ceiling of ``max_steps``, ``max_model_calls`` and ``max_tool_calls`` (reserves fit within)."""
MONEY_INTEGER_DIGITS: Final = 7
MONEY_FRACTION_DIGITS: Final = 6
MONEY_PATTERN: Final = (
    rf"^[0-9]{{1,{MONEY_INTEGER_DIGITS}}}(\.[0-9]{{1,{MONEY_FRACTION_DIGITS}}})?$"
)
"""A money string: plain digits, an optional fraction, no sign or exponent ("5.00")."""
POSITIVE_MONEY_PATTERN: Final = "^(?=.*[1-9])" + MONEY_PATTERN.removeprefix("^")
"""A money string above zero (``max_cost``), for the published schema."""
MAX_UNKNOWN_BYTES: Final = 16 * 1024
"""Largest canonical JSON of a definition's unknown fields, top level and ``limits`` together."""
KNOWN_FIELDS: Final = frozenset(
    {
        "title",
        "instruction",
        "agent_id",
        "agent_version",
        "policy_profile",
        "requested_scopes",
        "browser_profile_id",
        "limits",
        "run_timeout_seconds",
        "cadence",
        "misfire_grace_seconds",
        "max_consecutive_failures",
    }
)
KNOWN_LIMITS: Final = frozenset(
    {
        "max_steps",
        "max_model_calls",
        "max_tool_calls",
        "max_cost",
        "reserve_steps",
        "reserve_model_calls",
        "reserve_cost",
    }
)
PREVIEW_LENGTH: Final = 160
_COUNT_LIMITS: Final = ("max_steps", "max_model_calls", "max_tool_calls")
_MONEY: Final = re.compile(MONEY_PATTERN)
_RESERVES: Final = (("reserve_steps", "max_steps"), ("reserve_model_calls", "max_model_calls"))


@dataclass(frozen=True, slots=True)
class Definition:
    """A checked definition; ``payload`` is the canonical object, unknown fields included."""

    payload: dict[str, Any]
    cadence: Cadence

    @property
    def text(self) -> str:
        """The canonical JSON stored as the revision's definition."""
        return canonical_json(self.payload)

    @property
    def requested_scopes(self) -> frozenset[str]:
        return frozenset(self.payload["requested_scopes"])

    @property
    def browser_profile_id(self) -> UUID | None:
        value = self.payload.get("browser_profile_id")
        return None if value is None else UUID(str(value))


def parse_definition(raw: Mapping[str, Any]) -> Definition:
    """Check ``raw`` and return its canonical form, or raise the first refusal found.

    Raises ``InvalidDefinition`` (field, reason) or ``SecretDetected``.
    """
    unportable = first_unportable(dict(raw))
    if unportable is not None:
        raise InvalidDefinition(unportable.path, unportable.reason)
    payload: dict[str, Any] = {k: v for k, v in raw.items() if k not in SERVER_DERIVED}
    payload["title"] = _text(raw, "title", MAX_TITLE)
    payload["instruction"] = _text(raw, "instruction", MAX_INSTRUCTION)
    payload["agent_id"] = str(_uuid(raw, "agent_id", required=True))
    payload["agent_version"] = _text(raw, "agent_version", 100)
    payload["policy_profile"] = _text(raw, "policy_profile", 100)
    payload["requested_scopes"] = _scopes(raw)
    profile = _uuid(raw, "browser_profile_id", required=False)
    payload["browser_profile_id"] = None if profile is None else str(profile)
    payload["limits"] = _limits(raw)
    payload["run_timeout_seconds"] = _bounded(raw, "run_timeout_seconds", RUN_TIMEOUT_CEILING)
    payload["misfire_grace_seconds"] = _bounded(raw, "misfire_grace_seconds", MISFIRE_GRACE_CEILING)
    payload["max_consecutive_failures"] = _bounded(
        raw, "max_consecutive_failures", FAILURE_LIMIT_CEILING
    )
    cadence = _cadence(raw)
    payload["cadence"] = cadence.to_payload()
    _check_unknown_size(payload)
    if profile is not None and BROWSER_SCOPE not in payload["requested_scopes"]:
        raise InvalidDefinition("requested_scopes", "browser_scope_required")
    finding = scan_definition(payload)
    if finding is not None:
        raise SecretDetected(finding.field, finding.kind)
    return Definition(payload=payload, cadence=cadence)


def instruction_preview(instruction: str) -> str:
    """At most 160 characters of the instruction, on one line, ending in an ellipsis if cut."""
    flat = " ".join(instruction.split())
    if len(flat) <= PREVIEW_LENGTH:
        return flat
    return flat[: PREVIEW_LENGTH - 1].rstrip() + "…"


def _require(raw: Mapping[str, Any], name: str) -> Any:
    if name not in raw or raw[name] is None:
        raise InvalidDefinition(name, "missing_field")
    return raw[name]


def _text(raw: Mapping[str, Any], name: str, longest: int) -> str:
    value = _require(raw, name)
    if not isinstance(value, str):
        raise InvalidDefinition(name, "invalid_type")
    if not value.strip():
        raise InvalidDefinition(name, "empty")
    if len(value) > longest:
        raise InvalidDefinition(name, "too_long")
    return value


def _uuid(raw: Mapping[str, Any], name: str, *, required: bool) -> UUID | None:
    value = raw.get(name)
    if value is None:
        if required:
            raise InvalidDefinition(name, "missing_field")
        return None
    if not isinstance(value, str):
        raise InvalidDefinition(name, "invalid_type")
    try:
        return UUID(value)
    except ValueError as err:
        raise InvalidDefinition(name, "invalid_uuid") from err


def _scopes(raw: Mapping[str, Any]) -> list[str]:
    value = raw.get("requested_scopes", [])
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise InvalidDefinition("requested_scopes", "invalid_type")
    for scope in value:
        if scope not in ALL_SCOPES:
            raise InvalidDefinition("requested_scopes", "unknown_scope")
    return sorted(set(value))


def _integer(value: Any, field: str) -> int:
    number = whole_number(value)
    if number is None:
        raise InvalidDefinition(field, "invalid_type")
    return number


def _bounded(raw: Mapping[str, Any], name: str, ceiling: int) -> int:
    value = _integer(_require(raw, name), name)
    if value <= 0:
        raise InvalidDefinition(name, "not_positive")
    if value > ceiling:
        raise InvalidDefinition(name, "above_ceiling")
    return value


def _money(value: Any, field: str) -> Decimal:
    if not isinstance(value, str):
        raise InvalidDefinition(field, "invalid_type")
    if _MONEY.fullmatch(value) is None:
        raise InvalidDefinition(field, "invalid_decimal")
    return Decimal(value)


def _check_unknown_size(payload: Mapping[str, Any]) -> None:
    """Refuse unknown fields whose canonical JSON together exceeds ``MAX_UNKNOWN_BYTES``."""
    unknown = {k: v for k, v in payload.items() if k not in KNOWN_FIELDS}
    limits = payload["limits"]
    unknown_limits = {k: v for k, v in limits.items() if k not in KNOWN_LIMITS}
    size = len(canonical_json([unknown, unknown_limits]).encode("utf-8"))
    if size > MAX_UNKNOWN_BYTES:
        sizes = {**unknown, **{f"limits.{k}": v for k, v in unknown_limits.items()}}
        largest = max(sizes, key=lambda name: len(canonical_json(sizes[name])))
        raise InvalidDefinition(largest, "unknown_fields_too_large")


def _limits(raw: Mapping[str, Any]) -> dict[str, Any]:
    value = _require(raw, "limits")
    if not isinstance(value, Mapping):
        raise InvalidDefinition("limits", "invalid_type")
    limits: dict[str, Any] = dict(value)
    for name in _COUNT_LIMITS:
        field = f"limits.{name}"
        if value.get(name) is None:
            raise InvalidDefinition(field, "missing_field")
        count = _integer(value[name], field)
        if count <= 0:
            raise InvalidDefinition(field, "not_positive")
        if count > COUNT_CEILING:
            raise InvalidDefinition(field, "above_ceiling")
        limits[name] = count
    if "max_cost" not in value or value["max_cost"] is None:
        raise InvalidDefinition("limits.max_cost", "missing_field")
    max_cost = _money(value["max_cost"], "limits.max_cost")
    if max_cost <= 0:
        raise InvalidDefinition("limits.max_cost", "not_positive")
    limits["max_cost"] = format(max_cost, "f")
    for reserve, total in _RESERVES:
        if value.get(reserve) is None:
            limits[reserve] = None
            continue
        amount = _integer(value[reserve], f"limits.{reserve}")
        if amount < 0:
            raise InvalidDefinition(f"limits.{reserve}", "negative")
        if amount > limits[total]:
            raise InvalidDefinition(f"limits.{reserve}", "above_limit")
        limits[reserve] = amount
    if value.get("reserve_cost") is None:
        limits["reserve_cost"] = None
    else:
        reserve_cost = _money(value["reserve_cost"], "limits.reserve_cost")
        if reserve_cost < 0:
            raise InvalidDefinition("limits.reserve_cost", "negative")
        if reserve_cost > max_cost:
            raise InvalidDefinition("limits.reserve_cost", "above_limit")
        limits["reserve_cost"] = format(reserve_cost, "f")
    return limits


def _cadence(raw: Mapping[str, Any]) -> Cadence:
    value = _require(raw, "cadence")
    if not isinstance(value, Mapping):
        raise InvalidDefinition("cadence", "invalid_type")
    try:
        return parse_cadence(value)
    except CadenceError as err:
        raise InvalidDefinition(f"cadence.{err.field}", err.reason) from err
