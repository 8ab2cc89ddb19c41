"""Admission: whether a principal may have one more scheduled run right now.

This server's admission is a concurrency check: a configured cap on
a principal's active (QUEUED or RUNNING) scheduled runs. A denial is
transient: nothing is written, the schedule stays due, and the worker tries
it again after a bounded backoff (an edit, which cannot wait, records MISSED). (Per-minute and
cost ceilings, which record MISSED, need usage figures that no run here
produces, so they are not offered.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["DEFAULT_MAX_ACTIVE_RUNS", "Admission"]

DEFAULT_MAX_ACTIVE_RUNS: Final = 20


@dataclass(frozen=True, slots=True)
class Admission:
    """At most ``max_active_runs`` QUEUED or RUNNING scheduled runs per principal."""

    max_active_runs: int = DEFAULT_MAX_ACTIVE_RUNS

    def __post_init__(self) -> None:
        if self.max_active_runs < 1:
            raise ValueError("the active-run cap must be at least 1")

    def admits(self, active_runs: int) -> bool:
        return active_runs < self.max_active_runs
