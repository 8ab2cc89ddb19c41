"""One agenda item, and what a schedule's current revision says about its items.

An item is a nominal instant of one schedule: computed from the current
cadence (ACTIVE, or PAUSED as if resumed), recorded in the ledger, or both
(a past computed instant carries its record's disposition). ``with_expected``
marks the past instants with no record that the scheduler should have
decided, by the projection's rule (``projection.is_expected``). ``Facts`` are
read once per (schedule, revision) and kept in a bounded cache: a revision
never changes, so a cached one is never stale.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import lru_cache
from threading import Lock
from typing import Any, Final
from uuid import UUID

from server.domain.cadence import Cadence, CadenceError, parse_cadence
from server.domain.projection import ProjectedFiring, active_span, is_expected, run_limit_of
from server.domain.states import ScheduleState

__all__ = ["AgendaItem", "Facts", "FactsCache", "cadence_of", "facts_of", "with_expected"]


@dataclass(frozen=True, slots=True)
class Facts:
    """What one revision's definition says that an item shows."""

    title: str
    cadence: Any
    """The definition's cadence object as stored."""
    run_limit: timedelta | None
    """The run-time limit (``run_timeout_seconds``); None when the definition has none."""


@dataclass(frozen=True, slots=True)
class AgendaItem:
    schedule_id: UUID
    state: str
    zone: str
    facts: Facts
    firing: ProjectedFiring
    as_if_resumed: bool
    disposition: str | None
    reason_code: str | None
    run_status: str | None
    clash_count: int
    may_overlap: bool
    expected: bool = False
    """A past instant the scheduler should have decided, with nothing recorded."""

    @property
    def at(self) -> datetime:
        return self.firing.at


def with_expected(
    items: Sequence[AgendaItem],
    active_since: Callable[[Collection[UUID]], Mapping[UUID, datetime]],
    not_yet_after: datetime,
) -> list[AgendaItem]:
    """``items``, each unrecorded past instant of an ACTIVE schedule's current span ``expected``.

    ``active_since`` reads when each ACTIVE schedule asked for last became
    ACTIVE; it is asked only when some item may be expected.
    """
    unrecorded = {
        item.schedule_id
        for item in items
        if item.disposition is None and item.state == ScheduleState.ACTIVE
        if item.at < not_yet_after
    }
    if not unrecorded:
        return list(items)
    since = active_since(unrecorded)
    spans = {key: active_span(at, None, True, not_yet_after) for key, at in since.items()}
    return [
        replace(item, expected=True)
        if is_expected(item.at, spans.get(item.schedule_id), item.disposition is not None)
        else item
        for item in items
    ]


def facts_of(definition: str) -> Facts:
    """The title, stored cadence and run-time limit of a canonical definition."""
    payload = json.loads(definition)
    title = payload.get("title")
    return Facts(
        title=title if isinstance(title, str) else "",
        cadence=payload.get("cadence"),
        run_limit=run_limit_of(payload.get("run_timeout_seconds")),
    )


@lru_cache(maxsize=4_096)
def cadence_of(cadence_key: str) -> Cadence | None:
    """The cadence a ``cadence_key`` (its canonical JSON) spells; None if it no longer reads."""
    try:
        return parse_cadence(json.loads(cadence_key))
    except (CadenceError, ValueError, TypeError):
        return None


class FactsCache:
    """At most ``size`` revisions' facts, least recently used out first; thread-safe."""

    DEFAULT_SIZE: Final = 20_000

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self._size = size
        self._kept: OrderedDict[tuple[UUID, int], Facts] = OrderedDict()
        self._lock = Lock()

    def get_all(
        self,
        wanted: Collection[tuple[UUID, int]],
        read: Callable[[Collection[tuple[UUID, int]]], dict[tuple[UUID, int], str]],
    ) -> dict[tuple[UUID, int], Facts]:
        """Each wanted revision's facts; ``read`` loads the definitions of those not kept."""
        found: dict[tuple[UUID, int], Facts] = {}
        missing: list[tuple[UUID, int]] = []
        with self._lock:
            for key in wanted:
                facts = self._kept.get(key)
                if facts is None:
                    missing.append(key)
                else:
                    self._kept.move_to_end(key)
                    found[key] = facts
        if missing:
            loaded = {key: facts_of(text) for key, text in read(missing).items()}
            found.update(loaded)
            with self._lock:
                self._kept.update(loaded)
                while len(self._kept) > self._size:
                    self._kept.popitem(last=False)
        return found
