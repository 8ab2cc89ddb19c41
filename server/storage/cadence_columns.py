"""Where a schedule's current cadence sits on the wall clock, kept on its row for the agenda.

Every cadence is civil: at most one firing per local date, at one wall time
in one zone. So the firings at an instant are the schedules whose wall time
in their zone is that instant's wall time there, and the agenda finds them
through an index on (zone, wall time) rather than by computing every
schedule. ``cadence_values`` gives the three columns from a revision's
canonical definition JSON: ``cadence_zone`` (``UTC`` for ONCE),
``cadence_wall_time`` (seconds since local midnight; a ONCE's UTC time of
day) and ``cadence_key`` (the cadence's canonical JSON, which groups equal
cadences). A definition without a valid cadence gives NULLs: it never fires.
"""

from __future__ import annotations

from typing import Any

from server.domain.cadence import Cadence, CadenceError, Once, parse_cadence
from server.storage.jsontext import canonical_json, load_object

__all__ = ["cadence_values", "wall_seconds"]


def wall_seconds(cadence: Cadence) -> int:
    """The cadence's wall time as whole seconds since local midnight of its zone."""
    if isinstance(cadence, Once):
        at = cadence.at
        return at.hour * 3600 + at.minute * 60 + at.second
    wall = cadence.local_time
    return wall.hour * 3600 + wall.minute * 60 + wall.second


def cadence_values(definition: str) -> dict[str, Any]:
    """``cadence_zone``, ``cadence_wall_time`` and ``cadence_key`` of a definition's cadence."""
    payload = load_object(definition).get("cadence")
    try:
        cadence = parse_cadence(payload) if isinstance(payload, dict) else None
    except CadenceError:
        cadence = None
    if cadence is None:
        return {"cadence_zone": None, "cadence_wall_time": None, "cadence_key": None}
    return {
        "cadence_zone": cadence.zone_name,
        "cadence_wall_time": wall_seconds(cadence),
        "cadence_key": canonical_json(cadence.to_payload()),
    }
