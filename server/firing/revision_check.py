"""Each immutable revision's definition read and validated once, not at every firing.

Every firing decides on its revision's stored definition: its cadence, and
whether it still passes today's definition rules (else CONFIGURATION_FAILED).
A revision never changes, so ``checked_revision`` remembers the check per
canonical text in a bounded LRU cache; a text whose cadence does not read
raises every time and is not remembered. The cached dictionaries are shared:
callers read them and never change them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from server.definitions.checks import parse_definition
from server.definitions.errors import ControlPlaneRefusal
from server.domain.cadence import Cadence, parse_cadence
from server.storage.jsontext import load_object

__all__ = ["REVISIONS_REMEMBERED", "CheckedRevision", "checked_revision"]

REVISIONS_REMEMBERED: Final = 4096
"""Revisions whose check is kept; a few megabytes at the largest definitions."""


@dataclass(frozen=True, slots=True)
class CheckedRevision:
    """A stored definition as read, its cadence, and its canonical form if it is still valid."""

    payload: dict[str, Any]
    cadence: Cadence
    valid: dict[str, Any] | None
    """None when the definition no longer passes the rules (``definition_invalid``)."""


@lru_cache(maxsize=REVISIONS_REMEMBERED)
def checked_revision(definition: str) -> CheckedRevision:
    """The check of the revision whose canonical JSON is ``definition``; raises if unreadable."""
    payload = load_object(definition)
    cadence = parse_cadence(payload["cadence"])
    try:
        valid: dict[str, Any] | None = parse_definition(payload).payload
    except ControlPlaneRefusal:
        valid = None
    return CheckedRevision(payload, cadence, valid)
