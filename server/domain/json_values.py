"""JSON values as this server reads them, so that what it stores it can serve back.

Python's ``json`` module reads more than JSON: ``NaN`` and ``Infinity``, numbers
too large for a float (``1e400`` becomes infinity), and ``\\ud800`` escapes that
decode to a lone surrogate no UTF-8 encoder accepts. Stored, any of these makes
every later read of the record fail. ``first_unportable`` finds the first such
value in a decoded document and names where it sits, so a request is refused
before anything is written. U+0000 is refused as well, in values and in keys:
PostgreSQL's text cannot hold it, and a product that stores it on SQLite but
fails on PostgreSQL is two products. Nesting is bounded too: a value nested deeper than
``MAX_DEPTH`` is refused rather than risking recursion limits on the way back out.

``whole_number`` is the one rule for integers: JSON has a single number type,
and JSON Schema counts ``2480.0`` as the integer 2480, so an integral number is
an integer wherever an integer is expected (booleans never are).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

MAX_DEPTH: Final = 32
"""Deepest nesting of arrays and objects a stored value may have."""


@dataclass(frozen=True, slots=True)
class Unportable:
    """Where a value that cannot round-trip sits (``limits.max_cost``) and why."""

    path: str
    reason: str
    """``non_finite_number``, ``invalid_unicode``, ``null_character`` or ``too_deep``."""


def whole_number(value: object) -> int | None:
    """``value`` as an int when it is an integral JSON number, else None (booleans included)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return None


def is_valid_unicode(text: str) -> bool:
    """Whether ``text`` encodes as UTF-8 (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def text_refusal(text: str) -> str | None:
    """Why ``text`` cannot be stored on every backend (``invalid_unicode``, ``null_character``)."""
    if not is_valid_unicode(text):
        return "invalid_unicode"
    if "\x00" in text:
        return "null_character"
    return None


def first_unportable(value: object, path: str = "") -> Unportable | None:
    """The first value under ``value`` that could not be stored and served back, or None."""
    return _walk(value, path, 0)


def _walk(value: object, path: str, depth: int) -> Unportable | None:
    if isinstance(value, float) and not math.isfinite(value):
        return Unportable(path or "body", "non_finite_number")
    if isinstance(value, str):
        refused = text_refusal(value)
        return None if refused is None else Unportable(path or "body", refused)
    if isinstance(value, dict | list) and depth >= MAX_DEPTH:
        return Unportable(path or "body", "too_deep")
    if isinstance(value, dict):
        for key, item in value.items():
            # A key that cannot be stored is not named in the answer either.
            refused = text_refusal(key) if isinstance(key, str) else None
            if refused is not None:
                return Unportable(path or "body", refused)
            found = _walk(item, f"{path}.{key}" if path else str(key), depth + 1)
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _walk(item, f"{path}[{index}]" if path else f"[{index}]", depth + 1)
            if found is not None:
                return found
    return None
