"""The executor of a server with no agent runtime attached.

It completes each run at once with one assistant message that says so
plainly and says when the instruction was delivered, so a firing is visible
and honest: the session appears, its transcript explains why nothing more
happened, and the schedule's failure count is not charged for a runtime the
deployment chose not to attach.
"""

from __future__ import annotations

from datetime import UTC, datetime

from server.storage.records import ClaimedRun
from server.worker.executor import RunResult

__all__ = ["EmbeddedExecutor", "no_runtime_answer"]


def no_runtime_answer(delivered_at: datetime) -> str:
    """The answer text for an instruction delivered at ``delivered_at``."""
    when = delivered_at.astimezone(UTC).strftime("%Y-%m-%d at %H:%M:%S UTC")
    return (
        "No agent runtime is attached to this schedule server, so nothing carried out"
        f" this instruction. It was delivered on {when}."
    )


class EmbeddedExecutor:
    """Answers every run with ``no_runtime_answer`` and completes it."""

    async def execute(self, run: ClaimedRun) -> RunResult:
        return RunResult.completed(no_runtime_answer(run.delivered_at))
