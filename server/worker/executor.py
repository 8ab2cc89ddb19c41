"""The run-executor port: how a queued run gets carried out.

The scheduler creates runs; it does not execute them. Whatever carries them
out implements ``RunExecutor``, and ``RunDispatcher`` drives it:

1. the dispatcher takes a QUEUED run (QUEUED -> RUNNING, compare-and-set, so
   one taker per run; or takes over one whose dispatcher stopped renewing
   its lease) and builds its ``ClaimedRun``: run, session and owner
   ids, the schedule linkage, the pinned limits, the deadline (its start
   plus its timeout), when it was
   delivered, and the instruction (the session's opening message, hidden from its transcript: an
   executor must never log it);
2. it awaits ``execute(run)`` on the event loop (an executor puts blocking
   work on a thread itself);
3. it records the returned ``RunResult`` in one transaction: the run's
   terminal status, the answer texts appended to the session as assistant
   messages, and the schedule's post-run accounting.

What an implementation promises:

- COMPLETED with the assistant's answer; FAILED with a stable ``reason`` code
  and an ``error_class`` only (no message text: the classification outlives
  session erasure in the audit log); CANCELLED when a person cancelled it.
- It finishes before ``deadline_at``; a run still active after its deadline
  is failed by the dispatcher (``deadline_exceeded``) and a later result for
  it is dropped.
- It is idempotent on ``run_id``: a run taken over from a stopped replica
  is executed again, and only the first result counts.
- Raising is a FAILED run (``executor_error`` with the exception's class).
- It exposes exactly the run's requested scopes and limits to the agent,
  never more.

``EmbeddedExecutor`` is the implementation for a server with no agent
runtime; a deployment with one attaches its own behind this port.
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
