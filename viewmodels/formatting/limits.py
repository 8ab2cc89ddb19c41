"""Run budgets, money and scopes as display lines.

Only finite limits are listed (a limit not sent is left out); a limit
field a newer server adds is listed too, under its humanized name, so the
detail shows "every finite limit" even the ones this client does not model.
A limit the server sent in a form this client cannot read shows "Not available".
Money carries no currency on the wire today; when a server adds one
(``currency`` or ``cost_unit`` beside the limits) it follows each amount
("Reserved cost 0.50 USD") instead of being listed as a limit of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from viewmodels.formatting.labels import NOT_AVAILABLE_TEXT, humanize

if TYPE_CHECKING:
    from transport.models import Limits

_KNOWN = (
    ("max_steps", "Max steps"),
    ("max_model_calls", "Max model calls"),
    ("max_tool_calls", "Max tool calls"),
    ("max_cost", "Max cost"),
    ("reserve_steps", "Reserved steps"),
    ("reserve_model_calls", "Reserved model calls"),
    ("reserve_cost", "Reserved cost"),
)

_MONEY = frozenset({"max_cost", "reserve_cost"})
_UNIT_FIELDS = ("currency", "cost_unit")


def limit_lines(limits: Limits | None) -> tuple[tuple[str, str], ...]:
    """``(label, value)`` for every finite limit, known ones first in a fixed order."""
    if limits is None:
        return (("Limits", NOT_AVAILABLE_TEXT),)
    extra = dict(limits.model_extra or {})
    unit = next((str(extra.pop(key)) for key in _UNIT_FIELDS if extra.get(key)), None)
    lines: list[tuple[str, str]] = []
    for field, label in _KNOWN:
        value = getattr(limits, field, None)
        if value is not None:
            text = _value_text(value)
            lines.append((label, f"{text} {unit}" if unit and field in _MONEY else text))
        elif limits.unreadable(field):
            lines.append((label, NOT_AVAILABLE_TEXT))
    for field, value in sorted(extra.items()):
        if value is not None and isinstance(value, int | float | str | Decimal):
            lines.append((humanize(field), _value_text(value)))
    return tuple(lines)


def money_text(amount: Decimal) -> str:
    """A decimal amount with at least two decimals ("5.00", "0.125"); no currency is implied."""
    if amount.as_tuple().exponent in ("n", "N", "F"):
        return str(amount)
    exponent = amount.as_tuple().exponent
    if isinstance(exponent, int) and exponent > -2:
        return str(amount.quantize(Decimal("0.01")))
    return str(amount)


def scopes_text(scopes: Sequence[str] | None) -> str:
    """ "browser.profile.read, schedule.read", "None" when no scope is requested.

    None (the list was missing or unreadable) is "Not available".
    """
    if scopes is None:
        return NOT_AVAILABLE_TEXT
    return ", ".join(sorted(set(scopes))) or "None"


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, Decimal):
        return money_text(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, str):
        try:
            return money_text(Decimal(value))
        except InvalidOperation:
            return value
    return str(value)
