"""The five cadence values of a schedule revision (ONCE, DAILY, WEEKLY, MONTHLY, YEARLY).

A value that exists is valid and canonical: its constructor checks its own
invariants and sorts its selectors, so two payloads that mean the same rule
parse to equal values. A rejection is a ``CadenceError`` with the payload
field and a stable reason code (``docs/API.md``, "Cadence").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time
from functools import lru_cache
from typing import ClassVar, Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from server.domain.json_values import whole_number

__all__ = [
    "Cadence",
    "CadenceError",
    "Daily",
    "MonthDay",
    "Monthly",
    "Once",
    "Weekly",
    "Yearly",
    "parse_cadence",
]

# Days in each month of a leap year: a yearly date is possible if it fits here.
_LONGEST_MONTH: Final = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_LOCAL_TIME: Final = re.compile(r"([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?")


class CadenceError(ValueError):
    """A cadence payload or value broke one rule.

    ``field`` names the payload key at fault (``"weekdays"``, ``"dates"``, or
    the unknown key itself); ``reason`` is the stable machine-readable code.
    """

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"cadence field {field!r} is invalid: {reason}")
        self.field = field
        self.reason = reason


@lru_cache(maxsize=1)
def _known_zones() -> frozenset[str]:
    # "localtime" names whatever the host is set to, which no schedule may depend on.
    return frozenset(available_timezones() - {"localtime"})


def _check_zone(name: str) -> None:
    if name not in _known_zones():
        raise CadenceError("timezone", "invalid_timezone")
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as err:
        raise CadenceError("timezone", "invalid_timezone") from err


def _check_local_time(value: time) -> None:
    if value.tzinfo is not None or value.microsecond or value.fold:
        raise CadenceError("local_time", "invalid_local_time")


def _wall_clock_payload(
    cadence: Daily | Weekly | Monthly | Yearly, **selectors: object
) -> dict[str, object]:
    """A recurring cadence's payload: its own selectors between wall time and zone."""
    return {
        "kind": cadence.kind,
        "local_time": cadence.local_time.strftime("%H:%M:%S"),
        **selectors,
        "timezone": cadence.timezone,
    }


@dataclass(frozen=True, slots=True)
class MonthDay:
    """A yearly date: ``day`` of ``month``; February 29 fires in leap years only."""

    month: int
    day: int

    def __post_init__(self) -> None:
        if not 1 <= self.month <= 12 or not 1 <= self.day <= _LONGEST_MONTH[self.month - 1]:
            raise CadenceError("dates", "date_impossible")


@dataclass(frozen=True, slots=True)
class Once:
    """One absolute instant; fires once, then the schedule completes."""

    kind: ClassVar[str] = "ONCE"
    at: datetime

    def __post_init__(self) -> None:
        if self.at.tzinfo is None or self.at.utcoffset() is None:
            raise CadenceError("at", "naive_datetime")
        try:
            utc = self.at.astimezone(UTC)
        except OverflowError as err:
            # 9999-12-31T23:30-01:00 and 0001-01-01T00:30+01:00 have no UTC date.
            raise CadenceError("at", "out_of_range") from err
        object.__setattr__(self, "at", utc)

    @property
    def zone_name(self) -> str:
        return "UTC"

    def to_payload(self) -> dict[str, object]:
        return {"kind": self.kind, "at": self.at.isoformat().replace("+00:00", "Z")}


@dataclass(frozen=True, slots=True)
class Daily:
    """Every local date at ``local_time`` in ``timezone``."""

    kind: ClassVar[str] = "DAILY"
    local_time: time
    timezone: str

    def __post_init__(self) -> None:
        _check_local_time(self.local_time)
        _check_zone(self.timezone)

    @property
    def zone_name(self) -> str:
        return self.timezone

    def to_payload(self) -> dict[str, object]:
        return _wall_clock_payload(self)


@dataclass(frozen=True, slots=True)
class Weekly:
    """The listed ISO weekdays (1 = Monday ... 7 = Sunday), stored ascending."""

    kind: ClassVar[str] = "WEEKLY"
    local_time: time
    weekdays: tuple[int, ...]
    timezone: str

    def __post_init__(self) -> None:
        _check_local_time(self.local_time)
        if not self.weekdays:
            raise CadenceError("weekdays", "weekdays_empty")
        if any(not 1 <= day <= 7 for day in self.weekdays):
            raise CadenceError("weekdays", "weekday_out_of_range")
        if len(set(self.weekdays)) != len(self.weekdays):
            raise CadenceError("weekdays", "weekday_duplicate")
        object.__setattr__(self, "weekdays", tuple(sorted(self.weekdays)))
        _check_zone(self.timezone)

    @property
    def zone_name(self) -> str:
        return self.timezone

    def to_payload(self) -> dict[str, object]:
        return _wall_clock_payload(self, weekdays=list(self.weekdays))


@dataclass(frozen=True, slots=True)
class Monthly:
    """Numbered days of each month (a missing one is skipped) and/or its last day."""

    kind: ClassVar[str] = "MONTHLY"
    local_time: time
    days_of_month: tuple[int, ...]
    last_day: bool
    timezone: str

    def __post_init__(self) -> None:
        _check_local_time(self.local_time)
        if any(not 1 <= day <= 31 for day in self.days_of_month):
            raise CadenceError("days_of_month", "day_out_of_range")
        if len(set(self.days_of_month)) != len(self.days_of_month):
            raise CadenceError("days_of_month", "day_duplicate")
        if not self.days_of_month and not self.last_day:
            raise CadenceError("days_of_month", "monthly_selector_empty")
        object.__setattr__(self, "days_of_month", tuple(sorted(self.days_of_month)))
        _check_zone(self.timezone)

    @property
    def zone_name(self) -> str:
        return self.timezone

    def to_payload(self) -> dict[str, object]:
        return _wall_clock_payload(
            self, days_of_month=list(self.days_of_month), last_day=self.last_day
        )


