"""The executor protocol's two documents: the delivery a runtime receives, the answer it gives.

``delivery_body`` is the JSON the server POSTs for one claimed run (the same
bytes on every retry, so a runtime may compare them); ``read_answer`` turns
the runtime's 200 answer into a ``RunResult``. An answer that does not read
(not JSON, an unknown status, a reason that is prose rather than a code, a
body over ``MAX_ANSWER_BYTES``, where the executor stops reading) fails the
run as ``executor_answer_invalid``: the failure reason and class reach the
audit log, which must never hold message text, so they are held to short
code-like strings. Unknown fields are ignored, so runtimes can add
their own.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any, Final

from server.domain.states import ReasonCode, RunStatus
from server.storage.records import ClaimedRun
from server.worker.executor import RunResult

__all__ = [
    "INVALID_ANSWER",
    "MAX_ANSWER_BYTES",
    "PROTOCOL_VERSION",
    "delivery_body",
    "read_answer",
]

PROTOCOL_VERSION: Final = 1
MAX_ANSWERS: Final = 100
MAX_ANSWER_CHARS: Final = 100_000
MAX_ANSWER_BYTES: Final = 16 * 1024 * 1024
"""The longest answer body read: room for many long answers, a bound on one run's memory."""
_CODE: Final = re.compile(r"[A-Za-z0-9_.:-]{1,128}")
INVALID_ANSWER: Final = RunResult.failed(ReasonCode.EXECUTOR_ANSWER_INVALID, "InvalidAnswer")


def _instant(value: datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _id(value: object) -> str | None:
    return None if value is None else str(value)


def delivery_body(run: ClaimedRun) -> bytes:
    """The request body for ``run``: compact JSON, UTF-8 (it carries the instruction)."""
    document: dict[str, Any] = {
        "protocol_version": PROTOCOL_VERSION,
        "run_id": str(run.run_id),
        "schedule_id": _id(run.schedule_id),
        "occurrence_id": _id(run.occurrence_id),
        "session_id": str(run.session_id),
        "tenant_id": run.owner.tenant_id,
        "principal_id": run.owner.principal_id,
        "instruction": run.instruction,
        "requested_scopes": sorted(run.requested_scopes),
        "limits": run.limits,
        "agent_id": run.agent_id,
        "agent_version": run.agent_version,
        "policy_profile": run.policy_profile,
        "browser_profile_id": run.browser_profile_id,
        "nominal_fire_at": _instant(run.nominal_fire_at),
        "delivered_at": _instant(run.delivered_at),
        "deadline_at": _instant(run.deadline_at),
    }
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()


def read_answer(content: bytes) -> RunResult:
    """The run's outcome from a 200 answer's body; ``INVALID_ANSWER`` when it does not read."""
    try:
        document = json.loads(content)
    except ValueError:
        return INVALID_ANSWER
    if not isinstance(document, dict):
        return INVALID_ANSWER
    status = document.get("status")
    if status == "COMPLETED":
        answers = document.get("answers", [])
        if (
            not isinstance(answers, list)
            or len(answers) > MAX_ANSWERS
            or not all(isinstance(a, str) and 0 < len(a) <= MAX_ANSWER_CHARS for a in answers)
        ):
            return INVALID_ANSWER
        return RunResult.completed(*answers)
    if status == "FAILED":
        reason, error_class = document.get("reason"), document.get("error_class")
        if not (_is_code(reason) and _is_code(error_class)):
            return INVALID_ANSWER
        return RunResult.failed(str(reason), str(error_class))
    if status == "CANCELLED":
        return RunResult(RunStatus.CANCELLED)
    return INVALID_ANSWER


def _is_code(value: object) -> bool:
    return isinstance(value, str) and _CODE.fullmatch(value) is not None
