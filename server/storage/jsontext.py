"""Canonical JSON text: one spelling per value, so equal values compare equal as text."""

from __future__ import annotations

import json
from typing import Any


def canonical_json(value: Any) -> str:
    """Sorted keys, no insignificant whitespace, UTF-8 kept as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def load_object(text: str) -> dict[str, Any]:
    """Parse stored JSON that must be an object."""
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError("stored JSON is not an object")
    return value
