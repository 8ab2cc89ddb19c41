"""What an operator watches that only the database knows, counted at the moment asked.

``due_backlog`` is the number of ACTIVE schedules whose ``next_fire_at`` has
come (the worker's backlog: above zero for long means firings wait);
``runs_by_status`` the runs stored, by status; ``overdue`` the due ones whose
firing has waited past the overdue threshold (None when not asked). All are
the database's, so every replica of one database reports the same figures.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Tallies"]


@dataclass(frozen=True, slots=True)
class Tallies:
    due_backlog: int
    runs_by_status: dict[str, int] = field(default_factory=dict)
    overdue: int | None = None
