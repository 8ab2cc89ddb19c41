"""An in-process agent runtime, installed for a test under the executor entry-point group."""

from __future__ import annotations

from server.storage.records import ClaimedRun
from server.worker.executor import RunResult


class CountingRuntime:
    """Answers each run with how many words its instruction has and which scopes it may use."""

    async def execute(self, run: ClaimedRun) -> RunResult:
        words = len(run.instruction.split())
        return RunResult.completed(f"{words} words, scopes: {', '.join(run.requested_scopes)}.")
