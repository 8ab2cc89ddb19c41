"""The run-executor port: how a queued run gets carried out.

The dispatcher takes a run, awaits ``execute(run)`` on the event loop, and
records the returned ``RunResult`` (status, answers, the schedule's
accounting) in one transaction. An implementation answers COMPLETED with the
answers, FAILED with a stable ``reason`` and an ``error_class`` only (never
message text), or CANCELLED; finishes before ``deadline_at``; is idempotent
on ``run_id`` (a run taken over from a stopped replica is delivered again);
never logs the instruction; and exposes only the run's requested scopes and
limits. Raising is a FAILED run (``executor_error``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from server.domain.states import RunStatus
from server.storage.records import ClaimedRun

__all__ = ["RunExecutor", "RunFailure", "RunResult"]


@dataclass(frozen=True, slots=True)
class RunFailure:
    """Why a run failed, as a classification only."""

    reason: str
    error_class: str


@dataclass(frozen=True, slots=True)
class RunResult:
    """How a run ended: ``COMPLETED``, ``FAILED`` or ``CANCELLED``, with its answers."""

    status: RunStatus
    answers: tuple[str, ...] = ()
    failure: RunFailure | None = None

    def __post_init__(self) -> None:
        if self.status not in (RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.CANCELLED):
            raise ValueError(f"not a terminal run status: {self.status}")
        if (self.status == RunStatus.FAILED) != (self.failure is not None):
            raise ValueError("a failure is given exactly when the run failed")

    @classmethod
    def completed(cls, *answers: str) -> RunResult:
        return cls(RunStatus.COMPLETED, answers)

    @classmethod
    def failed(cls, reason: str, error_class: str, *answers: str) -> RunResult:
        return cls(RunStatus.FAILED, answers, RunFailure(reason, error_class))


class RunExecutor(Protocol):
    async def execute(self, run: ClaimedRun) -> RunResult:
        """Carry out ``run`` and say how it ended (see the module docstring)."""
        ...
