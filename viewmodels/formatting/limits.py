"""Run budgets, money and scopes as display lines.

Only finite limits are listed (a limit not sent is left out); a limit
field a newer server adds is listed too, under its humanized name, so the
detail shows "every finite limit" even the ones this client does not model.
A limit the server sent in a form this client cannot read shows "Not available".
Money carries no currency on the wire today; when a server adds one
(``currency`` or ``cost_unit`` beside the limits) it follows each amount
("Reserved cost 0.50 USD") instead of being listed as a limit of its own.
Numbers are written as the locale writes them ("5.00", German "5,00"), and
the labels are in its language.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from babel import Locale
from babel.numbers import format_decimal

from viewmodels.formatting.labels import NOT_AVAILABLE_TEXT, humanize
from viewmodels.language import N_, Words, words_for

if TYPE_CHECKING:
    from transport.models import Limits

_KNOWN = (
    ("max_steps", N_("Max steps")),
    ("max_model_calls", N_("Max model calls")),
    ("max_tool_calls", N_("Max tool calls")),
    ("max_cost", N_("Max cost")),
    ("reserve_steps", N_("Reserved steps")),
    ("reserve_model_calls", N_("Reserved model calls")),
    ("reserve_cost", N_("Reserved cost")),
)

_MONEY = frozenset({"max_cost", "reserve_cost"})
_UNIT_FIELDS = ("currency", "cost_unit")


def limit_lines(limits: Limits | None, *, locale: Locale) -> tuple[tuple[str, str], ...]:
    """``(label, value)`` for every finite limit, known ones first in a fixed order."""
    words = words_for(locale)
    if limits is None:
        return ((words.gettext("Limits"), words.gettext(NOT_AVAILABLE_TEXT)),)
    extra = dict(limits.model_extra or {})
    unit = next((str(extra.pop(key)) for key in _UNIT_FIELDS if extra.get(key)), None)
    lines: list[tuple[str, str]] = []
    for field, label in _KNOWN:
        value = getattr(limits, field, None)
        if value is not None:
            text = _value_text(value, locale, words)
            lines.append(
                (words.gettext(label), f"{text} {unit}" if unit and field in _MONEY else text)
            )
        elif limits.unreadable(field):
            lines.append((words.gettext(label), words.gettext(NOT_AVAILABLE_TEXT)))
    for field, value in sorted(extra.items()):
        if value is not None and isinstance(value, int | float | str | Decimal):
            lines.append((humanize(field, words=words), _value_text(value, locale, words)))
    return tuple(lines)


def money_text(amount: Decimal, *, locale: Locale) -> str:
    """A decimal amount with at least two decimals ("5.00", "0.125"; German "5,00"); no
    currency is implied and no digits are grouped."""
    if not amount.is_finite():
        return str(amount)
    return format_decimal(amount, "0.00", locale=locale, decimal_quantization=False)


def scopes_text(scopes: Sequence[str] | None, *, words: Words) -> str:
    """ "browser.profile.read, schedule.read", "None" when no scope is requested.

    None (the list was missing or unreadable) is "Not available". The scopes are
    identifiers, listed as code lists them, with commas.
    """
    if scopes is None:
        return words.gettext(NOT_AVAILABLE_TEXT)
    # Translators: no scope is requested (a schedule's requested scopes).
    return ", ".join(sorted(set(scopes))) or words.pgettext("scopes", "None")


def _value_text(value: object, locale: Locale, words: Words) -> str:
    if isinstance(value, bool):
        return words.gettext("Yes") if value else words.gettext("No")
    if isinstance(value, Decimal):
        return money_text(value, locale=locale)
    if isinstance(value, int):
        return format_decimal(value, locale=locale)
    if isinstance(value, float) and math.isfinite(value):
        return format_decimal(
            Decimal(repr(value)), "0.0", locale=locale, decimal_quantization=False
        )
    if isinstance(value, str):
        try:
            return money_text(Decimal(value), locale=locale)
        except InvalidOperation:
            return value
    return str(value)