@dataclass(frozen=True, slots=True)
class Yearly:
    """Month/day pairs each year, stored sorted; a pair absent this year is skipped."""

    kind: ClassVar[str] = "YEARLY"
    local_time: time
    dates: tuple[MonthDay, ...]
    timezone: str

    def __post_init__(self) -> None:
        _check_local_time(self.local_time)
        if not self.dates:
            raise CadenceError("dates", "dates_empty")
        if len(set(self.dates)) != len(self.dates):
            raise CadenceError("dates", "date_duplicate")
        ordered = tuple(sorted(self.dates, key=lambda md: (md.month, md.day)))
        object.__setattr__(self, "dates", ordered)
        _check_zone(self.timezone)

    @property
    def zone_name(self) -> str:
        return self.timezone

    def to_payload(self) -> dict[str, object]:
        dates = [{"month": md.month, "day": md.day} for md in self.dates]
        return _wall_clock_payload(self, dates=dates)


Cadence = Once | Daily | Weekly | Monthly | Yearly

_FIELDS: Final[Mapping[str, frozenset[str]]] = {
    "ONCE": frozenset({"kind", "at"}),
    "DAILY": frozenset({"kind", "local_time", "timezone"}),
    "WEEKLY": frozenset({"kind", "local_time", "weekdays", "timezone"}),
    "MONTHLY": frozenset({"kind", "local_time", "days_of_month", "last_day", "timezone"}),
    "YEARLY": frozenset({"kind", "local_time", "dates", "timezone"}),
}
# Either monthly selector may be left out; the other must then select something.
_OPTIONAL: Final[Mapping[str, frozenset[str]]] = {
    "MONTHLY": frozenset({"days_of_month", "last_day"}),
}


def parse_cadence(payload: Mapping[str, object]) -> Cadence:
    """Build the cadence a JSON payload describes, or raise ``CadenceError``.

    Checks run in a fixed order (kind, unknown fields, missing fields, then
    each field) so one payload always yields the same reason.
    """
    kind = payload.get("kind")
    if kind is None:
        raise CadenceError("kind", "missing_field")
    if not isinstance(kind, str):
        raise CadenceError("kind", "invalid_type")
    allowed = _FIELDS.get(kind)
    if allowed is None:
        raise CadenceError("kind", "unknown_kind")
    for name in sorted(payload):
        if name not in allowed:
            raise CadenceError(name, "unknown_field")
    for name in sorted(allowed - _OPTIONAL.get(kind, frozenset())):
        if name not in payload:
            raise CadenceError(name, "missing_field")

    if kind == "ONCE":
        return Once(at=_instant(payload["at"]))
    local_time = _local_time(payload["local_time"])
    zone = _string(payload, "timezone")
    if kind == "DAILY":
        return Daily(local_time=local_time, timezone=zone)
    if kind == "WEEKLY":
        weekdays = _integers(payload, "weekdays")
        return Weekly(local_time=local_time, weekdays=weekdays, timezone=zone)
    if kind == "MONTHLY":
        days = _integers(payload, "days_of_month") if "days_of_month" in payload else ()
        last_day = payload.get("last_day", False)
        if not isinstance(last_day, bool):
            raise CadenceError("last_day", "invalid_type")
        return Monthly(local_time=local_time, days_of_month=days, last_day=last_day, timezone=zone)
    return Yearly(local_time=local_time, dates=_month_days(payload["dates"]), timezone=zone)


def _string(payload: Mapping[str, object], name: str) -> str:
    value = payload[name]
    if not isinstance(value, str):
        raise CadenceError(name, "invalid_type")
    return value


def _integers(payload: Mapping[str, object], name: str) -> tuple[int, ...]:
    value = payload[name]
    if not isinstance(value, Sequence) or isinstance(value, str | bytes):
        raise CadenceError(name, "invalid_type")
    result: list[int] = []
    for item in value:
        number = whole_number(item)
        if number is None:
            raise CadenceError(name, "invalid_type")
        result.append(number)
    return tuple(result)


def _instant(value: object) -> datetime:
    if not isinstance(value, str):
        raise CadenceError("at", "invalid_type")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError as err:
        raise CadenceError("at", "invalid_datetime") from err
    if parsed.tzinfo is None:
        raise CadenceError("at", "naive_datetime")
    return parsed


def _local_time(value: object) -> time:
    if not isinstance(value, str):
        raise CadenceError("local_time", "invalid_type")
    match = _LOCAL_TIME.fullmatch(value)
    if match is None:
        raise CadenceError("local_time", "invalid_local_time")
    hour, minute, second = match.groups()
    return time(int(hour), int(minute), int(second or 0))


def _month_days(value: object) -> tuple[MonthDay, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str | bytes):
        raise CadenceError("dates", "invalid_type")
    result: list[MonthDay] = []
    for item in value:
        if not isinstance(item, Mapping):
            raise CadenceError("dates", "invalid_type")
        for name in sorted(item):
            if name not in ("month", "day"):
                raise CadenceError(f"dates.{name}", "unknown_field")
        month, day = (_date_part(item, "month"), _date_part(item, "day"))
        result.append(MonthDay(month=month, day=day))
    return tuple(result)


def _date_part(item: Mapping[object, object], name: str) -> int:
    if name not in item:
        raise CadenceError(f"dates.{name}", "missing_field")
    value = whole_number(item[name])
    if value is None:
        raise CadenceError(f"dates.{name}", "invalid_type")
    return value
